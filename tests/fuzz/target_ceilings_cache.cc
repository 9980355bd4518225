// libFuzzer target: arbitrary bytes as a measured-ceilings cache file and as the probe's output
// (`gpuperf ceilings`, `analyze --ceilings`).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "io/ceilings/ceilings_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto cached = gpuperf::io::ceilings::ParseCacheJson(bytes, "fuzz/cache.json");
  if (cached.ok())
    (void)gpuperf::io::ceilings::ToCacheJson(*cached);
  (void)gpuperf::io::ceilings::ParseProbeOutput(bytes);
  return 0;
}
