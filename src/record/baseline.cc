#include "record/baseline.h"

#include <fmt/format.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "record/cuda_probe_isolated.h"
#include "record/output_lock.h"
#include "spool/spool_writer.h"
#include "util/durable_file.h"
#include "util/sha256.h"

namespace gpuperf::record {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

class Progress {
 public:
  explicit Progress(bool enabled) : enabled_(enabled) {}
  // "gpuperf: run 3/5, elapsed 12.1 s, about 8.0 s left"; total 0 = auto (unknown).
  void Before(const char* what, int index, int total, double elapsed_s, double per_run_s) const {
    if (!enabled_)
      return;
    std::string line = fmt::format("gpuperf: {} {}", what, index);
    if (total > 0)
      line += fmt::format("/{}", total);
    line += fmt::format(", elapsed {:.1f} s", elapsed_s);
    if (total > 0 && per_run_s > 0)
      line += fmt::format(", about {:.1f} s left", per_run_s * (total - index + 1));
    fmt::print(stderr, "{}\n", line);
  }

 private:
  bool enabled_;
};

ChildSpec MakeSpec(const BaselineOptions& options,
                   const std::string& inject,
                   const std::string& spool_dir) {
  ChildSpec spec;
  spec.argv = options.command;
  if (inject.empty()) {
    spec.set_env.push_back({"GPUPERF_OUT_DIR", spool_dir});  // tests' fake programs write here
    return spec;
  }
  spec.set_env = {{"CUDA_INJECTION64_PATH", inject},
                  {"NVTX_INJECTION64_PATH", inject},
                  {"GPUPERF_OUT_DIR", spool_dir},
                  {"GPUPERF_SESSION", fs::path(spool_dir).parent_path().filename().string()}};
  return spec;
}

// One traced run with its spool directory; the outcome or why the program could not start.
Result<RunOutcome> TracedRun(const BaselineOptions& options,
                             const std::string& inject,
                             const fs::path& spool_dir) {
  std::error_code error;
  fs::create_directories(spool_dir, error);
  if (error)
    return Error{spool_dir.string() + ": " + error.message()};
  return RunChild(MakeSpec(options, inject, fs::absolute(spool_dir).string()));
}

Status RunWarmups(const BaselineOptions& options,
                  const std::string& inject,
                  const fs::path& tmp,
                  const Progress& progress,
                  BaselineData& data) {
  const auto start = Clock::now();
  for (int i = 1; i <= options.warmup && LastInterruptSignal() == 0; ++i) {
    progress.Before("warm-up run", i, options.warmup, SecondsSince(start), 0);
    const fs::path spool = tmp / "warmup" / fmt::format("warmup-{:03}", i);
    auto outcome = TracedRun(options, inject, spool);
    if (!outcome)
      return outcome.error();
    data.warmups.push_back(*outcome);
    std::error_code ignored;
    fs::remove_all(spool, ignored);
  }
  std::error_code ignored;
  fs::remove_all(tmp / "warmup", ignored);
  return Status::Ok();
}

Status RunMeasured(const BaselineOptions& options,
                   const std::string& inject,
                   const fs::path& tmp,
                   const Progress& progress,
                   BaselineData& data) {
  const auto start = Clock::now();
  std::vector<double> wall_s;
  for (int i = 1;; ++i) {
    if (LastInterruptSignal() != 0) {
      data.stop_reason = StopReason::kInterrupted;
      break;
    }
    if (options.repeat > 0 && i > options.repeat) {
      data.stop_reason = StopReason::kFixedCount;
      break;
    }
    if (options.repeat == 0) {
      if (auto stop = ShouldStopAuto(wall_s, SecondsSince(start), options.auto_repeat)) {
        data.stop_reason = *stop;
        break;
      }
    }
    const double per_run =
        wall_s.empty() ? 0 : SecondsSince(start) / static_cast<double>(wall_s.size());
    progress.Before("run", i, options.repeat, SecondsSince(start), per_run);
    MeasuredRun run;
    run.index = i;
    run.dir = fmt::format("runs/run-{:03}", i);
    auto outcome = TracedRun(options, inject, tmp / run.dir / "spool");
    if (!outcome)
      return outcome.error();
    run.outcome = *outcome;
    wall_s.push_back(static_cast<double>(run.outcome.wall_ns) / 1e9);
    data.runs.push_back(std::move(run));
  }
  return Status::Ok();
}

void MeasureOverhead(const BaselineOptions& options, const Progress& progress, BaselineData& data) {
  if (!options.measure_overhead) {
    data.overhead_note = "not measured: --no-overhead was given";
    return;
  }
  const int count = std::max<int>(3, static_cast<int>(data.runs.size()));
  const auto start = Clock::now();
  for (int i = 1; i <= count && LastInterruptSignal() == 0; ++i) {
    progress.Before("untraced run", i, count, SecondsSince(start), 0);
    ChildSpec spec;
    spec.argv = options.command;
    auto outcome = RunChild(spec);
    if (!outcome) {
      data.overhead_note = "not measured: " + outcome.error().message;
      return;
    }
    data.untraced_wall_s.push_back(static_cast<double>(outcome->wall_ns) / 1e9);
  }
}

void ReadFigures(const fs::path& tmp, BaselineData& data) {
  for (MeasuredRun& run : data.runs) {
    auto figures = ReadRunFigures(tmp.string(), run);
    if (!figures) {
      data.problems.push_back(fmt::format("run {}: {}", run.index, figures.error().message));
      data.complete = false;
      continue;
    }
    run.figures = std::move(*figures);
    if (run.outcome.signaled) {
      run.figures.complete = false;
      run.figures.problems.push_back("the program was killed by " + DescribeOutcome(run.outcome));
    }
    if (!data.inject_library.empty() && run.figures.processes == 0) {
      run.figures.complete = false;
      run.figures.problems.push_back("nothing was recorded: the program never initialised CUDA");
    }
    for (const std::string& problem : run.figures.problems) {
      data.problems.push_back(fmt::format("run {}: {}", run.index, problem));
    }
    data.complete &= run.figures.complete;
  }
}

// The directory that all ranks of a job share: created by whichever rank comes first. A
// single-process baseline already there would be mixed with rank directories: refused.
Status PrepareJobDirectory(const fs::path& job_dir) {
  std::error_code error;
  fs::create_directories(job_dir, error);
  if (error || !fs::is_directory(job_dir, error))
    return Error{job_dir.string() + ": cannot create the job's output directory" +
                 (error ? ": " + error.message() : std::string(" (not a directory)"))};
  if (fs::exists(job_dir / "baseline.json", error)) {
    return Error{job_dir.string() +
                 " holds a single-process baseline (baseline.json); a multi-rank job needs its "
                 "own --out"};
  }
  return Status::Ok();
}

// Takes `out` for this process: its parent exists, `lock` is held, and `out` does not exist (or
// --force). Checked again under the lock: another gpuperf may have finished in the meantime.
Status ClaimOutput(const fs::path& job_dir,
                   const fs::path& out,
                   const BaselineData& data,
                   OutputLock& lock) {
  if (data.job.has_rank()) {
    if (Status prepared = PrepareJobDirectory(job_dir); !prepared)
      return prepared;
  } else {
    std::error_code error;
    fs::create_directories(out.parent_path(), error);
    if (error)
      return Error{out.parent_path().string() + ": " + error.message()};
  }
  if (Status locked = lock.Acquire(out.string()); !locked)
    return locked;
  std::error_code error;
  if (fs::exists(out, error) && !data.options.force)
    return Error{out.string() + " already exists; choose another --out or pass --force"};
  return Status::Ok();
}

}  // namespace

