#include "analysis/timeline/ranges.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "analysis/core/statistics.h"
#include "util/intervals.h"

namespace gpuperf::analysis {
namespace {

using util::Interval;

std::string DisplayName(const model::Trace& trace, const model::Range& range) {
  std::string name(trace.Name(range.name));
  std::string_view domain = trace.Name(range.domain);
  if (domain.empty() || name.starts_with(std::string(domain) + ":"))
    return name;
  return std::string(domain) + ":" + name;
}

struct RangeGroup {
  std::vector<std::int64_t> durations;
  std::map<std::int32_t, std::vector<Interval>> windows;  // by device; kNoId = all devices
};

// Merged GPU busy intervals: key kNoId for all devices, else per device.
std::map<std::int32_t, std::vector<Interval>> GpuBusy(const model::Trace& trace) {
  std::map<std::int32_t, std::vector<Interval>> raw;
  for (const model::GpuActivity& a : trace.activities) {
    raw[static_cast<std::int32_t>(model::kNoId)].push_back({a.start_ns, a.end_ns});
    raw[a.device].push_back({a.start_ns, a.end_ns});
  }
  for (auto& [device, intervals] : raw)
    intervals = util::MergeIntervals(std::move(intervals));
  return raw;
}

std::int64_t ProjectedGpuTime(const RangeGroup& group,
                              const std::map<std::int32_t, std::vector<Interval>>& busy) {
  std::int64_t covered = 0;
  for (const auto& [device, windows] : group.windows) {
    auto it = busy.find(device);
    if (it == busy.end())
      continue;
    for (const Interval& w : util::MergeIntervals(windows)) {
      covered += util::CoveredLength(it->second, w.start, w.end);
    }
  }
  return covered;
}

report::RangeKind ReportKind(model::RangeKind kind) {
  switch (kind) {
    case model::RangeKind::kNvtx:
      return report::RangeKind::kNvtx;
    case model::RangeKind::kUserAnnotation:
      return report::RangeKind::kUserAnnotation;
    case model::RangeKind::kGpuUserAnnotation:
      return report::RangeKind::kGpuUserAnnotation;
    case model::RangeKind::kProfilerStep:
      return report::RangeKind::kProfilerStep;
  }
  return report::RangeKind::kNvtx;
}

}  // namespace

std::vector<report::RangeRow> RangeTable(const model::Trace& trace) {
  using Key = std::pair<model::RangeKind, std::string>;
  std::map<Key, RangeGroup> groups;
  for (const model::Range& r : trace.ranges) {
    if (r.end_ns < r.start_ns)
      continue;
    RangeGroup& group = groups[{r.kind, DisplayName(trace, r)}];
    group.durations.push_back(r.end_ns - r.start_ns);
    bool own_device = r.kind == model::RangeKind::kGpuUserAnnotation && r.device != model::kNoId;
    auto device = own_device ? r.device : static_cast<std::int32_t>(model::kNoId);
    group.windows[device].push_back({r.start_ns, r.end_ns});
  }
  auto busy = GpuBusy(trace);
  std::map<model::RangeKind, std::int64_t> kind_totals;
  std::vector<std::pair<model::RangeKind, report::RangeRow>> rows;
  for (auto& [key, group] : groups) {
    report::RangeRow row;
    row.name = key.second;
    row.kind = ReportKind(key.first);
    row.duration_ns = Summarize(group.durations);
    row.gpu_time_ns = ProjectedGpuTime(group, busy);
    kind_totals[key.first] += row.duration_ns.total;
    rows.emplace_back(key.first, std::move(row));
  }
  for (auto& [kind, row] : rows) {
    row.time_percent =
        Percent(static_cast<double>(row.duration_ns.total), static_cast<double>(kind_totals[kind]));
  }
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return std::make_tuple(a.first, -a.second.duration_ns.total, a.second.name) <
           std::make_tuple(b.first, -b.second.duration_ns.total, b.second.name);
  });
  std::vector<report::RangeRow> out;
  for (auto& [kind, row] : rows)
    out.push_back(std::move(row));
  return out;
}

}  // namespace gpuperf::analysis
