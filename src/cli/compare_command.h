#pragma once

#include <string>
#include <vector>

#include "cli/command.h"

namespace gpuperf::cli {

// Exit codes of `gpuperf compare` (docs/cli.md). 1 and 2 keep their meaning for every verb.
enum CompareExit : int {
  kComparePass = 0,          // no failure condition of --fail-on was met
  kCompareRegression = 3,    // verdict slower, and --fail-on has slower (the default)
  kCompareInconclusive = 4,  // verdict inconclusive, and --fail-on has inconclusive
  kCompareIncomparable = 5,  // environments or workloads differ (see --allow-different-env)
};

// gpuperf compare BEFORE AFTER [--out DIR] [--format md,json] [--threshold P%] [--alpha A]
//   [--min-repeats N] [--fail-on slower[,inconclusive]] [--allow-different-env]
class CompareCommand final : public Command {
 public:
  CLI::App* Register(CLI::App& app) override;
  int Run() override;

 private:
  std::string before_, after_;
  std::string out_dir_ = "gpuperf-compare";
  std::vector<std::string> formats_ = {"md", "json"};
  std::string threshold_ = "1%";
  double alpha_ = 0.05;
  int min_repeats_ = 5;
  std::vector<std::string> fail_on_ = {"slower"};
  bool allow_different_env_ = false;
  int top_ = 20;
};

}  // namespace gpuperf::cli
