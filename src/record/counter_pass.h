// `gpuperf baseline --metrics LIST`: the counter pass. After the timed runs, the program runs
// once more with the injected library in counter mode (inject/counter_pass.h): CUPTI's range
// profiler with kernel replay on the top kernels of the analysed run, a few launches each. Its
// Nsight Compute-style CSV is joined to the analysed run's kernels exactly like
// `analyze --counters`, so the roofline gets measured FLOPs and bytes while every duration still
// comes from an unperturbed timed run (docs/recorder.md "Counter pass").
#pragma once

#include "gpuperf/trace.h"

#include <cstdint>
#include <string>
#include <vector>

#include "io/spool/spool_reader.h"
#include "record/launcher.h"

namespace gpuperf::record {

struct CounterPassOptions {
  std::vector<std::string> metrics;  // expanded (spool::ExpandMetricList); empty: no counter pass
  std::string metrics_list;          // as the user wrote it, for the record
  int kernels = 10;                  // top kernel names by total time
  int per_kernel = 3;                // launches profiled per name
  double timeout_s = 0;  // the pass is killed after this long; 0: 60 s + 20 x the analysed run
};

struct CounterPassResult {
  std::vector<std::string> kernels;  // the names selected, by total time
  bool ran = false;                  // the program was started
  RunOutcome outcome;
  std::vector<io::SpoolStatus> statuses;  // what the injected library said
  std::vector<std::string> csv_files;     // relative to the output directory
  std::int64_t launches_profiled = 0;
  std::int64_t joined = 0;
  std::int64_t unjoined = 0;
  std::int64_t timeout_ms = 0;        // the deadline the run had
  std::vector<std::string> warnings;  // before the run (permissions) and after
  std::string problem;                // why no counters were joined; empty when some were
};

// The `count` kernel names with the most total time in `trace`, most first (ties by name).
std::vector<std::string> TopKernelNames(const model::Trace& trace, std::size_t count);

// The counter pass's deadline: --metrics-timeout, else 60 s + 20 x the analysed run's wall time
// (replay and serialized launches slow a program down; producer/consumer kernels can even
// deadlock under kernel replay, and gpuperf must not wait for ever).
std::int64_t CounterPassTimeoutMs(const CounterPassOptions& options, std::int64_t run_wall_ns);

// Runs the counter pass of `command` in `dir` (created) and joins what it profiled into `trace`.
// `dir` is inside the output directory; csv_files are named relative to `out_dir`. Launches
// profiled before a timeout are kept (the CSV is flushed per launch), with a warning.
CounterPassResult RunCounterPass(const CounterPassOptions& options,
                                 std::int64_t timeout_ms,
                                 const std::vector<std::string>& command,
                                 const std::string& inject_library,
                                 const std::string& out_dir,
                                 const std::string& dir,
                                 model::Trace& trace);

}  // namespace gpuperf::record
