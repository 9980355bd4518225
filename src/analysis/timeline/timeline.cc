#include "analysis/timeline/timeline.h"

#include <algorithm>
#include <map>

#include "analysis/core/names.h"
#include "util/intervals.h"

namespace gpuperf::analysis {
namespace {

using util::Interval;

struct Categories {
  std::vector<Interval> all, computation, communication, memcpy, memset;
};

Categories Split(const model::Trace& trace,
                 const ActivityList& activities,
                 CommunicationKernels communication) {
  Categories c;
  CachedNamePredicate is_communication(
      trace,
      communication == CommunicationKernels::kNcclOnly ? IsNcclKernel : IsCommunicationKernel);
  for (const model::GpuActivity* a : activities) {
    Interval interval{a->start_ns, a->end_ns};
    c.all.push_back(interval);
    switch (a->kind) {
      case model::ActivityKind::kKernel:
        if (is_communication(a->name)) {
          c.communication.push_back(interval);
        } else {
          c.computation.push_back(interval);
        }
        break;
      case model::ActivityKind::kMemset:
        c.computation.push_back(interval);  // TraceLens counts memsets as computation
        c.memset.push_back(interval);
        break;
      case model::ActivityKind::kMemcpy:
        c.memcpy.push_back(interval);
        break;
    }
  }
  return c;
}

}  // namespace

ActivityList SelectActivities(const model::Trace& trace,
                              const CorrelationIndex& index,
                              const ActivitySelection& selection) {
  ActivityList list;
  list.reserve(trace.activities.size());
  for (const model::GpuActivity& a : trace.activities) {
    if (selection.device && a.device != *selection.device)
      continue;
    if (selection.launched_only && !index.HasCall(a.correlation, a.pid))
      continue;
    list.push_back(&a);
  }
  // Time order once, so that every interval list built from it merges without sorting.
  std::stable_sort(
      list.begin(), list.end(), [](const model::GpuActivity* x, const model::GpuActivity* y) {
        return x->start_ns < y->start_ns;
      });
  return list;
}

report::Timeline ComputeTimeline(const model::Trace& trace,
                                 const ActivityList& activities,
                                 CommunicationKernels communication_kernels) {
  report::Timeline t;
  if (activities.empty())
    return t;
  t.activities = static_cast<std::int64_t>(activities.size());
  t.first_start_ns = activities.front()->start_ns;
  t.last_end_ns = activities.front()->end_ns;
  for (const model::GpuActivity* a : activities) {
    t.first_start_ns = std::min(t.first_start_ns, a->start_ns);
    t.last_end_ns = std::max(t.last_end_ns, a->end_ns);
  }
  t.total_ns = t.last_end_ns - t.first_start_ns;

  Categories c = Split(trace, activities, communication_kernels);
  auto busy = util::MergeIntervals(std::move(c.all));
  auto computation = util::MergeIntervals(std::move(c.computation));
  auto communication = util::MergeIntervals(std::move(c.communication));
  auto copies = util::MergeIntervals(std::move(c.memcpy));
  t.busy_ns = util::TotalLength(busy);
  t.idle_ns = t.total_ns - t.busy_ns;
  t.computation_ns = util::TotalLength(computation);
  t.communication_ns = util::TotalLength(communication);
  t.memcpy_ns = util::TotalLength(copies);
  t.memset_ns = util::TotalLength(util::MergeIntervals(std::move(c.memset)));
  t.exposed_communication_ns = util::TotalLength(util::Subtract(communication, computation));
  t.exposed_memcpy_ns =
      util::TotalLength(util::Subtract(copies, util::UnionOf(computation, communication)));
  return t;
}

std::vector<report::DeviceTimeline> DeviceTimelines(const model::Trace& trace,
                                                    const ActivityList& activities) {
  std::map<std::int32_t, ActivityList> by_device;
  for (const model::GpuActivity* a : activities)
    by_device[a->device].push_back(a);
  std::vector<report::DeviceTimeline> out;
  for (const auto& [device, list] : by_device) {
    report::DeviceTimeline entry;
    entry.device = device;
    if (const model::Device* info = trace.FindDevice(device))
      entry.name = info->name;
    entry.timeline = ComputeTimeline(trace, list);
    out.push_back(std::move(entry));
  }
  return out;
}

}  // namespace gpuperf::analysis
