// Reading recorded runs for what the CLI analyses and writes: the per-run figures, the spools its
// per-process Kineto traces are written from, the median steady-state run as a trace (with the
// counter pass joined).
#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "record/baseline.h"

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

Result<RunFigures> ReadRunFigures(const std::string& out_dir, const MeasuredRun& run) {
  auto processes = ReadRunSpools(fs::path(out_dir) / run.dir / "spool");
  if (!processes)
    return processes.error();
  return ComputeRunFigures(*processes);
}

std::vector<RunSpool> RunSpools(const std::string& out_dir, const MeasuredRun& run, bool gzip) {
  std::vector<RunSpool> spools;
  const fs::path spool_dir = fs::path(out_dir) / run.dir / "spool";
  for (const std::string& path : io::ListSpoolFiles(spool_dir.string())) {
    const std::string stem = fs::path(path).stem().string();  // host.pid[.rN]
    spools.push_back({path, (fs::path(run.dir) / (stem + (gzip ? ".json.gz" : ".json"))).string()});
  }
  return spools;
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
