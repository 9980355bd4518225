#pragma once

#include <cstdint>
#include <string>

#include "cli/command.h"

namespace gpuperf::cli {

// gpuperf ceilings [--device N] [--cache-dir DIR] [--probe PATH] [--show]
// Measures the sustainable DRAM bandwidth, FP32 FMA rate and bf16/fp16 tensor-core rates of one
// local GPU with gpuperf_ceilings_probe (kernels/ceilings_probe.cu), caches them as
// DIR/<uuid>.json (evidence "measured") and prints them beside the datasheet. --show prints the
// cache without measuring (no GPU needed). Exit codes: 0 ok, 1 failure, 2 usage, 3 no usable GPU
// (kExitNoGpu, as `baseline`).
class CeilingsCommand final : public Command {
 public:
  CLI::App* Register(CLI::App& app) override;
  int Run() override;

 private:
  int Show(const std::string& dir) const;
  int Measure(const std::string& dir) const;

  std::int32_t device_ = 0;
  std::string cache_dir_;  // "" -> io::ceilings::DefaultCacheDir()
  std::string probe_;      // --probe: the probe program; "" -> located
  bool show_ = false;
};

}  // namespace gpuperf::cli
