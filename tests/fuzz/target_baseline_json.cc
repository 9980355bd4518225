// libFuzzer target: arbitrary bytes as a gpuperf baseline.json (what `compare` and `ranks` read
// from a baseline directory).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "io/report/baseline_json_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  (void)gpuperf::io::ParseBaselineJson(bytes, "fuzz/baseline.json");
  return 0;
}
