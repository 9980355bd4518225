// Turning recorded runs into what the CLI analyses and writes: per-process Kineto traces, the
// median steady-state run as a trace (with the counter pass joined).
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

}  // namespace gpuperf::record
