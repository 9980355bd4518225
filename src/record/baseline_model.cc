// ToBaselineModel: the recorder's working state as the baseline model (gpuperf/baseline.h), with
// everything baseline.json and report.md show across runs computed here, so that the writers
// (report/baseline_writer.h) only format.
#include <algorithm>
#include <utility>

#include "record/baseline.h"

namespace gpuperf::record {
namespace {

constexpr std::size_t kHotKernels = 10;

baseline::Job JobOf(const BaselineData& data) {
  const spool::JobInfo& job = data.job;
  baseline::Job out;
  out.rank = job.rank;
  out.local_rank = job.local_rank;
  out.world_size = job.world_size;
  out.local_size = job.local_size;
  if (job.has_rank()) {
    out.launcher = ToString(job.launcher);
    out.rank_variable = job.rank_variable;
  }
  return out;
}

// The ten kernels with the most time over the steady-state runs, with their time per run.
std::vector<baseline::HotKernel> HotKernels(const std::vector<const MeasuredRun*>& runs) {
  std::map<std::string, std::int64_t> total;
  for (const MeasuredRun* run : runs) {
    for (const auto& [name, ns] : run->figures.kernel_total_ns)
      total[name] += ns;
  }
  std::vector<std::pair<std::string, std::int64_t>> ranked(total.begin(), total.end());
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second > b.second;
  });
  if (ranked.size() > kHotKernels)
    ranked.resize(kHotKernels);
  std::vector<baseline::HotKernel> kernels;
  for (const auto& [name, unused] : ranked) {
    std::vector<double> per_run;
    for (const MeasuredRun* run : runs) {
      const auto it = run->figures.kernel_total_ns.find(name);
      per_run.push_back(it == run->figures.kernel_total_ns.end() ? 0.0
                                                                 : static_cast<double>(it->second));
    }
    baseline::HotKernel kernel;
    kernel.name = name;
    kernel.time_per_run_ns = Summarize(per_run);
    if (kernel.time_per_run_ns.median > 0)
      kernel.noise = kernel.time_per_run_ns.mad / kernel.time_per_run_ns.median;
    kernels.push_back(std::move(kernel));
  }
  return kernels;
}

baseline::AcrossRuns AcrossRunsOf(const BaselineData& data) {
  std::vector<const MeasuredRun*> steady;
  std::vector<double> all_s, steady_s;
  for (const MeasuredRun& run : data.runs) {
    const double s = static_cast<double>(run.outcome.wall_ns) / 1e9;
    all_s.push_back(s);
    if (run.index > 1 || data.runs.size() == 1) {
      steady.push_back(&run);
      steady_s.push_back(s);
    }
  }
  baseline::AcrossRuns across;
  across.stop_reason = data.stop_reason;
  if (data.options.repeat == 0)
    across.auto_target_relative_width = data.options.auto_repeat.target_relative_width;
  across.wall_time_all_s = Summarize(all_s);
  across.median_interval_s = MedianConfidenceInterval(all_s);
  if (!all_s.empty())
    across.first_measured_run_s = all_s.front();
  across.wall_time_steady_s = Summarize(steady_s);
  across.hot_kernels = HotKernels(steady);
  return across;
}

baseline::Overhead OverheadOf(const BaselineData& data) {
  baseline::Overhead overhead;
  for (const MeasuredRun& run : data.runs)
    overhead.cupti_overhead_records_ns += run.figures.cupti_overhead_ns;
  overhead.measured = MeasuredTracingOverhead(data);
  overhead.note = data.overhead_note;
  return overhead;
}

const char* LevelName(spool::StatusLevel level) {
  switch (level) {
    case spool::StatusLevel::kError:
      return "error";
    case spool::StatusLevel::kWarning:
      return "warning";
    case spool::StatusLevel::kInfo:
      break;
  }
  return "info";
}

baseline::CounterPass CounterPassOf(const CounterPassResult& pass,
                                    const CounterPassOptions& options) {
  baseline::CounterPass out;
  out.metrics_requested = options.metrics_list;
  out.metrics = options.metrics;
  out.launches_per_kernel = options.per_kernel;
  out.kernels_selected = pass.kernels;
  out.launches_profiled = pass.launches_profiled;
  out.joined = pass.joined;
  out.unjoined = pass.unjoined;
  out.ran = pass.ran;
  out.outcome = pass.outcome;
  out.timeout_ms = pass.timeout_ms;
  out.files = pass.csv_files;
  for (const io::SpoolStatus& status : pass.statuses)
    out.statuses.push_back({LevelName(status.level), status.message});
  out.problem = pass.problem;
  return out;
}

}  // namespace

baseline::Baseline ToBaselineModel(const BaselineData& data) {
  baseline::Baseline model;
  model.gpuperf_version = GPUPERF_RECORD_VERSION;
  model.complete = data.complete;
  model.problems = data.problems;
  model.job = JobOf(data);
  model.gpus = data.probe.devices;
  model.device = data.device;
  model.cuda_visible_devices = data.cuda_visible_devices;
  model.gpu_state_before = data.gpu_state_before;
  model.gpu_state_after = data.gpu_state_after;
  model.host = data.host;
  model.driver_api_version = data.probe.driver_api_version;
  for (const MeasuredRun& run : data.runs)
    model.cuda_runtime_version =
        std::max(model.cuda_runtime_version, run.figures.cuda_runtime_version);
  model.command = data.options.command;
  model.cwd = data.cwd;
  model.executable = data.executable;
  model.executable_sha256 = data.executable_sha256;
  model.input_sha256 = data.input_sha256;
  model.environment = data.environment;
  model.inject_library = data.inject_library;
  model.warmups = data.warmups;
  model.runs = data.runs;
  model.across_runs = AcrossRunsOf(data);
  model.overhead = OverheadOf(data);
  if (data.counter_pass)
    model.counter_pass = CounterPassOf(*data.counter_pass, data.options.counters);
  model.analyzed_run = data.analyzed_run;
  return model;
}

}  // namespace gpuperf::record
