// PLACEHOLDER: replaced by the Nsys importer.
#include "io/nsys/nsys_importer.h"
namespace gpuperf::io {
namespace {
class NsysImporter final : public Importer {
 public:
  std::string_view FormatName() const override { return "nsys-sqlite"; }
  bool Probe(std::string_view) const override { return false; }
  Result<model::Trace> Import(const Input& input) const override {
    return Error{input.name() + ": Nsys reader not built"};
  }
};
}  // namespace
std::unique_ptr<Importer> MakeNsysImporter() { return std::make_unique<NsysImporter>(); }
}  // namespace gpuperf::io
