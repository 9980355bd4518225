// libFuzzer target: arbitrary bytes as a gpuperf report.json (what `compare` and `predict` read
// back).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "io/report/report_json_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  (void)gpuperf::io::LooksLikeGpuperfReport(bytes);
  (void)gpuperf::io::ParseReportJson(bytes, "fuzz/report.json");
  return 0;
}
