#include "cli/compare_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "analysis/compare/compare.h"
#include "cli/app.h"
#include "cli/compare_inputs.h"
#include "cli/errors.h"
#include "cli/input_options.h"
#include "cli/report_output.h"
#include "cli/terminal.h"
#include "report/compare_writer.h"
#include "report/json_writer.h"
#include "report/plain_text.h"

namespace gpuperf::cli {
namespace {

constexpr const char* kCompareExamples = R"(Examples:
  gpuperf compare before/ after/
      Two baseline directories (gpuperf baseline --out ...): end-to-end verdict from the runs'
      wall times, per-kernel verdicts from kernel instances.
  gpuperf compare base.json.gz test.json.gz --threshold 2% --fail-on slower,inconclusive
      Two traces; a CI gate that also fails when the data cannot decide.
  gpuperf compare old/report.json new/report.json --format json
      Two gpuperf reports (summaries only: Welch's t on kernel means).

Writes DIR/compare.md (starts with a two-line summary for a pull-request comment) and
DIR/compare.json (verdict, per-kernel results). Exit codes: 0 pass, 1 error, 2 usage,
3 regression (slower), 4 inconclusive (only with --fail-on inconclusive), 5 incomparable.)";

// "3%", "3" and "0.5%" all mean percent.
std::optional<double> ParsePercent(std::string text) {
  if (!text.empty() && text.back() == '%')
    text.pop_back();
  double value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value) ||
      value < 0 || value >= 100)
    return std::nullopt;
  return value / 100.0;
}

}  // namespace

CLI::App* CompareCommand::Register(CLI::App& app) {
  CLI::App* sub = app.add_subcommand(
      "compare", "Compare before/after (baseline directories, traces or reports) with statistics");
  sub->add_option("before", before_, "Baseline directory, trace or report.json before the change")
      ->required()
      ->type_name("BEFORE");
  sub->add_option("after", after_, "The same after the change")->required()->type_name("AFTER");
  AddOutputOptions(sub, out_dir_, formats_, "compare.md and compare.json");
  sub->add_option("--threshold", threshold_, "Smallest relative change that counts, e.g. 2%")
      ->type_name("P%")
      ->capture_default_str();
  sub->add_option("--alpha", alpha_, "Significance level of the tests (two-sided)")
      ->check(CLI::Range(1e-6, 0.5))
      ->capture_default_str();
  sub->add_option("--min-repeats", min_repeats_, "Samples needed per side for a verdict")
      ->check(CLI::Range(2, 1000000))
      ->capture_default_str();
  sub->add_option("--fail-on", fail_on_, "Verdicts that fail the exit code: slower, inconclusive")
      ->delimiter(',')
      ->check(CLI::IsMember({"slower", "inconclusive"}))
      ->type_name("LIST")
      ->capture_default_str();
  sub->add_flag("--allow-different-env",
                allow_different_env_,
                "Compare even when GPU, driver, CUDA, clocks, command or workload differ");
  sub->add_option("-n,--top", top_, "Kernel rows in compare.md")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  AddInputLimitOptions(sub);
  sub->footer(kCompareExamples);
  return sub;
}

int CompareCommand::Run() {
  auto threshold = ParsePercent(threshold_);
  if (!threshold) {
    PrintError(fmt::format("--threshold {}: expected a percentage such as 2%", threshold_));
    return kExitUsage;
  }
  Progress progress("reading " + before_ + " and " + after_);
  auto before = LoadSide(before_);
  if (!before.ok()) {
    PrintError(before.error().message);
    return kExitFailure;
  }
  auto after = LoadSide(after_);
  if (!after.ok()) {
    PrintError(after.error().message);
    return kExitFailure;
  }
  compare::Options options;
  options.threshold = *threshold;
  options.alpha = alpha_;
  options.min_repeats = min_repeats_;
  options.allow_different_env = allow_different_env_;
  compare::CompareReport result = analysis::Compare(*before, *after, options);
  progress.Finish();

  report::ToolInfo tool{"gpuperf", Version()};
  std::vector<std::pair<std::string, std::string>> files;
  if (WantsFormat(formats_, "md"))
    files.emplace_back("compare.md",
                       report::CompareToMarkdown(result, tool, static_cast<std::size_t>(top_)));
  if (WantsFormat(formats_, "json"))
    files.emplace_back("compare.json", report::DumpJson(report::CompareToJson(result, tool)));
  auto written = WriteReportFiles(out_dir_, files);
  if (!written.ok()) {
    PrintError(written.error().message);
    return kExitFailure;
  }
  std::FILE* out = Out();
  std::fprintf(out, "%s\n", report::PlainText(result.summary).c_str());
  for (const std::string& path : *written)
    std::fprintf(out, "wrote %s\n", path.c_str());
  std::fflush(out);

  auto fails_on = [&](const char* verdict) {
    return std::find(fail_on_.begin(), fail_on_.end(), verdict) != fail_on_.end();
  };
  if (result.verdict == compare::Verdict::kIncomparable)
    return kCompareIncomparable;
  if (result.verdict == compare::Verdict::kSlower && fails_on("slower"))
    return kCompareRegression;
  if (result.verdict == compare::Verdict::kInconclusive && fails_on("inconclusive"))
    return kCompareInconclusive;
  return kComparePass;
}

}  // namespace gpuperf::cli
