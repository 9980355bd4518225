// The recording half of `gpuperf baseline`: K warm-up runs and N (or --repeat auto) measured runs
// of an unmodified program under the injected recorder, their figures, the median steady-state
// run as a trace (with the counter pass of --metrics joined), all in a staging directory that
// CommitBaseline renames into place. The Kineto traces per process, the analysis and the report
// files are the CLI's (cli/baseline_command.h, cli/baseline_traces.h). See docs/recorder.md.
#pragma once

#include "gpuperf/baseline.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/spool/spool_model.h"
#include "record/counter_pass.h"
#include "record/cuda_probe.h"
#include "record/device_in_use.h"
#include "record/environment.h"
#include "record/launcher.h"
#include "record/output_lock.h"
#include "record/repeat_policy.h"
#include "record/run_figures.h"
#include "spool/job_environment.h"
#include "util/staging_area.h"

namespace gpuperf::record {

struct BaselineOptions {
  std::vector<std::string> command;  // program and arguments
  int warmup = 1;
  int repeat = 5;  // 0: --repeat auto
  AutoRepeatOptions auto_repeat;
  std::string out_dir = "gpuperf-baseline";
  bool quiet = false;
  bool gzip = false;
  bool force = false;            // replace an existing out_dir
  bool measure_overhead = true;  // also time untraced runs (--no-overhead turns it off)
  bool keep_spool = false;
  CounterPassOptions counters;  // --metrics: a counter pass after the timed runs
  std::string step_range;       // --step-range: the steps of the analysed run (analyze's option)
  // Seams for tests, not command-line options:
  bool check_gpu = true;       // false: skip ProbeCuda (orchestration tests on a GPU-less host)
  std::string inject_library;  // "" = locate next to gpuperf; "none" = run without injection
};

using baseline::MeasuredRun;

// The recorder's working state: what the baseline model (ToBaselineModel) is made of.
struct BaselineData {
  BaselineOptions options;
  ProbeResult probe;
  spool::JobInfo job;                               // the launcher's rank, if any
  DeviceInUse device;                               // which of probe.devices the program uses
  std::optional<std::string> cuda_visible_devices;  // as the program sees it; nullopt when unset
  HostInfo host;
  std::map<std::string, std::string> environment;
  std::string cwd;
  std::string executable;  // resolved path, "" when not found
  std::string executable_sha256;
  std::map<std::string, std::string> input_sha256;  // HashInputFiles
  std::string inject_library;
  nlohmann::ordered_json gpu_state_before;
  nlohmann::ordered_json gpu_state_after;
  std::vector<RunOutcome> warmups;
  std::vector<MeasuredRun> runs;
  StopReason stop_reason = StopReason::kFixedCount;
  std::vector<double> untraced_wall_s;            // unless --no-overhead
  std::string overhead_note;                      // why overhead was not measured
  int analyzed_run = 0;                           // index of the run report.md analyses; 0 none
  std::optional<CounterPassResult> counter_pass;  // --metrics
  std::vector<std::string> problems;              // shown on stderr and in both outputs
  bool complete = true;
};

// How the recording ended; the CLI turns it into an exit code (docs/recorder.md).
enum class RecordStatus {
  kRecorded,  // runs recorded, complete or not (BaselineData::complete says which)
  kUsage,     // no program given
  kNoGpu,     // no driver, no device, driver too old: checked before anything runs
  kFailure,   // the program could not start, the output exists or is locked, ...
};

struct RecordResult {
  RecordStatus status = RecordStatus::kRecorded;
  std::string message;  // why, when status != kRecorded
};

// One `gpuperf baseline` from its first run to its commit. Holds the output lock; a session
// destroyed before CommitBaseline removes its staging directory, so nothing half-written stays.
struct BaselineSession {
  BaselineSession() = default;
  ~BaselineSession();
  BaselineSession(const BaselineSession&) = delete;
  BaselineSession& operator=(const BaselineSession&) = delete;

  BaselineData data;
  std::filesystem::path out;  // the final directory (the rank's under a launcher)
  // The staging directory, parent/<out's name>.tmp-<pid>@<host>.XXXXXX (util/staging_area.h:
  // mkdtemp, 0700, removed on failure and on SIGINT/SIGTERM/SIGHUP, a dead owner's removed by
  // the next run); "" before one exists.
  util::StagingArea staging;
  const std::filesystem::path& tmp() const { return staging.path(); }
  std::optional<model::Trace> analysed_run;  // the median steady-state run (data.analyzed_run)
  OutputLock lock;
};

// Checks, claims the output, runs the warm-up, measured and untraced runs into `session.tmp()` and
// reads every run's figures from its spools. The CLI then writes the runs' Kineto traces
// (cli/baseline_traces.h) and calls ReadAnalysedRun. Progress goes to stderr only when it is a
// TTY and !quiet.
RecordResult RecordBaseline(const BaselineOptions& options, BaselineSession& session);

// Writes the report file `name` into the staging directory: a new file, every write, the fsync
// and the close checked.
Status StageBaselineFile(const BaselineSession& session,
                         const std::string& name,
                         const std::string& content);

// Removes the spools (unless --keep-spool), syncs the staging directory and renames it to `out`
// (replacing an older one with --force): the directory appears whole or not at all.
Status CommitBaseline(BaselineSession& session);

// Where one `gpuperf baseline` process writes: `out_dir` itself, or, under a launcher (job has a
// rank), out_dir/RankDirectoryName(rank, host), so that ranks sharing --out never collide.
std::string RankOutputDirectory(const std::string& out_dir,
                                const spool::JobInfo& job,
                                std::string_view host);

// The path of libgpuperf_inject.so: $GPUPERF_INJECT_LIB, next to the gpuperf executable, in
// ../lib, or where the build put it. "" when none exists.
std::string LocateInjectLibrary();

// The tracing overhead: median wall time of the traced measured runs over the median of the
// untraced runs, minus one. nullopt when no untraced run was timed (data.overhead_note says why).
using baseline::TracingOverhead;
std::optional<TracingOverhead> MeasuredTracingOverhead(const BaselineData& data);

// The baseline model of baseline.json and report.md, its statistics computed here: summaries
// and the median's interval across runs, the hot kernels, the tracing overhead (baseline_model.cc).
baseline::Baseline ToBaselineModel(const BaselineData& data);

// Pieces of a recording, in baseline_output.cc.
// Reads a run's spools and returns its figures.
Result<RunFigures> ReadRunFigures(const std::string& out_dir, const MeasuredRun& run);
// A process's spool file and the Kineto trace written from it (cli/baseline_traces.h).
struct RunSpool {
  std::string spool_path;  // out_dir/run.dir/spool/<host>.<pid>[.r<rank>].gpuperf
  std::string trace_file;  // relative to out_dir: run.dir/<host>.<pid>[.r<rank>].json[.gz]
};
// The spools of a run, in file-name order.
std::vector<RunSpool> RunSpools(const std::string& out_dir, const MeasuredRun& run, bool gzip);
// The steady-state run with the median wall time as one trace, the counter pass joined into it
// (--metrics); sets data.analyzed_run. nullopt when no such run recorded anything.
std::optional<model::Trace> MedianRunTrace(const std::string& out_dir, BaselineData& data);

// Reads the median steady-state run into `session.analysed_run` (MedianRunTrace), running the
// counter pass of --metrics on it; after RecordBaseline, once the run traces are written.
void ReadAnalysedRun(BaselineSession& session);

}  // namespace gpuperf::record
