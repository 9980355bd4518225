#pragma once

#include <string>
#include <vector>

#include "cli/command.h"

namespace gpuperf::cli {

// gpuperf analyze TRACE [--out DIR] [--format md,json] [--top N]
class AnalyzeCommand final : public Command {
 public:
  CLI::App* Register(CLI::App& app) override;
  int Run() override;

 private:
  std::string trace_path_;
  std::string out_dir_ = "gpuperf-report";
  std::vector<std::string> formats_ = {"md", "json"};
  int top_ = 20;
};

}  // namespace gpuperf::cli
