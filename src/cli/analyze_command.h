#pragma once

#include "gpuperf/report.h"
#include "gpuperf/result.h"
#include "gpuperf/sass.h"
#include "gpuperf/trace.h"

#include <string>
#include <vector>

#include "cli/command.h"

namespace gpuperf::cli {

// gpuperf analyze TRACE [--counters CSV] [--sass EXE]... [--model FILE] [--out DIR]
//   [--format md,json] [--top N] [--summary] [--verbose]
// Imports TRACE, analyses it, writes report.md / report.json into DIR atomically and prints the
// terminal summary on stdout.
class AnalyzeCommand final : public Command {
 public:
  CLI::App* Register(CLI::App& app) override;
  int Run() override;

 private:
  // Imports each of counters_paths_ (Nsight Compute CSVs) and joins its counters to `trace`.
  Status JoinCountersFile(model::Trace& trace) const;
  // Reads the SASS of every --sass file (cuobjdump) into `functions`; the first failure.
  Status ReadSassFiles(std::vector<model::SassFunction>& functions) const;
  // Writes the chosen formats (md, json, csv, trace; the trace export reads `trace` too);
  // returns the paths written or the first error. `summary` (with --summary) goes to
  // summary.json for `gpuperf ranks`.
  Result<std::vector<std::string>> WriteReports(const model::Trace& trace,
                                                const report::AnalysisReport& report,
                                                const std::string& summary) const;

  std::string trace_path_;
  std::vector<std::string> counters_paths_;  // --counters: Nsight Compute CSVs to join, in order
  std::vector<std::string> sass_paths_;      // --sass: files whose SASS cuobjdump lists
  std::string step_range_;  // --step-range: regex naming the ranges that are steps
  std::string model_path_;                   // --model: the user model file (FLOP/byte formulas)
  std::vector<std::string> ceilings_paths_;  // --ceilings: measured ceilings (gpuperf ceilings)
  std::string gpu_name_;                     // --gpu: the GPU an unnamed trace ran on
  std::string out_dir_ = "gpuperf-report";
  std::vector<std::string> formats_ = {"md", "json"};
  int top_ = 20;
  bool summary_ = false;  // --summary: also write the rank summary (summary.json)
};

}  // namespace gpuperf::cli
