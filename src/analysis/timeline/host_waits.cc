#include "analysis/timeline/host_waits.h"

#include <algorithm>
#include <tuple>

#include "analysis/core/names.h"

namespace gpuperf::analysis {

HostWaits::HostWaits(const model::Trace& trace,
                     const CorrelationIndex& index,
                     const std::vector<BlockedLaunch>& blocked) {
  // The calls that wait for the GPU (synchronizations, copies and memsets that wait like one: a
  // copy that did not block is too short to matter), and launches blocked on a full queue from
  // the point an unblocked launch would have returned.
  CachedNamePredicate blocking(trace, IsHostWaitApi);
  std::vector<util::Interval> waits;
  for (std::size_t i = 0; i < trace.api_calls.size(); ++i) {
    const model::ApiCall& call = trace.api_calls[i];
    if (index.IsPrimary(i) && blocking(call.name))
      waits.push_back({call.start_ns, call.end_ns});
  }
  for (const BlockedLaunch& launch : blocked) {
    const model::ApiCall& call = trace.api_calls[launch.call];
    waits.push_back({call.end_ns - launch.blocked_ns, call.end_ns});
  }
  for (const model::SyncEvent& s : trace.syncs)
    waits.push_back({s.start_ns, s.end_ns});
  // Closed intervals: a wait that ends exactly when the GPU work does still covers its end.
  std::sort(waits.begin(), waits.end(), [](const util::Interval& a, const util::Interval& b) {
    return std::tie(a.start, a.end) < std::tie(b.start, b.end);
  });
  for (const util::Interval& w : waits) {
    if (!merged_.empty() && w.start <= merged_.back().end)
      merged_.back().end = std::max(merged_.back().end, w.end);
    else
      merged_.push_back(w);
  }
  prefix_.assign(merged_.size() + 1, 0);
  for (std::size_t i = 0; i < merged_.size(); ++i)
    prefix_[i + 1] = prefix_[i] + (merged_[i].end - merged_[i].start);
}

std::int64_t HostWaits::WaitedWithin(std::int64_t start, std::int64_t end) const {
  if (end <= start || merged_.empty())
    return 0;
  auto first = std::upper_bound(
      merged_.begin(), merged_.end(), start, [](std::int64_t v, const util::Interval& i) {
        return v < i.end;
      });
  auto last = std::lower_bound(
      merged_.begin(), merged_.end(), end, [](const util::Interval& i, std::int64_t v) {
        return i.start < v;
      });
  if (first >= last)
    return 0;
  auto a = static_cast<std::size_t>(first - merged_.begin());
  auto b = static_cast<std::size_t>(last - merged_.begin());
  std::int64_t total = prefix_[b] - prefix_[a];
  total -= std::max<std::int64_t>(0, start - merged_[a].start);
  total -= std::max<std::int64_t>(0, merged_[b - 1].end - end);
  return total;
}

}  // namespace gpuperf::analysis