std::optional<TracingOverhead> MeasuredTracingOverhead(const BaselineData& data) {
  if (data.untraced_wall_s.empty() || data.runs.empty())
    return std::nullopt;
  std::vector<double> traced;
  for (const MeasuredRun& run : data.runs)
    traced.push_back(static_cast<double>(run.outcome.wall_ns) / 1e9);
  TracingOverhead overhead;
  overhead.traced_s = Summarize(traced);
  overhead.untraced_s = Summarize(data.untraced_wall_s);
  if (overhead.untraced_s.median <= 0)
    return std::nullopt;
  overhead.relative = overhead.traced_s.median / overhead.untraced_s.median - 1;
  return overhead;
}

std::string RankOutputDirectory(const std::string& out_dir,
                                const spool::JobInfo& job,
                                std::string_view host) {
  if (!job.has_rank())
    return out_dir;
  return (fs::path(out_dir) / spool::RankDirectoryName(job.rank, host)).string();
}

std::string LocateInjectLibrary() {
  std::error_code error;
  if (const char* env = std::getenv("GPUPERF_INJECT_LIB");
      env != nullptr && fs::exists(env, error)) {
    return fs::canonical(env, error).string();
  }
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (!error) {
    for (const fs::path& candidate : {self.parent_path() / "libgpuperf_inject.so",
                                      self.parent_path() / ".." / "lib" / "libgpuperf_inject.so"}) {
      if (fs::exists(candidate, error))
        return fs::canonical(candidate, error).string();
    }
  }
#ifdef GPUPERF_INJECT_BUILD_PATH
  if (fs::exists(GPUPERF_INJECT_BUILD_PATH, error))
    return GPUPERF_INJECT_BUILD_PATH;
#endif
  return "";
}

BaselineSession::~BaselineSession() {
  staging.Remove();  // before the lock is released
}

