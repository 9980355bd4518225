#pragma once

#include <string>
#include <vector>

#include "cli/command.h"

namespace gpuperf::cli {

// gpuperf ranks DIR|FILES... [--out DIR] [--format md,json] [--jobs N]
// Reads the ranks of one job in parallel and writes ranks.md / ranks.json (docs/ranks.md).
class RanksCommand final : public Command {
 public:
  CLI::App* Register(CLI::App& app) override;
  int Run() override;

 private:
  std::vector<std::string> inputs_;
  std::string out_dir_ = "gpuperf-ranks";
  std::vector<std::string> formats_ = {"md", "json"};
  int jobs_ = 0;  // 0: one per core
};

}  // namespace gpuperf::cli
