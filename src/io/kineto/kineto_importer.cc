// PLACEHOLDER: replaced by the Kineto importer.
#include "io/kineto/kineto_importer.h"
namespace gpuperf::io {
namespace {
class KinetoImporter final : public Importer {
 public:
  std::string_view FormatName() const override { return "kineto"; }
  bool Probe(std::string_view) const override { return false; }
  Result<model::Trace> Import(const Input& input) const override {
    return Error{input.name() + ": Kineto reader not built"};
  }
};
}  // namespace
std::unique_ptr<Importer> MakeKinetoImporter() { return std::make_unique<KinetoImporter>(); }
}  // namespace gpuperf::io
