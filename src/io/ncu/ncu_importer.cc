#include "io/ncu/ncu_importer.h"

#include <charconv>
#include <cmath>
#include <map>
#include <string>

#include "io/ncu/ncu_parse.h"
#include "model/ncu_rules.h"

namespace gpuperf::io {
namespace {

using ncu::Launch;

std::optional<double> Metric(const Launch& launch, const char* name) {
  auto it = launch.metrics.find(name);
  if (it == launch.metrics.end())
    return std::nullopt;
  return it->second;
}

// gpu__time_duration.sum, else elapsed cycles over the cycle rate of the same unit.
std::optional<double> DurationNs(const Launch& launch, bool& from_cycles) {
  from_cycles = false;
  if (auto ns = Metric(launch, "gpu__time_duration.sum"))
    return *ns;
  static constexpr const char* kPairs[][2] = {
      {"gpc__cycles_elapsed.max", "gpc__cycles_elapsed.avg.per_second"},
      {"sm__cycles_elapsed.max", "sm__cycles_elapsed.avg.per_second"},
      {"sm__cycles_elapsed.avg", "sm__cycles_elapsed.avg.per_second"},
      {"smsp__cycles_elapsed.max", "smsp__cycles_elapsed.avg.per_second"},
      {"smsp__cycles_elapsed.avg", "smsp__cycles_elapsed.avg.per_second"},
  };
  for (const auto& [cycles_name, rate_name] : kPairs) {
    auto cycles = Metric(launch, cycles_name);
    auto rate = Metric(launch, rate_name);
    if (cycles && rate && *rate > 0) {
      from_cycles = true;
      return *cycles / *rate * 1e9;
    }
  }
  return std::nullopt;
}

std::int32_t ClampInt(double value) {
  if (!(value >= 0) || value > 2147483647.0)
    return 0;
  return static_cast<std::int32_t>(std::llround(value));
}

std::optional<model::Dim3> DimFromMetrics(const Launch& launch, const std::string& prefix) {
  auto x = Metric(launch, (prefix + "_x").c_str());
  if (!x)
    return std::nullopt;
  auto y = Metric(launch, (prefix + "_y").c_str());
  auto z = Metric(launch, (prefix + "_z").c_str());
  return model::Dim3{ClampInt(*x), ClampInt(y.value_or(1)), ClampInt(z.value_or(1))};
}

std::int64_t Attribute(const Launch& launch, const char* name) {
  auto it = launch.device_attributes.find(std::string("device__attribute_") + name);
  if (it == launch.device_attributes.end())
    return 0;
  std::int64_t value = 0;
  const std::string& text = it->second;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() ? value : 0;
}

model::Device DeviceOf(const Launch& launch) {
  model::Device d;
  d.id = launch.device;
  auto name = launch.device_attributes.find("device__attribute_display_name");
  if (name != launch.device_attributes.end())
    d.name = name->second;
  d.compute_major = launch.compute_major;
  d.compute_minor = launch.compute_minor;
  if (d.compute_major == 0) {
    d.compute_major = static_cast<std::int32_t>(Attribute(launch, "compute_capability_major"));
    d.compute_minor = static_cast<std::int32_t>(Attribute(launch, "compute_capability_minor"));
  }
  d.sm_count = static_cast<std::int32_t>(Attribute(launch, "multiprocessor_count"));
  d.memory_bytes = Attribute(launch, "total_memory");
  d.l2_bytes = Attribute(launch, "l2_cache_size");
  d.sm_clock_hz = static_cast<double>(Attribute(launch, "max_gpu_frequency_khz")) * 1e3;
  d.max_threads_per_sm =
      static_cast<std::int32_t>(Attribute(launch, "max_threads_per_multiprocessor"));
  d.max_threads_per_block = static_cast<std::int32_t>(Attribute(launch, "max_threads_per_block"));
  d.registers_per_sm =
      static_cast<std::int32_t>(Attribute(launch, "max_registers_per_multiprocessor"));
  d.shared_memory_per_sm = Attribute(launch, "max_shared_memory_per_multiprocessor");
  d.warp_size = static_cast<std::int32_t>(Attribute(launch, "warp_size"));
  return d;
}

// The details page's Launch Statistics give only totals ("Grid Size" 2048 blocks, "Block Size"
// 512 threads) when the CSV has no Grid/Block Size columns (ncu <= 2022.3): kept as an
// x-dimension, which holds the block and thread counts the wave and occupancy models use.
std::optional<model::Dim3> DimFromTotal(const Launch& launch, const char* metric, bool& used) {
  auto total = Metric(launch, metric);
  if (!total || *total < 1)
    return std::nullopt;
  used = true;
  return model::Dim3{ClampInt(*total), 1, 1};
}

model::GpuActivity ActivityOf(const Launch& launch, model::Trace& trace, bool& from_totals) {
  model::GpuActivity a;
  a.kind = model::ActivityKind::kKernel;
  a.device = launch.device;
  a.name = trace.strings.Intern(launch.name);
  a.stream = launch.stream;
  a.context = launch.context;
  a.pid = launch.pid;
  auto grid = launch.grid ? launch.grid : DimFromMetrics(launch, "launch__grid_dim");
  auto block = launch.block ? launch.block : DimFromMetrics(launch, "launch__block_dim");
  if (!grid)
    grid = DimFromTotal(launch, "launch__grid_size", from_totals);
  if (!block)
    block = DimFromTotal(launch, "launch__block_size", from_totals);
  if (grid)
    a.grid = *grid;
  if (block)
    a.block = *block;
  a.registers_per_thread = ClampInt(Metric(launch, "launch__registers_per_thread").value_or(0));
  a.shared_memory_bytes =
      ClampInt(Metric(launch, "launch__shared_mem_per_block_static").value_or(0) +
               Metric(launch, "launch__shared_mem_per_block_dynamic").value_or(0));
  return a;
}

model::Trace BuildTrace(ncu::ParsedCsv parsed, model::Diagnostics diagnostics) {
  model::Trace trace;
  trace.diagnostics = std::move(diagnostics);
  trace.metadata.format_version = parsed.layout;
  trace.metadata.producer = "Nsight Compute";
  trace.metadata.properties["ncu_layout"] = parsed.layout;
  std::map<std::int32_t, model::Device> devices;
  std::map<std::int64_t, model::Process> processes;
  std::int64_t cursor_ns = 0, from_cycles = 0, without = 0, from_totals = 0;
  for (Launch& launch : parsed.launches) {
    if (!devices.count(launch.device) || devices[launch.device].name.empty())
      devices[launch.device] = DeviceOf(launch);
    if (launch.pid != model::kNoId)
      processes.emplace(launch.pid, model::Process{launch.pid, launch.process_name, launch.host});
    bool totals = false;
    model::GpuActivity a = ActivityOf(launch, trace, totals);
    from_totals += totals ? 1 : 0;
    bool cycles = false;
    std::optional<double> ns = DurationNs(launch, cycles);
    from_cycles += cycles ? 1 : 0;
    if (!ns || !(*ns >= 0) || *ns > 1e15) {
      ++without;
      ns = 0;
    }
    a.start_ns = cursor_ns;
    a.end_ns = cursor_ns + std::llround(*ns);
    cursor_ns = a.end_ns;
    model::StoreNcuRules(trace.metadata, trace.activities.size(), launch.rules);
    trace.counters.push_back({trace.activities.size(), std::move(launch.metrics)});
    trace.activities.push_back(a);
  }
  for (auto& [id, device] : devices)
    trace.devices.push_back(std::move(device));
  for (auto& [pid, process] : processes)
    trace.processes.push_back(std::move(process));
  if (from_cycles > 0)
    trace.diagnostics.Count(model::Diagnostic::kNcuDurationsFromCycles, from_cycles);
  if (without > 0)
    trace.diagnostics.Count(model::Diagnostic::kNcuLaunchesWithoutDuration, without);
  if (from_totals > 0)
    trace.diagnostics.Count(model::Diagnostic::kNcuLaunchDimsFromTotals, from_totals);
  trace.diagnostics.notes.push_back(
      "Nsight Compute CSV: " + std::to_string(trace.activities.size()) +
      " profiled launches laid back to back on a synthetic timeline from 0 in ID order (ncu "
      "serialises and replays each launch; gaps between launches are not recorded). Durations "
      "are gpu__time_duration.sum, else elapsed cycles / cycles per second.");
  return trace;
}

class NcuImporter final : public Importer {
 public:
  std::string_view FormatName() const override { return "ncu-csv"; }
  // ncu serialises and replays each launch: its layout back to back is no timeline.
  bool HasTimeline() const override { return false; }
  bool Probe(std::string_view head) const override { return ncu::LooksLikeNcuCsv(head); }
  Result<model::Trace> Import(const Input& input) const override {
    auto source = input.Open();
    if (!source.ok())
      return source.error();
    model::Diagnostics diagnostics;
    auto parsed = ncu::ParseCsv(**source, input.name(), diagnostics);
    if (!parsed.ok())
      return parsed.error();
    return BuildTrace(std::move(parsed).value(), std::move(diagnostics));
  }
};

}  // namespace

std::unique_ptr<Importer> MakeNcuImporter() {
  return std::make_unique<NcuImporter>();
}

}  // namespace gpuperf::io
