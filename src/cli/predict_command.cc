#include "cli/predict_command.h"

#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "analysis/core/correlation.h"
#include "analysis/predictions/amdahl.h"
#include "analysis/predictions/predictions.h"
#include "cli/errors.h"
#include "cli/input_options.h"
#include "cli/terminal.h"
#include "cli/trace_input.h"
#include "io/report/report_json_reader.h"
#include "report/json_predictions.h"
#include "report/json_writer.h"
#include "report/markdown_escape.h"
#include "report/plain_text.h"
#include "util/byte_source.h"
#include "util/units_format.h"
#include "util/user_regex.h"

namespace gpuperf::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kPredictExamples = R"(Examples:
  gpuperf predict trace.json.gz --kernel 'softmax' --speedup 1.12
      How much can a 1.12x faster softmax kernel give the whole program at most?
  gpuperf predict gpuperf-report/report.json --kernel 'gemm|gemv' --speedup 2 --format json
      The same from a report that gpuperf analyze wrote; JSON for scripts.

f is the kernels' share of the critical time (time they run alone on the GPU while the program
waits for them), from the timeline, never from invocation counts.
Exit codes: 0 ok, 1 error (unreadable input, no kernel matches), 2 usage.)";

struct Prediction {
  std::vector<std::string> matched;
  report::CriticalShare share;
  std::int64_t wall_ns = 0;
  std::int64_t device_groups = 1;
  std::string source;  // how f was obtained
  std::string method;
  std::optional<double> roof_limit;  // the largest local speedup the roofline allows
  std::size_t unmatchable = 0;       // names the matcher refused (too long), never selected
};

// The guarded search of --kernel; a name it refuses counts as not selected.
bool Selects(const util::UserRegex& pattern, std::string_view name, Prediction& out) {
  Result<bool> hit = pattern.Search(name);
  if (!hit.ok())
    ++out.unmatchable;
  return hit.ok() && hit.value();
}

Result<Prediction> FromReport(const std::string& path, const util::UserRegex& pattern) {
  auto report = io::ReadReportJson(path);
  if (!report.ok())
    return report.error();
  const report::Predictions& p = report->predictions;
  if (p.wall_ns <= 0)
    return Error{
        fmt::format("{}: the report has no predictions section (written by gpuperf "
                    "before 0.2?); analyze the trace again or pass the trace",
                    path)};
  Prediction out;
  out.wall_ns = p.wall_ns;
  out.device_groups = std::max<std::int64_t>(1, p.device_groups);
  out.method = p.method;
  std::int64_t floor = 0;
  bool all_floors = true;
  for (const report::CriticalShare& k : p.kernels) {
    if (!Selects(pattern, k.name, out))
      continue;
    out.matched.push_back(k.name);
    out.share.instances += k.instances;
    out.share.total_ns += k.total_ns;
    out.share.exclusive_ns += k.exclusive_ns;
    out.share.critical_ns += k.critical_ns;
    all_floors &= k.floor_ns.has_value();
    floor += k.floor_ns.value_or(0);
  }
  if (all_floors && floor > 0 && !out.matched.empty())
    out.roof_limit = std::max(1.0, static_cast<double>(out.share.total_ns) / floor);
  out.source = out.matched.size() > 1
                   ? "report.json predictions: the matched kernels' critical times summed (a "
                     "lower bound when they overlap each other; pass the trace for the exact "
                     "figure)"
                   : "report.json predictions";
  return out;
}

