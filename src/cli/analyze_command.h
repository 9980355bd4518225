#pragma once

#include "gpuperf/report.h"
#include "gpuperf/result.h"

#include <string>
#include <vector>

#include "cli/command.h"

namespace gpuperf::cli {

// gpuperf analyze TRACE [--out DIR] [--format md,json] [--top N] [--verbose]
// Imports TRACE, analyses it, writes report.md / report.json into DIR atomically and prints the
// terminal summary on stdout.
class AnalyzeCommand final : public Command {
 public:
  CLI::App* Register(CLI::App& app) override;
  int Run() override;

 private:
  bool Wants(const std::string& format) const;
  // Writes the chosen formats; returns the paths written or the first error.
  Result<std::vector<std::string>> WriteReports(const report::AnalysisReport& report) const;

  std::string trace_path_;
  std::string out_dir_ = "gpuperf-report";
  std::vector<std::string> formats_ = {"md", "json"};
  int top_ = 20;
  bool verbose_ = false;
};

}  // namespace gpuperf::cli
