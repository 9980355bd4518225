#include "cli/baseline_command.h"

#include "gpuperf/analyze.h"

#include <fmt/format.h>

#include <utility>

#include "cli/baseline_traces.h"
#include "cli/errors.h"
#include "cli/step_range_option.h"
#include "cli/terminal.h"
#include "report/baseline_writer.h"
#include "report/json_writer.h"
#include "report/roofline_svg.h"
#include "spool/metric_sets.h"
#include "util/terminal_text.h"

namespace gpuperf::cli {
namespace {

int ExitCodeOf(record::RecordStatus status) {
  switch (status) {
    case record::RecordStatus::kRecorded:
      return kExitOk;
    case record::RecordStatus::kUsage:
      return kExitUsage;
    case record::RecordStatus::kNoGpu:
      return kExitNoGpu;
    case record::RecordStatus::kFailure:
      break;
  }
  return kExitFailure;
}

// The report files of a recording, in the order they are written: the analysis of the median
// run (report.json, and roofline.svg exactly when report.md links one), then baseline.json and
// report.md.
std::vector<std::pair<std::string, std::string>> BaselineFiles(
    const baseline::Baseline& model, const std::optional<report::AnalysisReport>& analysis) {
  std::vector<std::pair<std::string, std::string>> files;
  report::MarkdownOptions options;
  options.tool.version = GPUPERF_VERSION;
  if (analysis) {
    files.emplace_back("report.json", report::DumpJson(report::ToJson(*analysis, options.tool)));
    if (report::HasRooflineChart(*analysis))
      files.emplace_back("roofline.svg", report::RooflineSvg(*analysis));
  }
  files.emplace_back("baseline.json", report::BaselineJson(model, analysis).dump(2) + "\n");
  files.emplace_back("report.md", report::BaselineMarkdown(model, analysis, options));
  return files;
}

// The analysis of the median steady-state run, as `analyze` runs it on a file; nullopt when no
// such run recorded anything.
std::optional<report::AnalysisReport> AnalyseMedianRun(const record::BaselineSession& session,
                                                       const record::BaselineOptions& options) {
  if (!session.analysed_run)
    return std::nullopt;
  analysis::AnalyzeOptions analyze_options;
  analyze_options.step_range = options.step_range;
  report::AnalysisReport analysis = analysis::Analyze(*session.analysed_run, analyze_options);
  for (const record::MeasuredRun& run : session.data.runs) {
    if (run.index == session.data.analyzed_run)
      analysis.source.path = run.dir;
  }
  analysis.source.format = "gpuperf recording (Kineto dialect)";
  return analysis;
}

}  // namespace

BaselineOutcome RunBaseline(const record::BaselineOptions& options) {
  record::BaselineSession session;
  const record::RecordResult recorded = record::RecordBaseline(options, session);
  if (recorded.status != record::RecordStatus::kRecorded)
    return {ExitCodeOf(recorded.status), recorded.message, ""};
  record::BaselineData& data = session.data;
  // The traces first: the analysed run is read after them, so that no two traces are in memory.
  StageRunTraces(session);
  record::ReadAnalysedRun(session);
  const std::optional<report::AnalysisReport> analysis = AnalyseMedianRun(session, options);
  baseline::Baseline model = record::ToBaselineModel(data);
  if (!analysis)
    model.analyzed_run = 0;  // baseline.json and report.md name no analysed run without one
  // Every write, the final flush and fsync checked: a full disk fails here, not silently.
  for (const auto& [name, content] : BaselineFiles(model, analysis)) {
    if (Status staged = record::StageBaselineFile(session, name, content); !staged)
      return {kExitFailure, staged.error().message, ""};
  }
  if (Status committed = record::CommitBaseline(session); !committed)
    return {kExitFailure, committed.error().message, ""};
  if (data.complete)
    return {kExitOk, "", session.out.string()};
  return {kExitIncomplete,
          "recording incomplete: " +
              (data.problems.empty() ? std::string("no measured run") : data.problems.front()),
          session.out.string()};
}

CLI::App* BaselineCommand::Register(CLI::App& app) {
  CLI::App* sub = app.add_subcommand(
      "baseline",
      "Record a baseline: warm-up and measured runs of a program under the CUDA tracer");
  sub->footer(
      "Examples:\n"
      "  gpuperf baseline -- ./app --size 1024\n"
      "  gpuperf baseline --warmup 2 --repeat auto --out base -- python train.py\n"
      "  gpuperf baseline --metrics roofline -- ./app   (adds an untimed counter pass)\n"
      "Exit codes: 0 recorded, 1 failure, 2 usage, 3 no usable GPU (no driver, no device,\n"
      "driver too old for CUDA 13), 4 recorded but incomplete (a run was killed or partial).");
  sub->add_option("--warmup", options_.warmup, "Warm-up runs before measuring (not reported)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option(
      "--repeat", repeat_, "Measured runs, or 'auto' to stop when the median is precise");
  sub->add_option("--target-width",
                  target_width_percent_,
                  "--repeat auto: stop when the 95% interval of the median is narrower than this "
                  "percent of the median")
      ->check(CLI::PositiveNumber);
  sub->add_option("--budget",
                  options_.auto_repeat.time_budget_s,
                  "--repeat auto: seconds of measured runs before giving up on the target")
      ->check(CLI::PositiveNumber);
  sub->add_option("--max-runs", options_.auto_repeat.max_runs, "--repeat auto: most measured runs")
      ->check(CLI::PositiveNumber);
  sub->add_option("--out", options_.out_dir, "Output directory (created; must not exist)");
  sub->add_flag("--force", options_.force, "Replace an existing output directory");
  sub->add_flag("--gzip", options_.gzip, "Write the traces as .json.gz");
  sub->add_flag("--measure-overhead,!--no-overhead",
                options_.measure_overhead,
                "Time as many untraced runs as measured ones (at least 3) after them and report "
                "the tracing overhead (the default; --no-overhead skips them)");
  sub->add_option("--metrics",
                  metrics_,
                  "After the timed runs, a counter pass (CUPTI range profiler, kernel replay) on "
                  "the top kernels: a set (roofline, memory) and/or raw metric names, "
                  "comma-separated");
  sub->add_option("--metrics-kernels",
                  options_.counters.kernels,
                  "--metrics: how many kernel names to profile, by total time (default 10)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--metrics-timeout",
                  options_.counters.timeout_s,
                  "--metrics: seconds before the counter pass is killed (default 60 + 20 x the "
                  "analysed run's wall time)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--metrics-launches",
                  options_.counters.per_kernel,
                  "--metrics: launches profiled per kernel name (default 3)")
      ->check(CLI::PositiveNumber);
  sub->add_flag("--keep-spool", options_.keep_spool, "Keep the raw recordings next to the traces");
  AddStepRangeOption(sub, options_.step_range);
  sub->add_option("command", options_.command, "The program and its arguments, after --")
      ->required();
  sub->positionals_at_end();
  return sub;
}

int BaselineCommand::Run() {
  options_.quiet = Quiet();  // the common -q,--quiet (app.cc): no progress lines either
  if (!metrics_.empty()) {
    spool::ExpandedMetrics expanded = spool::ExpandMetricList(metrics_);
    if (!expanded.error.empty()) {
      PrintError("--metrics: " + expanded.error);
      return kExitUsage;
    }
    options_.counters.metrics = std::move(expanded.metrics);
    options_.counters.metrics_list = metrics_;
  }
  if (repeat_ == "auto") {
    options_.repeat = 0;
    options_.auto_repeat.target_relative_width = target_width_percent_ / 100.0;
  } else {
    try {
      std::size_t used = 0;
      options_.repeat = std::stoi(repeat_, &used);
      if (used != repeat_.size() || options_.repeat < 1)
        throw std::invalid_argument(repeat_);
    } catch (const std::exception&) {
      PrintError("--repeat takes a positive number or 'auto', not '" + repeat_ + "'");
      return kExitUsage;
    }
  }
  const BaselineOutcome outcome = RunBaseline(options_);
  if (!outcome.message.empty())
    PrintError(outcome.message);
  if (!outcome.out_dir.empty() && !options_.quiet) {
    fmt::print(
        stderr, "gpuperf: baseline written to {}\n", util::SanitizeForTerminal(outcome.out_dir));
  }
  return outcome.exit_code;
}

}  // namespace gpuperf::cli
