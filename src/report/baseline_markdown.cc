// report.md of `gpuperf baseline`: the recording (command, GPU, wall times, runs, overhead,
// problems, the counter pass), then the analysis of the median steady-state run with its
// headings one level down.
#include <fmt/format.h>

#include <algorithm>

#include "report/baseline_writer.h"

namespace gpuperf::report {
namespace {

using baseline::Baseline;

std::string Seconds(double s) {
  return fmt::format("{:.4f} s", s);
}

std::string CounterPassMarkdown(const baseline::CounterPass& pass) {
  std::string out = fmt::format(
      "\nCounter pass (`--metrics {}`, {} metrics, CUPTI range profiler with kernel replay, a "
      "separate untimed run): {} launches profiled of the top {} kernels (up to {} each), {} "
      "joined to the analysed run's kernels",
      pass.metrics_requested,
      pass.metrics.size(),
      pass.launches_profiled,
      pass.kernels_selected.size(),
      pass.launches_per_kernel,
      pass.joined);
  if (pass.ran)
    out += fmt::format("; the program {}", DescribeOutcome(pass.outcome));
  out += pass.problem.empty() ? ".\n" : fmt::format(". **No counters: {}**\n", pass.problem);
  return out;
}

}  // namespace

std::string BaselineMarkdown(const Baseline& data,
                             const std::optional<AnalysisReport>& analysis,
                             const MarkdownOptions& options) {
  const baseline::Summary& wall = data.across_runs.wall_time_all_s;
  std::string out = "# gpuperf baseline\n\n";
  std::string command;
  for (const std::string& word : data.command)
    command += (command.empty() ? "" : " ") + word;
  const auto device = static_cast<std::size_t>(std::max(data.device.ordinal, 0));
  out += fmt::format(
      "`{}` on {}",
      command,
      device < data.gpus.size() ? data.gpus[device].name : std::string("(no GPU probed)"));
  if (data.job.has_rank()) {
    out += fmt::format(" (rank {}{} on {}, {})",
                       data.job.rank,
                       data.job.world_size >= 0 ? fmt::format(" of {}", data.job.world_size) : "",
                       data.host.host,
                       data.job.launcher);
  }
  out += fmt::format(
      ": **median wall time {}** over {} measured run(s) (p95 {}, min {}, max {}, MAD {}); "
      "{} warm-up run(s) excluded; stopped: {}.\n\n",
      Seconds(wall.median),
      wall.count,
      Seconds(wall.p95),
      Seconds(wall.min),
      Seconds(wall.max),
      Seconds(wall.mad),
      data.warmups.size(),
      ToString(data.across_runs.stop_reason));
  if (!data.runs.empty()) {
    const baseline::RunFigures& first = data.runs.front().figures;
    out += fmt::format(
        "First measured run: {} kernels, {} memcpys ({} bytes), {} allocations, peak device "
        "memory {} bytes, {} dropped records.\n\n",
        first.kernels,
        first.memcpys,
        first.memcpy_bytes,
        first.allocations,
        first.peak_device_memory_bytes,
        first.dropped_records);
  }
  if (const std::optional<baseline::TracingOverhead>& overhead = data.overhead.measured) {
    out += fmt::format(
        "Tracing overhead: **{:+.1f}%** (median traced run {} over median untraced run {}, {} "
        "untraced run(s) timed after the measured ones; source: these runs).\n\n",
        100 * overhead->relative,
        Seconds(overhead->traced_s.median),
        Seconds(overhead->untraced_s.median),
        overhead->untraced_s.count);
  } else {
    out += "Tracing overhead: " +
           (data.overhead.note.empty() ? std::string("not measured") : data.overhead.note) +
           ".\n\n";
  }
  out += data.complete ? "Recording: complete.\n\n" : "Recording: **incomplete**.\n\n";
  for (const std::string& problem : data.problems)
    out += "- " + problem + "\n";
  if (!data.problems.empty())
    out += "\n";
  out +=
      "Timing scope: whole-process wall time from fork to exit, including process start, CUDA "
      "initialisation, module loading/JIT, allocations, host work, transfers, teardown and the "
      "tracing overhead. See baseline.json `timing_scope` and `overhead`.\n\n";
  out +=
      "| run | wall time | exit | kernels | memcpys | allocations | peak device memory | dropped "
      "|\n";
  out += "|---:|---:|---|---:|---:|---:|---:|---:|\n";
  for (const baseline::MeasuredRun& run : data.runs) {
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n",
                       run.index,
                       Seconds(static_cast<double>(run.outcome.wall_ns) / 1e9),
                       DescribeOutcome(run.outcome),
                       run.figures.kernels,
                       run.figures.memcpys,
                       run.figures.allocations,
                       run.figures.peak_device_memory_bytes,
                       run.figures.dropped_records);
  }
  if (data.counter_pass)
    out += CounterPassMarkdown(*data.counter_pass);
  if (analysis) {
    out +=
        fmt::format("\n## Analysis of run {} (the median steady-state run)\n\n", data.analyzed_run);
    const std::string analysed = ToMarkdown(*analysis, options);
    // Demote the analyzer's headings one level under ours.
    std::string demoted;
    for (std::size_t pos = 0; pos < analysed.size();) {
      const std::size_t end = std::min(analysed.find('\n', pos), analysed.size());
      const std::string line = analysed.substr(pos, end - pos);
      demoted += (line.starts_with("#") ? "#" : "") + line + "\n";
      pos = end + 1;
    }
    out += demoted;
  }
  return out;
}

}  // namespace gpuperf::report
