// The baseline model: what `gpuperf baseline` recorded, as baseline.json (keys in
// docs/recorder.md) and the recording part of its report.md say it. The recorder (src/record)
// fills it, its statistics included (record/baseline_model.h); the writers
// (src/report/baseline_json.cc, baseline_markdown.cc) only format it. The analysis of the median
// run is not part of it: the CLI runs it and hands it to the writers beside this model, so that
// the recorder depends on the trace model only, never on the report model.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuperf::baseline {

// Every value that could not be read is this string with the reason, never a guess.
inline constexpr const char* kNotAvailable = "not available";

// Robust summary of a sample. p95 interpolates linearly between order statistics (numpy's
// default); mad is the median absolute deviation from the median, unscaled.
struct Summary {
  std::int64_t count = 0;
  double median = 0;
  double p95 = 0;
  double min = 0;
  double max = 0;
  double mad = 0;
  double mean = 0;
};

// The order-statistic confidence interval of the median: [x(k), x(n-k+1)] with the largest k
// whose binomial(n, 1/2) tail P(X < k) is at most (1 - confidence) / 2. `available` is false when
// n is too small for the requested confidence (n < 6 at 95%).
struct MedianInterval {
  bool available = false;
  double low = 0;
  double high = 0;
  double coverage = 0;  // the exact coverage of the interval (>= confidence)
};

enum class StopReason {
  kFixedCount,   // --repeat N reached
  kConverged,    // the median's 95% interval is narrower than the target width
  kTimeBudget,   // the time budget ran out first
  kMaxRuns,      // the run cap was reached first
  kInterrupted,  // gpuperf received SIGINT/SIGTERM/SIGHUP
};

// "fixed_count", "converged", "time_budget", "max_runs", "interrupted".
std::string_view ToString(StopReason reason);

// One GPU as the driver describes it, before anything runs.
struct ProbedDevice {
  std::int32_t ordinal = 0;
  std::string name;
  std::string uuid;  // "GPU-xxxxxxxx-xxxx-...", as nvidia-smi prints it
  std::string pci_bus_id;
  std::int32_t compute_major = 0;
  std::int32_t compute_minor = 0;
  std::int32_t sm_count = 0;
  std::int64_t memory_bytes = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t sm_clock_khz = 0;      // peak
  std::int64_t memory_clock_khz = 0;  // peak
  std::int32_t bus_width_bits = 0;
  // 2 (DDR) x memory clock x bus width / 8; 0 when an attribute is missing.
  double peak_bandwidth_bytes_per_s = 0;
};

struct HostInfo {
  std::string host;
  std::string os;   // uname sysname release version machine
  std::string cpu;  // /proc/cpuinfo "model name"
  int logical_cpus = 0;
  std::string driver_release;  // "580.65.06" from /proc/driver/nvidia/version, or not available
};

// How one run of the program ended.
struct RunOutcome {
  std::int64_t wall_ns = 0;  // fork to reaped, steady clock
  bool signaled = false;
  int exit_code = 0;  // valid when !signaled
  int signal = 0;     // valid when signaled
  std::int64_t max_rss_kb = 0;
  double user_s = 0;
  double system_s = 0;
  bool timed_out = false;  // the run had a deadline and was killed at it
};

// "exit code 3" or "signal 9 (Killed)".
std::string DescribeOutcome(const RunOutcome& outcome);

// The per-run figures of baseline.json, counted from a run's spools.
struct RunFigures {
  std::int64_t processes = 0;
  std::int64_t kernels = 0;
  std::int64_t memcpys = 0;
  std::int64_t memcpy_bytes = 0;
  std::int64_t memsets = 0;
  std::int64_t api_calls = 0;
  std::int64_t syncs = 0;
  std::int64_t graph_launches = 0;
  std::int64_t allocations = 0;
  std::int64_t frees = 0;
  // max over time of allocated - freed, per device summed
  std::int64_t peak_device_memory_bytes = 0;
  std::int64_t dropped_records = 0;
  std::int64_t incomplete_records = 0;  // counted by the recorder, left out of the trace
  std::int64_t cupti_overhead_ns = 0;   // sum of CUPTI overhead records
  std::int64_t kernel_time_ns = 0;
  std::int32_t cuda_runtime_version = 0;  // the highest any process reported; 0 none
  bool complete = true;                   // every process wrote its footer and no chunk was cut
  std::vector<std::string> problems;      // why not complete, and injection errors
  std::map<std::string, std::int64_t> kernel_total_ns;  // demangled name -> summed duration
};

