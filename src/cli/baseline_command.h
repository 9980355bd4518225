#pragma once

#include <string>
#include <vector>

#include "cli/command.h"
#include "record/baseline.h"

namespace gpuperf::cli {

struct BaselineOutcome {
  int exit_code = kExitOk;
  std::string message;  // for "gpuperf: error: ..." when exit_code != 0
  std::string out_dir;  // where the results are (empty when nothing was written)
};

// The whole verb, as `analyze` is: record (record::RecordBaseline), write the runs' Kineto traces
// (StageRunTraces), analyse the median steady-state run (record::ReadAnalysedRun,
// analysis::Analyze), write report.json, roofline.svg, baseline.json and report.md into the
// recording's staging directory and commit it (record::CommitBaseline).
// Exit codes: 0 recorded, 1 failure, 2 usage, 3 no usable GPU, 4 recorded but incomplete.
BaselineOutcome RunBaseline(const record::BaselineOptions& options);

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
