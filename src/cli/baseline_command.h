#pragma once

#include <string>
#include <vector>

#include "cli/command.h"
#include "record/baseline.h"

namespace gpuperf::cli {

// gpuperf baseline [--warmup K] [--repeat N|auto] [--out DIR] [--quiet] -- ./app args...
// Exit codes: 0 recorded, 1 failure, 2 usage, 3 no usable GPU, 4 recorded but incomplete.
class BaselineCommand final : public Command {
 public:
  CLI::App* Register(CLI::App& app) override;
  int Run() override;

 private:
  record::BaselineOptions options_;
  std::string metrics_;
  std::string repeat_ = "5";
  double target_width_percent_ = 2.0;
};

}  // namespace gpuperf::cli
