#include "cli/predict_command.h"

#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

#include <fmt/format.h>

#include <cstdio>

#include "analysis/core/correlation.h"
#include "analysis/predictions/predictions.h"
#include "cli/errors.h"
#include "cli/input_options.h"
#include "cli/terminal.h"
#include "cli/trace_input.h"
#include "io/report/report_json_reader.h"
#include "report/json_writer.h"
#include "report/predict_writer.h"
#include "util/user_regex.h"

namespace gpuperf::cli {
namespace {

constexpr const char* kPredictExamples = R"(Examples:
  gpuperf predict trace.json.gz --kernel 'softmax' --speedup 1.12
      How much can a 1.12x faster softmax kernel give the whole program at most?
  gpuperf predict gpuperf-report/report.json --kernel 'gemm|gemv' --speedup 2 --format json
      The same from a report that gpuperf analyze wrote; JSON for scripts.

f is the kernels' share of the critical time (time they run alone on the GPU while the program
waits for them), from the timeline, never from invocation counts.
Exit codes: 0 ok, 1 error (unreadable input, no kernel matches), 2 usage.)";

// The prediction from a report.json read back, or from the trace at `input.path`.
Result<predict::Prediction> Predict(const io::ReportOrTrace& input,
                                    const util::UserRegex& pattern,
                                    double speedup) {
  if (input.report) {
    if (input.report->predictions.wall_ns <= 0)
      return Error{
          fmt::format("{}: the report has no predictions section (written by gpuperf "
                      "before 0.2?); analyze the trace again or pass the trace",
                      input.path)};
    return analysis::PredictFromReport(input.report->predictions, pattern, speedup);
  }
  auto trace = ImportTraceForAnalysis(input.path);
  if (!trace.ok())
    return trace.error();
  analysis::CorrelationIndex index(*trace);
  return analysis::PredictFromTrace(*trace, index, pattern, speedup);
}

}  // namespace

CLI::App* PredictCommand::Register(CLI::App& app) {
  CLI::App* sub = app.add_subcommand(
      "predict", "Bound the whole-program gain of a kernel speedup (Amdahl, from the timeline)");
  sub->add_option("input", input_, "Trace, gpuperf report.json, or a baseline directory")
      ->required()
      ->type_name("REPORT_OR_TRACE");
  sub->add_option("-k,--kernel",
                  kernel_regex_,
                  "Kernel names to speed up (ECMAScript regex, "
                  "searched anywhere in the name)")
      ->required()
      ->type_name("REGEX");
  sub->add_option("-s,--speedup", speedup_, "Local speedup of those kernels, e.g. 1.12")
      ->required()
      ->check(CLI::Range(1e-6, 1e9))
      ->type_name("S");
  sub->add_option("--format", format_, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  AddInputLimitOptions(sub);
  sub->footer(kPredictExamples);
  return sub;
}

int PredictCommand::Run() {
  auto compiled = util::UserRegex::Compile(kernel_regex_);
  if (!compiled.ok()) {
    PrintError("--kernel " + compiled.error().message);
    return kExitUsage;
  }
  auto input = io::ReadReportOrTracePath(input_);
  if (!input.ok()) {
    PrintError(input.error().message);
    return kExitFailure;
  }
  auto prediction = Predict(*input, compiled.value(), speedup_);
  if (!prediction.ok()) {
    PrintError(prediction.error().message);
    return kExitFailure;
  }
  if (prediction->kernels_matched.empty()) {
    PrintError(fmt::format("{}: no kernel name matches --kernel {}", input_, kernel_regex_));
    return kExitFailure;
  }
  const std::string text = format_ == "json" ? report::DumpJson(report::PredictJson(*prediction))
                                             : report::PredictText(*prediction);
  std::fputs(text.c_str(), Out());
  return std::fflush(Out()) == 0 ? kExitOk : kExitFailure;
}

}  // namespace gpuperf::cli
