// libFuzzer target: arbitrary bytes as the user model file of `analyze --model`: JSON read,
// patterns and formulas compiled, a few kernel names matched and evaluated.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "io/kernel_model/kernel_model_json.h"
#include "model/kernel_model.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto file = gpuperf::io::ParseKernelModelJson(bytes, "fuzz/model.json");
  if (!file.ok())
    return 0;
  auto compiled = gpuperf::model::CompileKernelModel(*file);
  if (!compiled.ok())
    return 0;
  const std::string long_name(5000, 'g');
  const std::vector<std::string_view> names = {
      "sgemm_128x64_nn", "void at::native::kernel<float>()", long_name};
  gpuperf::model::GpuActivity launch;
  launch.grid = {4, 2, 1};
  launch.block = {128, 1, 1};
  for (const auto& match : gpuperf::model::MatchKernelNames(*compiled, names)) {
    if (match.entry >= 0)
      (void)gpuperf::model::EvaluateLaunch(*compiled, match, launch);
  }
  return 0;
}
