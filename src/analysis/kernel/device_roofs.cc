#include "analysis/kernel/device_roofs.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "analysis/core/statistics.h"
#include "model/measured_ceilings.h"

namespace gpuperf::analysis {
namespace {

constexpr double kClockTolerance = 0.02;

// The SM clock one launch's counters record, and the counter that holds it. The SM
// sub-partitions run on the SM clock, so smsp__ cycles per second are SM cycles per second (the
// roofline metric sets of `ncu --metrics` often record only that one).
std::optional<std::pair<double, const char*>> ClockOf(
    const std::map<std::string, double>& metrics) {
  for (const char* name : {"gpc__cycles_elapsed.avg.per_second",
                           "sm__cycles_elapsed.avg.per_second",
                           "smsp__cycles_elapsed.avg.per_second"}) {
    auto it = metrics.find(name);
    if (it != metrics.end() && std::isfinite(it->second) && it->second > 0)
      return std::make_pair(it->second, name);
  }
  return std::nullopt;
}

// Joined counters (analyze --counters, a baseline's counter pass) time their replayed launch
// (gpu__time_duration.sum); when the trace's durations of the same launches agree with it (median
// ratio within kDurationAgreement), the trace's kernels ran at the counters' clock too, and the
// roofs may be scaled to it (the H200 MLP: 344.8-354.8 us replayed, 342.4-351.1 us traced, at
// 1.58 GHz). Three launches at least.
constexpr double kDurationAgreement = 0.05;

bool TraceDurationsAgree(const model::Trace& trace, std::int32_t device) {
  std::vector<double> ratios;
  for (const model::KernelCounters& c : trace.counters) {
    if (c.replay_span || c.activity >= trace.activities.size())
      continue;
    const model::GpuActivity& a = trace.activities[c.activity];
    auto it = c.metrics.find("gpu__time_duration.sum");
    if (a.device != device || it == c.metrics.end() || !(it->second > 0) || a.duration_ns() <= 0)
      continue;
    ratios.push_back(static_cast<double>(a.duration_ns()) / it->second);
  }
  return ratios.size() >= 3 && std::abs(Median(std::move(ratios)) - 1) <= kDurationAgreement;
}

model::CeilingMatch MatchOf(const model::Device* d) {
  if (d && d->measured_ceilings) {  // `gpuperf ceilings` on this GPU wins over the datasheet
    auto measured = model::AsDeviceCeilings(*d->measured_ceilings);
    return {measured.get(), "", measured};
  }
  model::CeilingMatch match =
      d ? model::FindCeilings(d->name, d->compute_major, d->compute_minor)
        : model::CeilingMatch{nullptr, "the trace has no record of the device"};
  if (d && d->name.empty() && !match.entry) {
    model::CeilingMatch identified =
        model::IdentifyUnnamed(d->compute_major, d->compute_minor, d->sm_count, d->memory_bytes);
    if (identified.entry)
      return identified;
  }
  if (d && d->name.empty()) {  // say which parts the compute capability leaves open
    std::string candidates;
    for (const auto* entry :
         model::CeilingsForComputeCapability(d->compute_major, d->compute_minor))
      candidates += (candidates.empty() ? "" : ", ") + std::string(entry->key);
    if (!candidates.empty()) {
      match.reason += fmt::format(
          "; compute capability {}.{} fits {}", d->compute_major, d->compute_minor, candidates);
    }
  }
  return match;
}

// `device` nullopt: a device neither the trace's devices nor any activity names.
DeviceRoofs Resolve(const model::Trace& trace, std::optional<std::int32_t> device) {
  const model::Device* d = device ? trace.FindDevice(*device) : nullptr;
  DeviceRoofs roofs{MatchOf(d), std::nullopt, "", true, {}, {}, {}};
  roofs.durations_from_counters = !trace.diagnostics.Has(model::Diagnostic::kCountersNcuLaunches) ||
                                  (device && TraceDurationsAgree(trace, *device));
  if (auto clock = device ? CountersSmClock(trace, *device) : std::nullopt) {
    roofs.counters_clock_hz = clock->hz;
    roofs.counters_clock_metric = clock->metric;
  }
  const model::DeviceCeilings* entry = roofs.match.entry;
  if (entry && entry->boost_clock_hz && roofs.ScaleClock() &&
      std::abs(*roofs.ScaleClock() / *entry->boost_clock_hz - 1) > kClockTolerance)
    roofs.scaled = model::AtSmClock(*entry, *roofs.ScaleClock());
  if (d)
    roofs.compute_capability_entries =
        model::CeilingsForComputeCapability(d->compute_major, d->compute_minor);
  if (!entry && d && d->name.empty())
    roofs.unnamed_candidates = roofs.compute_capability_entries;
  return roofs;
}

}  // namespace

std::optional<CountersClock> CountersSmClock(const model::Trace& trace, std::int32_t device) {
  std::vector<double> clocks;
  const char* metric = nullptr;
  for (const model::KernelCounters& c : trace.counters) {
    if (c.activity >= trace.activities.size() || trace.activities[c.activity].device != device)
      continue;
    if (auto clock = ClockOf(c.metrics)) {
      clocks.push_back(clock->first);
      metric = metric ? metric : clock->second;
    }
  }
  if (clocks.empty())
    return std::nullopt;
  std::sort(clocks.begin(), clocks.end());
  std::size_t n = clocks.size();
  return CountersClock{n % 2 == 1 ? clocks[n / 2] : (clocks[n / 2 - 1] + clocks[n / 2]) / 2,
                       metric};
}

std::optional<double> CountersSmClockHz(const model::Trace& trace, std::int32_t device) {
  auto clock = CountersSmClock(trace, device);
  return clock ? std::optional<double>(clock->hz) : std::nullopt;
}

model::CeilingMatch DeviceCeilingMatch(const model::Trace& trace, std::int32_t device) {
  return MatchOf(trace.FindDevice(device));
}

const model::DeviceCeilings* DeviceRoofs::ForCounters() const {
  return scaled ? &*scaled : match.entry;
}

DeviceRoofs RoofsOf(const model::Trace& trace, std::int32_t device) {
  return Resolve(trace, device);
}

DeviceRoofsTable::DeviceRoofsTable(const model::Trace& trace) : unknown_(Resolve(trace, {})) {
  std::set<std::int32_t> devices;
  for (const model::Device& d : trace.devices)
    devices.insert(d.id);
  for (const model::GpuActivity& a : trace.activities)
    devices.insert(a.device);
  for (std::int32_t device : devices)
    roofs_.emplace(device, Resolve(trace, device));
}

const DeviceRoofs& DeviceRoofsTable::Of(std::int32_t device) const {
  auto it = roofs_.find(device);
  return it == roofs_.end() ? unknown_ : it->second;
}

std::string MeasuredScope(const model::Trace& trace, std::int32_t device) {
  const model::Device* d = trace.FindDevice(device);
  if (!d || !d->measured_ceilings)
    return "";
  return fmt::format(
      "; measured ceilings hold DRAM, FP32 vector and BF16/FP16 tensor (wmma) peaks only, "
      "kernels in other precisions get no roof; matched by {}",
      d->measured_ceilings->matched_by.empty() ? "the caller" : d->measured_ceilings->matched_by);
}

}  // namespace gpuperf::analysis
