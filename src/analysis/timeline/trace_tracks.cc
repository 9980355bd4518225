#include "analysis/timeline/trace_tracks.h"

#include <algorithm>

#include "analysis/core/correlation.h"
#include "util/intervals.h"

namespace gpuperf::analysis {
namespace {

std::vector<util::Interval> BusyIntervals(const model::Trace& trace) {
  std::vector<util::Interval> busy;
  busy.reserve(trace.activities.size());
  for (const model::GpuActivity& a : trace.activities)
    busy.push_back({a.start_ns, a.end_ns});
  return util::MergeIntervals(std::move(busy));
}

// API calls sorted by start, for the sweep over the (sorted) gaps.
std::vector<std::size_t> CallsByStart(const model::Trace& trace) {
  std::vector<std::size_t> order(trace.api_calls.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return trace.api_calls[a].start_ns < trace.api_calls[b].start_ns;
  });
  return order;
}

// Fills api_covered_ns and the longest covering call of each gap. Calls end at most
// `longest_call` after they start, so the sweep looks back that far only.
void CoverGaps(const model::Trace& trace, std::vector<IdleGap>& gaps) {
  const std::vector<std::size_t> order = CallsByStart(trace);
  std::int64_t longest_call = 0;
  for (const model::ApiCall& c : trace.api_calls)
    longest_call = std::max(longest_call, c.duration_ns());
  for (IdleGap& gap : gaps) {
    auto first = std::lower_bound(
        order.begin(),
        order.end(),
        gap.start_ns - longest_call,
        [&](std::size_t i, std::int64_t t) { return trace.api_calls[i].start_ns < t; });
    std::vector<util::Interval> covered;
    for (auto it = first; it != order.end() && trace.api_calls[*it].start_ns < gap.end_ns; ++it) {
      const model::ApiCall& c = trace.api_calls[*it];
      const std::int64_t start = std::max(c.start_ns, gap.start_ns);
      const std::int64_t end = std::min(c.end_ns, gap.end_ns);
      if (end <= start)
        continue;
      covered.push_back({start, end});
      if (end - start > gap.longest_api_ns) {
        gap.longest_api_ns = end - start;
        gap.longest_api = std::string(trace.Name(c.name));
      }
    }
    gap.api_covered_ns = util::TotalLength(util::MergeIntervals(std::move(covered)));
  }
}

}  // namespace

ResultTracks ComputeResultTracks(const model::Trace& trace) {
  ResultTracks tracks;
  tracks.window = ComputeTraceWindow(trace);
  const std::vector<util::Interval> idle =
      util::Subtract({{tracks.window.start_ns, tracks.window.end_ns}}, BusyIntervals(trace));
  for (const util::Interval& i : idle)
    tracks.idle.push_back({i.start, i.end, 0, "", 0});
  CoverGaps(trace, tracks.idle);
  const CorrelationIndex index(trace);
  const CriticalRuns chains = CriticalActivities(trace, index);
  for (std::size_t i = 0; i < trace.activities.size(); ++i)
    tracks.critical.push_back(chains.Critical(i));
  return tracks;
}

}  // namespace gpuperf::analysis
