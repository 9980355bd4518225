// libFuzzer target for the Nsight Systems SQLite importer: any bytes in, never a crash, a leak or
// undefined behaviour out. On success the trace also goes through the analysis.
#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto trace = gpuperf::io::ImportTraceMemory(bytes, "fuzz.sqlite");
  if (trace.ok()) {
    auto report = gpuperf::analysis::Analyze(*trace);
    static_cast<void>(report);
  }
  return 0;
}
