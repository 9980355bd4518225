// libFuzzer target: arbitrary bytes as a spool file of the recorder (header, chunks, events,
// strings), then through the spool -> trace conversion and the analysis, and through the importer
// registry (src/io/spool/spool_importer.h) as `gpuperf analyze` reads a kept spool.
#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "io/spool/spool_model.h"
#include "io/spool/spool_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto contents = gpuperf::io::ParseSpool(bytes, "fuzz.spool");
  if (contents.ok()) {
    gpuperf::model::Trace trace = gpuperf::io::SpoolsToTrace({*contents});
    (void)gpuperf::analysis::Analyze(trace);
  }
  (void)gpuperf::io::ImportTraceMemory(bytes, "fuzz.gpuperf");
  return 0;
}
