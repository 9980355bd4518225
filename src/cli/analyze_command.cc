#include "cli/analyze_command.h"

#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <utility>

#include "analysis/ranks/rank_summary.h"
#include "analysis/timeline/trace_tracks.h"
#include "cli/app.h"
#include "cli/ceilings_option.h"
#include "cli/errors.h"
#include "cli/gpu_option.h"
#include "cli/input_options.h"
#include "cli/logging.h"
#include "cli/report_output.h"
#include "cli/step_range_option.h"
#include "cli/terminal.h"
#include "cli/trace_input.h"
#include "io/kernel_model/kernel_model_json.h"
#include "io/ncu/counter_join.h"
#include "io/report/rank_summary_json.h"
#include "io/sass/cuobjdump.h"
#include "report/csv_writer.h"
#include "report/json_writer.h"
#include "report/markdown_fit.h"
#include "report/markdown_writer.h"
#include "report/roofline_svg.h"
#include "report/terminal_summary.h"
#include "report/trace_export.h"

namespace gpuperf::cli {
namespace {

constexpr const char* kAnalyzeExamples = R"(Examples:
  gpuperf analyze trace.json.gz
      Kineto / PyTorch-profiler trace; writes gpuperf-report/report.{md,json}.
  gpuperf analyze report1.sqlite --out ci/perf --format json
      Nsight Systems SQLite export (nsys export --type sqlite); JSON only.
  gpuperf analyze trace.json --top 5 --verbose
      Five rows per table, debug log on stderr.
  gpuperf analyze trace.json.gz --counters ncu.csv
      Joins Nsight Compute counters (ncu --csv) to the trace's kernels: roofline per kernel.
  gpuperf analyze ncu.csv
      An Nsight Compute CSV on its own: one kernel per profiled launch, with its roofline.
  gpuperf analyze ncu.csv --gpu "A100 SXM4 40GB"
      The same, on the GPU named (the CSV records only the compute capability).
  gpuperf analyze trace.json.gz --sass ./train
      Reads the SASS of ./train (cuobjdump -sass): which kernels run tensor-core instructions.
  gpuperf analyze trace.json.gz --model gemm-model.json
      Kernels without counters get FLOPs and bytes from the file's formulas: roofline per kernel.
  gpuperf analyze trace.json.gz --format md,csv,trace
      report.md, one CSV per table (nsys stats column names) and trace.json: the trace with
      gpuperf's diagnosis, findings, GPU idle and critical time as tracks (ui.perfetto.dev).

Files in DIR are written under a temporary name and renamed only when all succeeded.
Exit codes: 0 ok, 1 failure (unreadable or invalid trace, --sass file without SASS or no
cuobjdump, invalid --model file, failed write), 2 usage error.)";

// Rows per list on the terminal: --top also sizes report.md, where 100 rows are fine.
constexpr std::size_t kTerminalRows = 20;

double MillisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace

Status AnalyzeCommand::JoinCountersFile(model::Trace& trace) const {
  for (const std::string& path : counters_paths_) {
    auto counters = io::ImportTraceFile(path);
    if (!counters.ok())
      return counters.error();
    // Only Nsight Compute's CSV, kernels replayed alone with their counters, has no timeline.
    if (counters->metadata.has_timeline) {
      return Error{path + ": --counters needs an Nsight Compute CSV (ncu --csv), this is " +
                   counters->metadata.format};
    }
    if (Status same = io::ncu::CheckCounterDevices(trace, *counters, path); !same.ok())
      return same;
    io::ncu::JoinSummary summary = io::ncu::JoinCounters(trace, *counters);
    spdlog::debug("joined {} of {} Nsight Compute launches from {}",
                  summary.joined,
                  summary.ncu_launches,
                  path);
    if (summary.joined < summary.ncu_launches) {
      PrintWarning(fmt::format(
          "--counters {}: {} of {} Nsight Compute launches joined ({} with no kernel of that "
          "name left in the trace, {} only with another grid or block)",
          path,
          summary.joined,
          summary.ncu_launches,
          summary.no_kernel,
          summary.config_mismatch));
    }
  }
  return Status::Ok();
}

Status AnalyzeCommand::ReadSassFiles(std::vector<model::SassFunction>& functions) const {
  for (const std::string& path : sass_paths_) {
    auto listing = io::sass::ReadSassFile(path);
    if (!listing.ok())
      return listing.error();
    spdlog::debug(
        "{}: {} SASS functions, {} overlong lines skipped, {} instructions outside functions",
        path,
        listing->functions.size(),
        listing->skipped_long_lines,
        listing->orphan_instructions);
    for (model::SassFunction& f : listing->functions)
      functions.push_back(std::move(f));
  }
  return Status::Ok();
}

CLI::App* AnalyzeCommand::Register(CLI::App& app) {
  CLI::App* sub = app.add_subcommand(
      "analyze",
      "Analyze a trace (Kineto/PyTorch-profiler JSON, Nsight Systems SQLite, Nsight Compute CSV)");
  sub->add_option("trace", trace_path_, "Trace file; the format is detected from its content")
      ->required()
      ->type_name("TRACE");
  sub->add_option(
         "--counters",
         counters_paths_,
         "Nsight Compute CSV (ncu --csv, or a counter pass's .counters.csv) to join to the "
         "trace's kernels by name and launch order; repeat for several files")
      ->type_name("CSV")
      ->allow_extra_args(false);
  sub->add_option("--sass",
                  sass_paths_,
                  "Executable, library, cubin or fatbin of the traced program: its SASS "
                  "(cuobjdump -sass) shows which kernels run tensor-core instructions; repeatable")
      ->type_name("EXE")
      ->allow_extra_args(false);
  sub->add_option("--model",
                  model_path_,
                  "User model file (JSON, schema gpuperf-kernel-model/1): kernel-name patterns "
                  "mapped to per-launch FLOP and byte formulas, for kernels without counters")
      ->type_name("FILE");
  AddStepRangeOption(sub, step_range_);
  AddCeilingsOption(sub, ceilings_paths_);
  AddGpuOption(sub, gpu_name_);
  AddOutputOptions(sub,
                   out_dir_,
                   formats_,
                   "report.md, report.json (csv: kernels.csv, operators.csv, "
                   "memory_ops.csv, api.csv, findings.csv; trace: trace.json for ui.perfetto.dev)",
                   {"md", "json", "csv", "trace"});
  sub->add_option("-n,--top", top_, "Rows per table in report.md and in the terminal summary")
      ->check(CLI::Range(1, 100000))
      ->type_name("N")
      ->capture_default_str();
  sub->add_flag("--summary",
                summary_,
                "Also write summary.json, this rank's summary for `gpuperf ranks` (large jobs)");
  AddInputLimitOptions(sub);
  sub->footer(kAnalyzeExamples);
  return sub;
}

Result<std::vector<std::string>> AnalyzeCommand::WriteReports(const model::Trace& trace,
                                                              const report::AnalysisReport& report,
                                                              const std::string& summary) const {
  report::ToolInfo tool{"gpuperf", Version()};
  std::vector<std::pair<std::string, std::string>> files;
  if (WantsFormat(formats_, "md")) {
    report::MarkdownOptions options{static_cast<std::size_t>(top_), 120, tool};
    files.emplace_back("report.md", report::ToMarkdownWithin(report, options));
    if (report::HasRooflineChart(report))  // report.md links it exactly then
      files.emplace_back("roofline.svg", report::RooflineSvg(report));
  }
  if (WantsFormat(formats_, "json"))
    files.emplace_back("report.json", report::DumpJson(report::ToJson(report, tool)));
  if (WantsFormat(formats_, "csv")) {
    for (auto& file : report::ToCsvFiles(report))
      files.push_back(std::move(file));
  }
  if (WantsFormat(formats_, "trace")) {
    files.emplace_back(
        "trace.json",
        report::ToTraceEvents(trace, report, analysis::ComputeResultTracks(trace), tool));
  }
  if (summary_)
    files.emplace_back("summary.json", summary);
  return WriteReportFiles(out_dir_, files);
}

int AnalyzeCommand::Run() {
  // The model file first: a typo in it should not wait for a large trace to import.
  std::optional<model::KernelModelFile> kernel_model;
  if (!model_path_.empty()) {
    auto read = io::ReadKernelModelFile(model_path_);
    if (!read.ok()) {
      PrintError(read.error().message);
      return kExitFailure;
    }
    spdlog::debug("{}: {} kernel model entries", model_path_, read->kernels.size());
    kernel_model = std::move(read).value();
  }
  auto start = std::chrono::steady_clock::now();
  auto trace = [&] {
    Progress progress("reading " + trace_path_);
    return ImportTraceForAnalysis(trace_path_);
  }();
  if (!trace.ok()) {
    PrintError(trace.error().message);
    return kExitFailure;
  }
  spdlog::debug("imported {} as {}: {} GPU activities, {} API calls in {:.1f} ms",
                trace_path_,
                trace->metadata.format,
                trace->activities.size(),
                trace->api_calls.size(),
                MillisecondsSince(start));
  if (Status named = ApplyGpuName(gpu_name_, *trace); !named.ok()) {
    PrintError(named.error().message);
    return kExitUsage;
  }
  if (!counters_paths_.empty()) {
    if (Status joined = JoinCountersFile(*trace); !joined.ok()) {
      PrintError(joined.error().message);
      return kExitFailure;
    }
  }
  if (Status attached = AttachCeilingsFiles(ceilings_paths_, *trace); !attached.ok()) {
    PrintError(attached.error().message);
    return kExitFailure;
  }
  analysis::AnalyzeOptions analyze_options;
  if (Status read = ReadSassFiles(analyze_options.sass); !read.ok()) {
    PrintError(read.error().message);
    return kExitFailure;
  }
  analyze_options.kernel_model = std::move(kernel_model);
  analyze_options.step_range = step_range_;
  start = std::chrono::steady_clock::now();
  report::AnalysisReport report = [&] {
    Progress progress("analysing");
    return analysis::Analyze(*trace, analyze_options);
  }();
  spdlog::debug("analysed in {:.1f} ms: {} kernels, {} findings",
                MillisecondsSince(start),
                report.kernels.size(),
                report.findings.size());
  std::string summary;
  if (summary_)
    summary = io::RankSummaryToJson(
        analysis::SummarizeRank(*trace, analysis::RankFromFileName(trace_path_)));
  auto written = WriteReports(*trace, report, summary);
  if (!written.ok()) {
    PrintError(written.error().message);
    return kExitFailure;
  }
  report::TerminalOptions options;
  options.top_rows = std::min<std::size_t>(static_cast<std::size_t>(top_), kTerminalRows);
  options.color = StdoutIsTerminal() && std::getenv("NO_COLOR") == nullptr;
  options.width = TerminalWidth();
  options.written = *written;
  std::FILE* out = Out();
  std::fputs(report::ToTerminalSummary(report, options).c_str(), out);
  return std::fflush(out) == 0 ? kExitOk : kExitFailure;
}

}  // namespace gpuperf::cli
