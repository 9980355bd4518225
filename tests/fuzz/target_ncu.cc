// libFuzzer target: arbitrary bytes behind an Nsight Compute CSV header, through the importer
// registry (the ncu CSV reader, values and layouts) and the analysis with its roofline.
#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto trace = gpuperf::io::ImportTraceMemory(bytes, "fuzz.csv");
  if (trace.ok())
    (void)gpuperf::analysis::Analyze(*trace);
  return 0;
}
