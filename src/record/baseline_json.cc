// baseline.json: the baseline record. Keys are a contract (docs/recorder.md), versioned by
// kBaselineSchemaVersion.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "record/baseline.h"

namespace gpuperf::record {
namespace {

using nlohmann::ordered_json;

constexpr const char* kBaselineSchemaVersion = "1.3.0";
constexpr std::size_t kHotKernels = 10;

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
ordered_json Job(const BaselineData& data) {
  const spool::JobInfo& job = data.job;
  const bool ranked = job.has_rank();
  return {{"rank", CountOrNull(job.rank)},
          {"local_rank", CountOrNull(job.local_rank)},
          {"world_size", CountOrNull(job.world_size)},
          {"local_size", CountOrNull(job.local_size)},
          {"launcher", ranked ? ordered_json(ToString(job.launcher)) : ordered_json(nullptr)},
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

ordered_json DeviceInUseJson(const BaselineData& data) {
  ordered_json device;
  const int ordinal = data.device.ordinal;
  const bool known = ordinal >= 0 && static_cast<std::size_t>(ordinal) < data.probe.devices.size();
  device["ordinal"] = known ? ordered_json(ordinal) : ordered_json(nullptr);
  device["selected_by"] = data.device.selected_by;
  device["cuda_visible_devices"] =
      data.cuda_visible_devices ? ordered_json(*data.cuda_visible_devices) : ordered_json(nullptr);
  if (!known)
    return device;
  const ProbedDevice& probed = data.probe.devices[static_cast<std::size_t>(ordinal)];
  device["name"] = probed.name;
  device["uuid"] = probed.uuid;
  device["pci_bus_id"] = probed.pci_bus_id;
  device["state_before"] = StateOf(data.gpu_state_before, probed.uuid);
  device["state_after"] = StateOf(data.gpu_state_after, probed.uuid);
  return device;
}

ordered_json Hardware(const BaselineData& data) {
  ordered_json gpus = ordered_json::array();
  for (const ProbedDevice& d : data.probe.devices) {
    gpus.push_back(
        {{"ordinal", d.ordinal},
         {"name", d.name},
         {"uuid", d.uuid},
         {"pci_bus_id", d.pci_bus_id},
         {"compute_capability",
          std::to_string(d.compute_major) + "." + std::to_string(d.compute_minor)},
         {"sm_count", d.sm_count},
         {"memory_bytes", d.memory_bytes},
         {"l2_bytes", d.l2_bytes},
         {"max_sm_clock_khz", d.sm_clock_khz},
         {"max_memory_clock_khz", d.memory_clock_khz},
         {"memory_bus_width_bits", d.bus_width_bits},
         {"peak_bandwidth_bytes_per_s", d.peak_bandwidth_bytes_per_s},
         {"peak_bandwidth_source", "2 x memory clock x bus width / 8 (driver attributes)"}});
  }
  ordered_json hardware;
  hardware["gpus"] =
      gpus.empty() ? ordered_json(std::string(kNotAvailable) + " (GPU check skipped)") : gpus;
  hardware["device_in_use"] = DeviceInUseJson(data);
  hardware["state_before"] = data.gpu_state_before;
  hardware["state_after"] = data.gpu_state_after;
  hardware["state_source"] =
      "nvidia-smi --query-gpu (clocks, temperature, power, clocks_event_reasons)";
  return hardware;
}

ordered_json Software(const BaselineData& data) {
  ordered_json software;
  software["gpuperf_version"] = GPUPERF_RECORD_VERSION;
  software["driver_release"] = data.host.driver_release;
  software["driver_cuda_api_version"] = data.probe.driver_api_version;
  std::int32_t runtime = 0;
  for (const MeasuredRun& run : data.runs)
    runtime = std::max(runtime, run.figures.cuda_runtime_version);
  software["cuda_runtime_version"] =
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
    list.push_back({{"path", path}, {"sha256", sha}});
  return list;
}

ordered_json Workload(const BaselineData& data) {
  return {{"command", data.options.command},
          {"cwd", data.cwd},
          {"executable",
           data.executable.empty() ? ordered_json(kNotAvailable) : ordered_json(data.executable)},
          {"executable_sha256",
           data.executable_sha256.empty() ? ordered_json(kNotAvailable)
                                          : ordered_json(data.executable_sha256)},
          {"inputs", InputsJson(data.input_sha256)},
          {"environment", data.environment},
          {"injection_library", data.inject_library}};
}

ordered_json TimingScope(const BaselineData& data) {
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

ordered_json Run(const MeasuredRun& run) {
  const RunFigures& f = run.figures;
  return {
      {"index", run.index},
      {"wall_time_s", static_cast<double>(run.outcome.wall_ns) / 1e9},
      {"exit_code",
       run.outcome.signaled ? ordered_json(nullptr) : ordered_json(run.outcome.exit_code)},
      {"signal", run.outcome.signaled ? ordered_json(run.outcome.signal) : ordered_json(nullptr)},
      {"complete", f.complete},
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
      {"traces", run.trace_files}};
}

ordered_json HotKernels(const std::vector<const MeasuredRun*>& runs) {
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
  ordered_json kernels = ordered_json::array();
  for (const auto& [name, unused] : ranked) {
    std::vector<double> per_run;
    for (const MeasuredRun* run : runs) {
      const auto it = run->figures.kernel_total_ns.find(name);
      per_run.push_back(it == run->figures.kernel_total_ns.end() ? 0.0
                                                                 : static_cast<double>(it->second));
    }
    const Summary s = Summarize(per_run);
    kernels.push_back({{"name", name},
                       {"time_per_run_ns", SummaryJson(s, "ns")},
                       {"noise_mad_over_median",
                        s.median > 0 ? ordered_json(s.mad / s.median) : ordered_json(nullptr)}});
  }
  return kernels;
}

ordered_json AcrossRuns(const BaselineData& data) {
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
  const MedianInterval ci = MedianConfidenceInterval(all_s);
  ordered_json interval =
      ci.available ? ordered_json{{"low_s", ci.low}, {"high_s", ci.high}, {"coverage", ci.coverage}}
                   : ordered_json("not available (fewer than 6 runs)");
  return {{"stop_reason", ToString(data.stop_reason)},
          {"auto_target_relative_width",
           data.options.repeat == 0 ? ordered_json(data.options.auto_repeat.target_relative_width)
                                    : ordered_json(nullptr)},
          {"wall_time_all_runs", SummaryJson(Summarize(all_s), "s")},
          {"median_95_interval", interval},
          {"first_measured_run_wall_time_s",
           all_s.empty() ? ordered_json(nullptr) : ordered_json(all_s.front())},
          {"wall_time_steady_state", SummaryJson(Summarize(steady_s), "s")},
          {"hot_kernels_steady_state", HotKernels(steady)}};
}

ordered_json Overhead(const BaselineData& data) {
  ordered_json overhead;
  std::int64_t cupti_ns = 0;
  for (const MeasuredRun& run : data.runs)
    cupti_ns += run.figures.cupti_overhead_ns;
  overhead["cupti_overhead_records_ns_total"] = cupti_ns;
  const std::optional<TracingOverhead> measured = MeasuredTracingOverhead(data);
  if (!measured) {
    overhead["tracing_overhead"] = data.overhead_note;
    return overhead;
  }
  overhead["untraced_wall_time"] = SummaryJson(measured->untraced_s, "s");
  overhead["traced_median_s"] = measured->traced_s.median;
  overhead["tracing_overhead_relative"] = measured->relative;
  overhead["method"] = "median wall time of traced measured runs / median of untraced runs - 1";
  return overhead;
}

ordered_json CounterPass(const BaselineData& data) {
  if (!data.counter_pass)
    return nullptr;
  const CounterPassResult& pass = *data.counter_pass;
  const CounterPassOptions& options = data.options.counters;
  ordered_json statuses = ordered_json::array();
  for (const io::SpoolStatus& status : pass.statuses) {
    const char* level = status.level == spool::StatusLevel::kError     ? "error"
                        : status.level == spool::StatusLevel::kWarning ? "warning"
                                                                       : "info";
    statuses.push_back({{"level", level}, {"message", status.message}});
  }
  return {
      {"metrics_requested", options.metrics_list},
      {"metrics", options.metrics},
      {"method",
       "CUPTI range profiler (host + range-profiler API), auto range, kernel replay, in a separate "
       "run after the timed runs; counters joined to the analysed run's kernels by name and "
       "launch order (as analyze --counters)"},
      {"kernels_selected", pass.kernels},
      {"launches_per_kernel", options.per_kernel},
      {"launches_profiled", pass.launches_profiled},
      {"joined", pass.joined},
      {"unjoined", pass.unjoined},
      {"program_outcome", pass.ran ? ordered_json(DescribeOutcome(pass.outcome)) : nullptr},
      {"timeout_s", static_cast<double>(pass.timeout_ms) / 1000},
      {"timed_out", pass.ran && pass.outcome.timed_out},
      {"files", pass.csv_files},
      {"statuses", statuses},
      {"problem", pass.problem.empty() ? ordered_json(nullptr) : ordered_json(pass.problem)},
  };
}

}  // namespace

ordered_json BaselineJson(const BaselineData& data) {
  ordered_json json;
  json["schema_version"] = kBaselineSchemaVersion;
  json["complete"] = data.complete;
  json["problems"] = data.problems;
  json["job"] = Job(data);
  json["hardware"] = Hardware(data);
  json["software"] = Software(data);
  json["workload"] = Workload(data);
  json["timing_scope"] = TimingScope(data);
  ordered_json warmups = ordered_json::array();
  for (const RunOutcome& w : data.warmups)
    warmups.push_back(
        {{"wall_time_s", static_cast<double>(w.wall_ns) / 1e9}, {"outcome", DescribeOutcome(w)}});
  json["warmup_runs"] = warmups;
  ordered_json runs = ordered_json::array();
  for (const MeasuredRun& run : data.runs)
    runs.push_back(Run(run));
  json["runs"] = runs;
  json["across_runs"] = AcrossRuns(data);
  json["overhead"] = Overhead(data);
  json["counter_pass"] = CounterPass(data);
  json["analysis"] = data.analysis
                         ? ordered_json({{"run", data.analyzed_run}, {"report", "report.json"}})
                         : ordered_json(nullptr);
  return json;
}

}  // namespace gpuperf::record
