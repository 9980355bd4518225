// baseline.json: the baseline record. Keys are a contract (docs/recorder.md), versioned by
// kBaselineSchemaVersion (gpuperf/schema_versions.h).
#include "gpuperf/baseline_json_keys.h"

#include <fmt/format.h>

#include "report/baseline_writer.h"

namespace gpuperf::report {
namespace {

using baseline::Baseline;
using baseline::kBaselineSchemaVersion;
using baseline::kNotAvailable;
using baseline::Summary;
using nlohmann::ordered_json;
namespace keys = baseline::json_keys;

ordered_json SummaryJson(const Summary& s, const char* unit) {
  return {{"unit", unit},
          {"count", s.count},
          {"median", s.median},
          {"p95", s.p95},
          {"min", s.min},
          {"max", s.max},
          {"mad", s.mad},
          {"mean", s.mean}};
}

ordered_json CountOrNull(std::int64_t value) {
  return value >= 0 ? ordered_json(value) : ordered_json(nullptr);
}

// The multi-rank job this baseline is one rank of; nulls when not under a launcher.
ordered_json Job(const Baseline& data) {
  const baseline::Job& job = data.job;
  const bool ranked = job.has_rank();
  return {{"rank", CountOrNull(job.rank)},
          {"local_rank", CountOrNull(job.local_rank)},
          {"world_size", CountOrNull(job.world_size)},
          {"local_size", CountOrNull(job.local_size)},
          {"launcher", ranked ? ordered_json(job.launcher) : ordered_json(nullptr)},
          {"rank_variable", ranked ? ordered_json(job.rank_variable) : ordered_json(nullptr)},
          {"host", data.host.host}};
}

// The nvidia-smi snapshot entry of the GPU with this UUID.
ordered_json StateOf(const ordered_json& snapshot, const std::string& uuid) {
  if (snapshot.is_array()) {
    for (const ordered_json& gpu : snapshot) {
      if (gpu.is_object() && gpu.contains("uuid") && gpu["uuid"] == uuid)
        return gpu;
    }
  }
  return std::string(kNotAvailable) + " (no nvidia-smi entry with this UUID)";
}

ordered_json DeviceInUseJson(const Baseline& data) {
  ordered_json device;
  const int ordinal = data.device.ordinal;
  const bool known = ordinal >= 0 && static_cast<std::size_t>(ordinal) < data.gpus.size();
  device["ordinal"] = known ? ordered_json(ordinal) : ordered_json(nullptr);
  device["selected_by"] = data.device.selected_by;
  device["cuda_visible_devices"] =
      data.cuda_visible_devices ? ordered_json(*data.cuda_visible_devices) : ordered_json(nullptr);
  if (!known)
    return device;
  const baseline::ProbedDevice& probed = data.gpus[static_cast<std::size_t>(ordinal)];
  device["name"] = probed.name;
  device["uuid"] = probed.uuid;
  device["pci_bus_id"] = probed.pci_bus_id;
  device[keys::kStateBefore] = StateOf(data.gpu_state_before, probed.uuid);
  device["state_after"] = StateOf(data.gpu_state_after, probed.uuid);
  return device;
}

ordered_json Hardware(const Baseline& data) {
  ordered_json gpus = ordered_json::array();
  for (const baseline::ProbedDevice& d : data.gpus) {
    gpus.push_back(
        {{"ordinal", d.ordinal},
         {keys::kGpuName, d.name},
         {"uuid", d.uuid},
         {"pci_bus_id", d.pci_bus_id},
         {"compute_capability",
          std::to_string(d.compute_major) + "." + std::to_string(d.compute_minor)},
         {"sm_count", d.sm_count},
         {"memory_bytes", d.memory_bytes},
         {"l2_bytes", d.l2_bytes},
         {keys::kMaxSmClockKhz, d.sm_clock_khz},
         {keys::kMaxMemoryClockKhz, d.memory_clock_khz},
         {"memory_bus_width_bits", d.bus_width_bits},
         {"peak_bandwidth_bytes_per_s", d.peak_bandwidth_bytes_per_s},
         {"peak_bandwidth_source", "2 x memory clock x bus width / 8 (driver attributes)"}});
  }
  ordered_json hardware;
  hardware[keys::kGpus] =
      gpus.empty() ? ordered_json(std::string(kNotAvailable) + " (GPU check skipped)") : gpus;
  hardware[keys::kDeviceInUse] = DeviceInUseJson(data);
  hardware[keys::kStateBefore] = data.gpu_state_before;
  hardware["state_after"] = data.gpu_state_after;
  hardware["state_source"] =
      "nvidia-smi --query-gpu (clocks, temperature, power, clocks_event_reasons)";
  return hardware;
}

ordered_json Software(const Baseline& data) {
  ordered_json software;
  software["gpuperf_version"] = data.gpuperf_version;
  software[keys::kDriverRelease] = data.host.driver_release;
  software["driver_cuda_api_version"] = data.driver_api_version;
  const std::int32_t runtime = data.cuda_runtime_version;
  software[keys::kCudaRuntimeVersion] =
      runtime > 0 ? ordered_json(fmt::format("{}.{} ({}, cudaRuntimeGetVersion in the program's "
                                             "libcudart)",
                                             runtime / 1000,
                                             runtime % 1000 / 10,
                                             runtime))
                  : ordered_json(std::string(kNotAvailable) +
                                 " (no shared libcudart in the program: the runtime is linked "
                                 "statically, or the program never loaded it)");
  software["cupti_library"] = "libcupti.so.13 (version per process in each trace's cupti_version)";
  software["host_cpu"] = data.host.cpu;
  software["logical_cpus"] = data.host.logical_cpus;
  software["os"] = data.host.os;
  software["host"] = data.host.host;
  return software;
}

ordered_json InputsJson(const std::map<std::string, std::string>& inputs) {
  ordered_json list = ordered_json::array();
  for (const auto& [path, sha] : inputs)
    list.push_back({{keys::kInputPath, path}, {keys::kInputSha256, sha}});
  return list;
}

ordered_json Workload(const Baseline& data) {
  return {{keys::kCommand, data.command},
          {"cwd", data.cwd},
          {"executable",
           data.executable.empty() ? ordered_json(kNotAvailable) : ordered_json(data.executable)},
          {keys::kExecutableSha256,
           data.executable_sha256.empty() ? ordered_json(kNotAvailable)
                                          : ordered_json(data.executable_sha256)},
          {keys::kInputs, InputsJson(data.input_sha256)},
          {"environment", data.environment},
          {"injection_library", data.inject_library}};
}

ordered_json TimingScope(const Baseline& data) {
  return {
      {"warmup_runs", data.warmups.size()},
      {"warmup_excluded", true},
      {"measured_interval", "whole process: fork to exit as seen by gpuperf (steady clock)"},
      {"includes",
       {"process start and exit",
        "CUDA context creation",
        "module loading and JIT",
        "allocator warm-up inside the run",
        "host pre/post-processing",
        "host-device transfers",
        "synchronisation the program does",
        "CUPTI tracing overhead (see overhead)"}},
      {"excludes", {"warm-up runs", "trace conversion and analysis (done after each run exits)"}},
      {"first_run_vs_steady_state",
       "first_measured_run is reported separately; steady_state "
       "covers measured runs 2..N (or run 1 when N = 1)"},
      {"cache_state",
       "each run is a new process: GPU caches and allocator pools start cold; "
       "driver-level JIT caches persist across runs"}};
}

ordered_json Run(const baseline::MeasuredRun& run) {
  const baseline::RunFigures& f = run.figures;
  return {
      {keys::kRunIndex, run.index},
      {keys::kRunWallTimeS, static_cast<double>(run.outcome.wall_ns) / 1e9},
      {"exit_code",
       run.outcome.signaled ? ordered_json(nullptr) : ordered_json(run.outcome.exit_code)},
      {"signal", run.outcome.signaled ? ordered_json(run.outcome.signal) : ordered_json(nullptr)},
      {keys::kRunComplete, f.complete},
      {"problems", f.problems},
      {"processes", f.processes},
      {"kernel_count", f.kernels},
      {"kernel_time_ns", f.kernel_time_ns},
      {"memcpy_count", f.memcpys},
      {"memcpy_bytes", f.memcpy_bytes},
      {"memset_count", f.memsets},
      {"api_calls", f.api_calls},
      {"sync_records", f.syncs},
      {"graph_launches", f.graph_launches},
      {"allocation_count", f.allocations},
      {"free_count", f.frees},
      {"peak_device_memory_bytes", f.peak_device_memory_bytes},
      {"dropped_records", f.dropped_records},
      {"incomplete_records", f.incomplete_records},
      {"cupti_overhead_ns", f.cupti_overhead_ns},
      {"max_rss_kb", run.outcome.max_rss_kb},
      {"user_cpu_s", run.outcome.user_s},
      {"system_cpu_s", run.outcome.system_s},
      {keys::kRunTraces, run.trace_files}};
}

ordered_json HotKernels(const std::vector<baseline::HotKernel>& hot) {
  ordered_json kernels = ordered_json::array();
  for (const baseline::HotKernel& kernel : hot) {
    kernels.push_back({{"name", kernel.name},
                       {"time_per_run_ns", SummaryJson(kernel.time_per_run_ns, "ns")},
                       {"noise_mad_over_median",
                        kernel.noise ? ordered_json(*kernel.noise) : ordered_json(nullptr)}});
  }
  return kernels;
}

ordered_json AcrossRuns(const baseline::AcrossRuns& across) {
  const baseline::MedianInterval& ci = across.median_interval_s;
  ordered_json interval =
      ci.available ? ordered_json{{"low_s", ci.low}, {"high_s", ci.high}, {"coverage", ci.coverage}}
                   : ordered_json("not available (fewer than 6 runs)");
  return {{"stop_reason", ToString(across.stop_reason)},
          {"auto_target_relative_width",
           across.auto_target_relative_width ? ordered_json(*across.auto_target_relative_width)
                                             : ordered_json(nullptr)},
          {"wall_time_all_runs", SummaryJson(across.wall_time_all_s, "s")},
          {"median_95_interval", interval},
          {"first_measured_run_wall_time_s",
           across.first_measured_run_s ? ordered_json(*across.first_measured_run_s)
                                       : ordered_json(nullptr)},
          {"wall_time_steady_state", SummaryJson(across.wall_time_steady_s, "s")},
          {"hot_kernels_steady_state", HotKernels(across.hot_kernels)}};
}

ordered_json Overhead(const baseline::Overhead& data) {
  ordered_json overhead;
  overhead["cupti_overhead_records_ns_total"] = data.cupti_overhead_records_ns;
  if (!data.measured) {
    overhead["tracing_overhead"] = data.note;
    return overhead;
  }
  overhead["untraced_wall_time"] = SummaryJson(data.measured->untraced_s, "s");
  overhead["traced_median_s"] = data.measured->traced_s.median;
  overhead["tracing_overhead_relative"] = data.measured->relative;
  overhead["method"] = "median wall time of traced measured runs / median of untraced runs - 1";
  return overhead;
}

ordered_json CounterPass(const Baseline& data) {
  if (!data.counter_pass)
    return nullptr;
  const baseline::CounterPass& pass = *data.counter_pass;
  ordered_json statuses = ordered_json::array();
  for (const baseline::CounterStatus& status : pass.statuses)
    statuses.push_back({{"level", status.level}, {"message", status.message}});
  return {
      {"metrics_requested", pass.metrics_requested},
      {"metrics", pass.metrics},
      {"method",
       "CUPTI range profiler (host + range-profiler API), auto range, kernel replay, in a separate "
       "run after the timed runs; counters joined to the analysed run's kernels by name and "
       "launch order (as analyze --counters)"},
      {"kernels_selected", pass.kernels_selected},
      {"launches_per_kernel", pass.launches_per_kernel},
      {"launches_profiled", pass.launches_profiled},
      {"joined", pass.joined},
      {"unjoined", pass.unjoined},
      {"program_outcome", pass.ran ? ordered_json(DescribeOutcome(pass.outcome)) : nullptr},
      {"timeout_s", static_cast<double>(pass.timeout_ms) / 1000},
      {"timed_out", pass.ran && pass.outcome.timed_out},
      {"files", pass.files},
      {"statuses", statuses},
      {"problem", pass.problem.empty() ? ordered_json(nullptr) : ordered_json(pass.problem)},
  };
}

}  // namespace

ordered_json BaselineJson(const Baseline& data, const std::optional<AnalysisReport>& analysis) {
  ordered_json json;
  json[keys::kSchemaVersion] = kBaselineSchemaVersion;
  json["complete"] = data.complete;
  json["problems"] = data.problems;
  json["job"] = Job(data);
  json[keys::kHardware] = Hardware(data);
  json[keys::kSoftware] = Software(data);
  json[keys::kWorkload] = Workload(data);
  json["timing_scope"] = TimingScope(data);
  ordered_json warmups = ordered_json::array();
  for (const baseline::RunOutcome& w : data.warmups)
    warmups.push_back(
        {{"wall_time_s", static_cast<double>(w.wall_ns) / 1e9}, {"outcome", DescribeOutcome(w)}});
  json["warmup_runs"] = warmups;
  ordered_json runs = ordered_json::array();
  for (const baseline::MeasuredRun& run : data.runs)
    runs.push_back(Run(run));
  json[keys::kRuns] = runs;
  json["across_runs"] = AcrossRuns(data.across_runs);
  json["overhead"] = Overhead(data.overhead);
  json["counter_pass"] = CounterPass(data);
  json[keys::kAnalysis] =
      analysis ? ordered_json({{keys::kAnalyzedRun, data.analyzed_run}, {"report", "report.json"}})
               : ordered_json(nullptr);
  return json;
}

}  // namespace gpuperf::report
