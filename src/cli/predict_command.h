#pragma once

#include <string>

#include "cli/command.h"

namespace gpuperf::cli {

// gpuperf predict REPORT_OR_TRACE --kernel REGEX --speedup S [--format text|json]
// Prints f, s, the Amdahl bound, the time saved and what they rest on.
class PredictCommand final : public Command {
 public:
  CLI::App* Register(CLI::App& app) override;
  int Run() override;

 private:
  std::string input_;
  std::string kernel_regex_;
  double speedup_ = 0;
  std::string format_ = "text";
};

}  // namespace gpuperf::cli