struct MeasuredRun {
  int index = 0;  // 1-based among measured runs
  RunOutcome outcome;
  RunFigures figures;
  std::string dir;                       // relative to the output directory ("runs/run-001")
  std::vector<std::string> trace_files;  // relative to the output directory
};

// Which of the visible GPUs a rank's program uses, and how gpuperf decided.
struct DeviceInUse {
  int ordinal = -1;         // CUDA ordinal among the devices visible to the program; -1 unknown
  std::string selected_by;  // why this one, for the reader
};

// The multi-rank job this baseline is one rank of; rank < 0 when not under a launcher.
struct Job {
  std::int64_t rank = -1;
  std::int64_t local_rank = -1;
  std::int64_t world_size = -1;  // -1: the launcher did not say
  std::int64_t local_size = -1;
  std::string launcher;       // "slurm", "openmpi", "pmi", "torchrun"
  std::string rank_variable;  // the variable the rank came from
  bool has_rank() const { return rank >= 0; }
};

// A hot kernel of the steady-state runs: its total time per run.
struct HotKernel {
  std::string name;
  Summary time_per_run_ns;
  std::optional<double> noise;  // MAD / median; nullopt when the median is 0
};

struct AcrossRuns {
  StopReason stop_reason = StopReason::kFixedCount;
  std::optional<double> auto_target_relative_width;  // --repeat auto only
  Summary wall_time_all_s;
  MedianInterval median_interval_s;
  std::optional<double> first_measured_run_s;
  Summary wall_time_steady_s;  // runs 2..N, or run 1 when N = 1
  std::vector<HotKernel> hot_kernels;
};

// The tracing overhead: median wall time of the traced measured runs over the median of the
// untraced runs, minus one.
struct TracingOverhead {
  Summary traced_s;
  Summary untraced_s;
  double relative = 0;  // 0.05 = traced runs take 5% longer
};

struct Overhead {
  std::int64_t cupti_overhead_records_ns = 0;  // summed over the measured runs
  std::optional<TracingOverhead> measured;
  std::string note;  // why not measured
};

// A message of the injected library in the counter pass.
struct CounterStatus {
  std::string level;  // "info", "warning", "error"
  std::string message;
};

// `--metrics`: the counter pass after the timed runs.
struct CounterPass {
  std::string metrics_requested;     // as the user wrote it
  std::vector<std::string> metrics;  // expanded
  int launches_per_kernel = 0;
  std::vector<std::string> kernels_selected;
  std::int64_t launches_profiled = 0;
  std::int64_t joined = 0;
  std::int64_t unjoined = 0;
  bool ran = false;  // the program was started
  RunOutcome outcome;
  std::int64_t timeout_ms = 0;
  std::vector<std::string> files;  // relative to the output directory
  std::vector<CounterStatus> statuses;
  std::string problem;  // why no counters were joined; empty when some were
};

struct Baseline {
  std::string gpuperf_version;
  bool complete = true;
  std::vector<std::string> problems;  // shown on stderr and in both outputs
  Job job;
  // The GPUs the driver shows; empty when the GPU check was skipped.
  std::vector<ProbedDevice> gpus;
  DeviceInUse device;
  std::optional<std::string> cuda_visible_devices;  // as the program sees it; nullopt when unset
  nlohmann::ordered_json gpu_state_before;          // nvidia-smi snapshots, as read
  nlohmann::ordered_json gpu_state_after;
  HostInfo host;
  int driver_api_version = 0;
  std::int32_t cuda_runtime_version = 0;  // the highest any run reported; 0 none
  std::vector<std::string> command;
  std::string cwd;
  std::string executable;  // resolved path, "" when not found
  std::string executable_sha256;
  std::map<std::string, std::string> input_sha256;  // path -> SHA-256 or "not hashed (...)"
  std::map<std::string, std::string> environment;
  std::string inject_library;
  std::vector<RunOutcome> warmups;
  std::vector<MeasuredRun> runs;
  AcrossRuns across_runs;
  Overhead overhead;
  std::optional<CounterPass> counter_pass;
  int analyzed_run = 0;  // index of the run report.md analyses; 0 none
};

}  // namespace gpuperf::baseline
