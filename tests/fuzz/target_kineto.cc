// libFuzzer target: arbitrary bytes through the importer registry (the Kineto importer and its
// JSON tokenizer), and through the analysis when the import succeeds.
#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto trace = gpuperf::io::ImportTraceMemory(bytes, "fuzz.json");
  if (trace.ok())
    (void)gpuperf::analysis::Analyze(*trace);
  return 0;
}
