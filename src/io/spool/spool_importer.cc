#include "io/spool/spool_importer.h"

#include <cstring>

#include "io/spool/spool_model.h"
#include "io/spool/spool_reader.h"

namespace gpuperf::io {
namespace {

class SpoolImporter final : public Importer {
 public:
  std::string_view FormatName() const override { return "gpuperf-recording"; }

  bool Probe(std::string_view head) const override {
    return head.size() >= sizeof(spool::kMagic) &&
           std::memcmp(head.data(), spool::kMagic, sizeof(spool::kMagic)) == 0;
  }

  Result<model::Trace> Import(const Input& input) const override {
    auto source = input.Open();
    if (!source.ok())
      return source.error();
    auto bytes = util::ReadAll(**source, kMaxSpoolBytes);
    if (!bytes.ok()) {
      const std::string& message = bytes.error().message;
      return Error{message.starts_with(input.name()) ? message : input.name() + ": " + message};
    }
    auto contents = ParseSpool(*bytes, input.name());
    if (!contents.ok())
      return contents.error();
    return SpoolsToTrace({*contents});
  }
};

}  // namespace

std::unique_ptr<Importer> MakeSpoolImporter() {
  return std::make_unique<SpoolImporter>();
}

}  // namespace gpuperf::io
