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
  std::vector<util::Interval> merged;
  for (const util::Interval& w : waits) {
    if (!merged.empty() && w.start <= merged.back().end)
      merged.back().end = std::max(merged.back().end, w.end);
    else
      merged.push_back(w);
  }
  waits_ = util::PrefixCover(std::move(merged));
}

}  // namespace gpuperf::analysis