RecordResult RecordBaseline(const BaselineOptions& options, BaselineSession& session) {
  BaselineData& data = session.data;
  data.options = options;
  data.job = spool::DetectJob();
  const fs::path job_dir = fs::absolute(options.out_dir);
  const fs::path out = RankOutputDirectory(job_dir.string(), data.job, spool::HostName());
  session.out = out;
  std::error_code error;
  if (options.command.empty())
    return {RecordStatus::kUsage, "no program given: gpuperf baseline [options] -- ./app args"};
  if (fs::exists(out, error) && !options.force) {
    return {RecordStatus::kFailure,
            out.string() + " already exists; choose another --out or pass --force"};
  }
  if (const char* other = std::getenv("CUDA_INJECTION64_PATH");
      other != nullptr && *other != '\0') {
    return {RecordStatus::kFailure,
            std::string("CUDA_INJECTION64_PATH is already set (") + other +
                "): another CUDA tool is active; unset it to record with gpuperf"};
  }
  if (options.check_gpu) {
    data.probe = ProbeCudaIsolated();
    if (data.probe.status != ProbeStatus::kOk)
      return {RecordStatus::kNoGpu, data.probe.message};
  }
  data.device = SelectDeviceInUse(data.probe.devices.size(), data.job);
  if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES"))
    data.cuda_visible_devices = visible;
  if (options.inject_library != "none") {
    data.inject_library =
        options.inject_library.empty() ? LocateInjectLibrary() : options.inject_library;
    if (data.inject_library.empty()) {
      return {RecordStatus::kFailure,
              "libgpuperf_inject.so not found (gpuperf was built without the CUDA toolkit, or "
              "set GPUPERF_INJECT_LIB)"};
    }
  }
  // The lock is held until the session ends; removed on SIGINT/SIGTERM/SIGHUP too.
  if (Status claimed = ClaimOutput(job_dir, out, data, session.lock); !claimed)
    return {RecordStatus::kFailure, claimed.error().message};
  // DIR.tmp-<pid>@<host>.XXXXXX beside DIR (DIR/rank-RRRRR-host.tmp-... under a launcher):
  // private, never shared; a dead recorder's is removed first.
  if (Status created = session.staging.Create(out.parent_path(), out.filename().string() + ".tmp-");
      !created)
    return {RecordStatus::kFailure, created.error().message};
  const fs::path& tmp = session.tmp();
  data.host = CaptureHost();
  data.environment = RelevantEnvironment();
  data.cwd = CurrentDirectory();
  data.executable = ResolveProgram(options.command.front());
  if (auto sha = util::Sha256File(data.executable); sha && !data.executable.empty())
    data.executable_sha256 = *sha;
  data.input_sha256 = HashInputFiles(options.command);
  data.gpu_state_before = GpuStateSnapshot();
  const Progress progress(!options.quiet && isatty(STDERR_FILENO) == 1);
  Status status = RunWarmups(options, data.inject_library, tmp, progress, data);
  if (status)
    status = RunMeasured(options, data.inject_library, tmp, progress, data);
  if (!status)
    return {RecordStatus::kFailure, status.error().message};
  data.gpu_state_after = GpuStateSnapshot();
  MeasureOverhead(options, progress, data);
  ReadFigures(tmp, data);
  if (data.stop_reason == StopReason::kInterrupted) {
    data.complete = false;
    data.problems.push_back("interrupted by signal " + std::to_string(LastInterruptSignal()));
  }
  if (data.runs.empty())
    data.complete = false;
  return {};
}

void ReadAnalysedRun(BaselineSession& session) {
  session.analysed_run = MedianRunTrace(session.tmp().string(), session.data);
}

Status StageBaselineFile(const BaselineSession& session,
                         const std::string& name,
                         const std::string& content) {
  return util::WriteNewFile((session.tmp() / name).string(), content);
}

Status CommitBaseline(BaselineSession& session) {
  const BaselineData& data = session.data;
  if (!data.options.keep_spool) {
    for (const MeasuredRun& run : data.runs) {
      std::error_code ignored;
      fs::remove_all(session.tmp() / run.dir / "spool", ignored);
    }
  }
  // The staging directory becomes the baseline: the mode a new directory gets, not 0700.
  if (Status opened = session.staging.OpenUp(); !opened)
    return opened;
  if (Status synced = util::SyncDirectory(session.tmp().string()); !synced)
    return synced;
  // --force over an existing output: the two directories swap in one step, so the old baseline
  // stays whole until the new one is in place, and is removed only then (util::CommitDirectory,
  // as cli/staged_output.h replaces a report directory).
  const bool replace = data.options.force;
  auto committed = util::CommitDirectory(session.tmp().string(), session.out.string(), replace);
  if (committed.ok() && *committed == util::DirectoryCommit::kCannotSwap) {
    std::error_code ignored;  // where the filesystem cannot swap, the old one goes first
    fs::remove_all(session.out, ignored);
    committed = util::CommitDirectory(session.tmp().string(), session.out.string(), false);
  }
  if (!committed.ok())
    return committed.error();
  if (*committed == util::DirectoryCommit::kSwapped) {
    const fs::path old = session.tmp();  // now the earlier baseline
    std::error_code error;
    fs::remove_all(old, error);
    session.staging.Remove();
    if (error)
      return Error{session.out.string() + " replaced, but the earlier baseline, moved to " +
                   old.string() + ", could not be removed: " + error.message()};
    return Status::Ok();
  }
  session.staging.Remove();  // committed: only the handlers are left to restore
  return Status::Ok();
}

}  // namespace gpuperf::record
