// Turning recorded runs into outputs: per-process Kineto traces, the median steady-state run as a
// trace for the analysis, and report.md.
#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "record/baseline.h"
#include "record/kineto_writer.h"

namespace gpuperf::record {
namespace {

namespace fs = std::filesystem;

Result<std::vector<io::SpoolContents>> ReadRunSpools(const fs::path& spool_dir) {
  std::vector<io::SpoolContents> processes;
  for (const std::string& path : io::ListSpoolFiles(spool_dir.string())) {
    auto contents = io::ReadSpoolFile(path);
    if (!contents)
      return contents.error();
    processes.push_back(std::move(*contents));
  }
  return processes;
}

// --metrics: the counter pass, joined into the analysed run's trace; a pass that joined nothing
// makes the recording incomplete (the user asked for counters and has none).
void RunCounterPassInto(const std::string& out_dir,
                        std::int64_t run_wall_ns,
                        model::Trace& trace,
                        BaselineData& data) {
  if (!data.options.quiet && isatty(STDERR_FILENO) == 1)
    fmt::print(
        stderr, "gpuperf: counter pass ({} metrics)\n", data.options.counters.metrics.size());
  data.counter_pass = RunCounterPass(data.options.counters,
                                     CounterPassTimeoutMs(data.options.counters, run_wall_ns),
                                     data.options.command,
                                     data.inject_library,
                                     out_dir,
                                     (fs::path(out_dir) / "counters").string(),
                                     trace);
  for (const std::string& warning : data.counter_pass->warnings)
    data.problems.push_back("counter pass: " + warning);
  if (!data.counter_pass->problem.empty()) {
    data.problems.push_back("counter pass: " + data.counter_pass->problem);
    data.complete = false;
  }
  if (!data.options.keep_spool) {
    std::error_code ignored;
    fs::remove_all(fs::path(out_dir) / "counters" / "spool", ignored);
  }
}

std::string Seconds(double s) {
  return fmt::format("{:.4f} s", s);
}

std::string CounterPassMarkdown(const CounterPassResult& pass, const CounterPassOptions& options) {
  std::string out = fmt::format(
      "\nCounter pass (`--metrics {}`, {} metrics, CUPTI range profiler with kernel replay, a "
      "separate untimed run): {} launches profiled of the top {} kernels (up to {} each), {} "
      "joined to the analysed run's kernels",
      options.metrics_list,
      options.metrics.size(),
      pass.launches_profiled,
      pass.kernels.size(),
      options.per_kernel,
      pass.joined);
  if (pass.ran)
    out += fmt::format("; the program {}", DescribeOutcome(pass.outcome));
  out += pass.problem.empty() ? ".\n" : fmt::format(". **No counters: {}**\n", pass.problem);
  return out;
}

}  // namespace

Result<RunFigures> ConvertRun(const std::string& out_dir,
                              MeasuredRun& run,
                              bool gzip,
                              int driver_api_version) {
  const fs::path run_dir = fs::path(out_dir) / run.dir;
  auto processes = ReadRunSpools(run_dir / "spool");
  if (!processes)
    return processes.error();
  for (const io::SpoolContents& process : *processes) {
    const std::string stem = fs::path(process.path).stem().string();  // host.pid[.rN]
    const std::string name = stem + (gzip ? ".json.gz" : ".json");
    KinetoWriteOptions options;
    options.trace_name = (fs::path(run.dir) / name).string();
    options.driver_api_version = driver_api_version;
    if (Status written = WriteKinetoTrace(process, options, (run_dir / name).string(), gzip);
        !written) {
      return written.error();
    }
    run.trace_files.push_back((fs::path(run.dir) / name).string());
  }
  return ComputeRunFigures(*processes);
}

std::optional<model::Trace> MedianRunTrace(const std::string& out_dir, BaselineData& data) {
  // Steady state = every measured run after the first; with one run, that run.
  std::vector<const MeasuredRun*> steady;
  for (const MeasuredRun& run : data.runs) {
    if (run.index > 1 || data.runs.size() == 1)
      steady.push_back(&run);
  }
  if (steady.empty())
    return std::nullopt;
  std::sort(steady.begin(), steady.end(), [](const MeasuredRun* a, const MeasuredRun* b) {
    return a->outcome.wall_ns < b->outcome.wall_ns;
  });
  const MeasuredRun& median = *steady[(steady.size() - 1) / 2];
  auto processes = ReadRunSpools(fs::path(out_dir) / median.dir / "spool");
  if (!processes || processes->empty())
    return std::nullopt;
  model::Trace trace = io::SpoolsToTrace(*processes);
  if (!data.options.counters.metrics.empty())
    RunCounterPassInto(out_dir, median.outcome.wall_ns, trace, data);
  data.analyzed_run = median.index;
  return trace;
}

std::string BaselineMarkdown(const BaselineData& data, const std::string& analysis_markdown) {
  std::vector<double> wall_s;
  for (const MeasuredRun& run : data.runs)
    wall_s.push_back(static_cast<double>(run.outcome.wall_ns) / 1e9);
  const Summary wall = Summarize(wall_s);
  std::string out = "# gpuperf baseline\n\n";
  std::string command;
  for (const std::string& word : data.options.command)
    command += (command.empty() ? "" : " ") + word;
  const auto device = static_cast<std::size_t>(std::max(data.device.ordinal, 0));
  out += fmt::format("`{}` on {}",
                     command,
                     device < data.probe.devices.size() ? data.probe.devices[device].name
                                                        : std::string("(no GPU probed)"));
  if (data.job.has_rank()) {
    out += fmt::format(" (rank {}{} on {}, {})",
                       data.job.rank,
                       data.job.world_size >= 0 ? fmt::format(" of {}", data.job.world_size) : "",
                       data.host.host,
                       ToString(data.job.launcher));
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
      ToString(data.stop_reason));
  if (!data.runs.empty()) {
    const RunFigures& first = data.runs.front().figures;
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
  if (const std::optional<TracingOverhead> overhead = MeasuredTracingOverhead(data)) {
    out += fmt::format(
        "Tracing overhead: **{:+.1f}%** (median traced run {} over median untraced run {}, {} "
        "untraced run(s) timed after the measured ones; source: these runs).\n\n",
        100 * overhead->relative,
        Seconds(overhead->traced_s.median),
        Seconds(overhead->untraced_s.median),
        overhead->untraced_s.count);
  } else {
    out += "Tracing overhead: " +
           (data.overhead_note.empty() ? std::string("not measured") : data.overhead_note) +
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
  for (const MeasuredRun& run : data.runs) {
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
    out += CounterPassMarkdown(*data.counter_pass, data.options.counters);
  if (data.analysis) {
    out +=
        fmt::format("\n## Analysis of run {} (the median steady-state run)\n\n", data.analyzed_run);
    const std::string& analysis = analysis_markdown;
    // Demote the analyzer's headings one level under ours.
    std::string demoted;
    for (std::size_t pos = 0; pos < analysis.size();) {
      const std::size_t end = std::min(analysis.find('\n', pos), analysis.size());
      const std::string line = analysis.substr(pos, end - pos);
      demoted += (line.starts_with("#") ? "#" : "") + line + "\n";
      pos = end + 1;
    }
    out += demoted;
  }
  return out;
}

}  // namespace gpuperf::record
