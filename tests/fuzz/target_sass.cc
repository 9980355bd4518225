// libFuzzer target: arbitrary bytes as a `cuobjdump -sass` listing (analyze --sass).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "io/sass/sass_parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  (void)gpuperf::io::sass::ParseSass(bytes, "fuzz.sass");
  return 0;
}