Result<Prediction> FromTrace(const std::string& path, const util::UserRegex& pattern) {
  auto trace = ImportTraceForAnalysis(path);
  if (!trace.ok())
    return trace.error();
  analysis::CorrelationIndex index(*trace);
  Prediction out;
  std::set<std::string> matched;
  out.share = analysis::SelectedKernelsShare(
      *trace,
      index,
      [&](std::string_view name) {
        const bool hit = Selects(pattern, name, out);
        if (hit)
          matched.emplace(name);
        return hit;
      },
      &out.wall_ns,
      &out.device_groups);
  out.matched.assign(matched.begin(), matched.end());
  out.device_groups = std::max<std::int64_t>(1, out.device_groups);
  out.source = "trace timeline: stretches in which only the matched kernels run";
  out.method = "critical time as in report.json predictions.method (docs/metrics.md)";
  return out;
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
  const util::UserRegex& pattern = compiled.value();
  std::string path = input_;
  std::error_code error;
  if (fs::is_directory(path, error))
    path = (fs::path(path) / "report.json").string();
  auto head = util::ReadFileHead(path, 4096);
  if (!head.ok()) {
    PrintError(head.error().message);
    return kExitFailure;
  }
  auto prediction =
      io::LooksLikeGpuperfReport(*head) ? FromReport(path, pattern) : FromTrace(path, pattern);
  if (!prediction.ok()) {
    PrintError(prediction.error().message);
    return kExitFailure;
  }
  Prediction& p = *prediction;
  if (p.matched.empty()) {
    PrintError(fmt::format("{}: no kernel name matches --kernel {}", input_, kernel_regex_));
    return kExitFailure;
  }
  const double denominator = static_cast<double>(p.wall_ns) * static_cast<double>(p.device_groups);
  const double f = denominator > 0 ? std::min(1.0, p.share.critical_ns / denominator) : 0.0;
  const double bound = analysis::AmdahlSpeedup(f, speedup_);
  const std::int64_t saved = analysis::TimeSavedNs(p.share.critical_ns, speedup_) /
                             std::max<std::int64_t>(1, p.device_groups);
  const double limit = analysis::AmdahlLimit(f);
  std::vector<std::string> rests_on = {
      p.source,
      "every other part of the program unchanged (Amdahl)",
      "the wall time is the trace window: " + std::to_string(p.wall_ns) + " ns",
  };
  if (p.unmatchable > 0)
    rests_on.push_back(fmt::format("{} kernel name(s) longer than {} characters not matched",
                                   p.unmatchable,
                                   util::kMaxUserSubjectLength));
  if (p.roof_limit && speedup_ > *p.roof_limit)
    rests_on.push_back(fmt::format(
        "WARNING: the roofline floor allows at most {:.3f}x for these kernels", *p.roof_limit));
  if (format_ == "json") {
    nlohmann::ordered_json j;
    j["kernel_regex"] = kernel_regex_;
    j["kernels_matched"] = p.matched;
    j["fraction"] = report::RoundedNumber(f, 6);
    j["local_speedup"] = speedup_;
    j["bound_speedup"] = report::RoundedNumber(bound, 6);
    j["time_saved_ns"] = saved;
    j["limit_speedup"] = report::RoundedNumber(limit, 6);
    j["critical_ns"] = p.share.critical_ns;
    j["total_ns"] = p.share.total_ns;
    j["wall_ns"] = p.wall_ns;
    j["device_groups"] = p.device_groups;
    j["roof_max_local_speedup"] =
        p.roof_limit ? report::RoundedNumber(*p.roof_limit, 6) : nlohmann::ordered_json(nullptr);
    j["rests_on"] = rests_on;
    j["method"] = p.method;
    std::fputs(report::DumpJson(j).c_str(), Out());
  } else {
    std::FILE* out = Out();
    std::fprintf(out, "kernels matched: %zu\n", p.matched.size());
    for (std::size_t i = 0; i < std::min<std::size_t>(p.matched.size(), 5); ++i)
      std::fprintf(out, "  %s\n", report::SanitizeForTerminal(p.matched[i]).c_str());
    std::fprintf(out,
                 "f (share of critical time): %.4f  (%s critical of %s wall x %lld)\n",
                 f,
                 util::FormatDuration(static_cast<double>(p.share.critical_ns)).c_str(),
                 util::FormatDuration(static_cast<double>(p.wall_ns)).c_str(),
                 static_cast<long long>(p.device_groups));
    std::fprintf(out, "local speedup s: %.4g\n", speedup_);
    std::fprintf(out,
                 "bound on the program's speedup: %.4fx (%+.2f%%) = 1 / ((1 - f) + f / s)\n",
                 bound,
                 100.0 * (bound - 1.0));
    std::fprintf(out,
                 "time saved at most: %s per trace window\n",
                 util::FormatDuration(static_cast<double>(saved)).c_str());
    std::fprintf(out, "limit for an infinitely fast kernel: %.4fx\n", limit);
    for (const std::string& r : rests_on)
      std::fprintf(out, "rests on: %s\n", report::PlainText(r).c_str());
  }
  return std::fflush(Out()) == 0 ? kExitOk : kExitFailure;
}

}  // namespace gpuperf::cli
