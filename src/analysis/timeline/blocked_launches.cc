#include "analysis/timeline/blocked_launches.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "analysis/core/names.h"
#include "analysis/core/statistics.h"

namespace gpuperf::analysis {
namespace {

constexpr model::TimeNs kNever = std::numeric_limits<model::TimeNs>::max();
constexpr model::TimeNs kNoEnd = std::numeric_limits<model::TimeNs>::min();

// A launch into a shallow queue returns in about this long when the trace has none to measure.
constexpr std::int64_t kUnblockedLaunchNs = 20'000;
// A full queue: the blocked launches return right after a GPU operation ends (its slot frees),
// within this long at the median, and at most a quarter of the same gap for the launches into a
// deep queue that did not block (an HTA trace of a V100: 5.5 us against 55 us, with 1021
// operations queued at every blocked return), with hundreds of operations queued (CUDA's queue
// holds about a thousand).
constexpr std::int64_t kSlotFreedNs = 20'000;
constexpr std::int64_t kUnblockedGapFactor = 4;
constexpr std::int64_t kMinFullQueue = 128;
constexpr std::size_t kMinBlockedForFull = 8;

// Each call's first GPU work (every record of its correlation, across processes, as the
// activities carry no pid): a launch's queue depth in one pass, without sorting.
std::vector<model::TimeNs> FirstStarts(const model::Trace& trace, const CorrelationIndex& index) {
  std::vector<model::TimeNs> first_start(trace.api_calls.size(), kNever);
  for (const model::GpuActivity& a : trace.activities) {
    if (a.correlation != model::kNoId) {
      index.ForEachCall(a.correlation, model::kNoId, [&](std::size_t call) {
        first_start[call] = std::min(first_start[call], a.start_ns);
      });
    }
  }
  return first_start;
}

}  // namespace

LaunchBlocking FindBlockedLaunches(const model::Trace& trace, const CorrelationIndex& index) {
  const std::vector<model::TimeNs> first_start = FirstStarts(trace, index);
  CachedNamePredicate is_launch(trace, IsLaunchApi);
  // A graph launch submits all of its nodes: its time grows with their number, not with a wait
  // for a queue slot (vllm_hip_graphs: one hipGraphLaunch of 421 nodes, 507 us).
  CachedNamePredicate is_graph(trace, IsGraphLaunchApi);
  std::vector<std::int64_t> shallow;  // durations of launches into a shallow queue
  std::vector<std::size_t> deep;      // launches into a deep queue
  for (std::size_t i = 0; i < trace.api_calls.size(); ++i) {
    const model::ApiCall& call = trace.api_calls[i];
    if (call.correlation == model::kNoId || first_start[i] == kNever || !is_launch(call.name) ||
        is_graph(call.name))
      continue;
    if (first_start[i] - call.end_ns <= kDeepQueueNs)
      shallow.push_back(call.duration_ns());
    else
      deep.push_back(i);
  }
  std::int64_t unblocked =
      shallow.empty() ? kUnblockedLaunchNs : static_cast<std::int64_t>(Summarize(shallow).med);
  LaunchBlocking out;
  for (std::size_t i : deep) {
    std::int64_t duration = trace.api_calls[i].duration_ns();
    if (duration > kBlockedFactor * unblocked)
      out.launches.push_back({i, duration - unblocked, 0, -1});
  }
  if (out.launches.empty())
    return out;
  // At the return of every launch into a deep queue (with too few blocked for a full queue, of
  // the blocked ones only: nothing to compare), in one pass over the calls and one over the
  // activities (each a search among those returns, never a sort of the whole trace): the queue's
  // occupancy (calls with GPU work that had returned, less those whose work had started; a call
  // still running when its work starts counts as started, off by at most the threads launching
  // then) and the last GPU operation's end.
  const bool compare = out.launches.size() >= kMinBlockedForFull;
  std::vector<model::TimeNs> at;
  if (compare) {
    at.reserve(deep.size());
    for (std::size_t i : deep)
      at.push_back(trace.api_calls[i].end_ns);
  } else {
    for (const BlockedLaunch& launch : out.launches)
      at.push_back(trace.api_calls[launch.call].end_ns);
  }
  std::sort(at.begin(), at.end());
  auto first_at_or_after = [&](model::TimeNs t) {
    return static_cast<std::size_t>(std::lower_bound(at.begin(), at.end(), t) - at.begin());
  };
  std::vector<std::int64_t> occupancy(at.size() + 1, 0);
  for (std::size_t i = 0; i < trace.api_calls.size(); ++i) {
    if (first_start[i] == kNever)
      continue;
    ++occupancy[first_at_or_after(trace.api_calls[i].end_ns)];
    --occupancy[first_at_or_after(first_start[i])];
  }
  std::vector<model::TimeNs> last_end(at.size() + 1, kNoEnd);
  for (const model::GpuActivity& a : trace.activities) {
    std::size_t j = first_at_or_after(a.end_ns);
    last_end[j] = std::max(last_end[j], a.end_ns);
  }
  for (std::size_t j = 1; j < at.size(); ++j) {
    occupancy[j] += occupancy[j - 1];
    last_end[j] = std::max(last_end[j], last_end[j - 1]);
  }
  auto slot = [&](model::TimeNs t) {
    return static_cast<std::size_t>(std::upper_bound(at.begin(), at.end(), t) - at.begin()) - 1;
  };
  auto gap = [&](model::TimeNs t) {
    const model::TimeNs end = last_end[slot(t)];
    return end == kNoEnd ? std::int64_t{-1} : t - end;
  };
  std::vector<bool> is_blocked(trace.api_calls.size(), false);
  for (BlockedLaunch& launch : out.launches) {
    const model::TimeNs t = trace.api_calls[launch.call].end_ns;
    launch.queued_at_return = std::max<std::int64_t>(0, occupancy[slot(t)]);
    launch.return_gap_ns = gap(t);
    is_blocked[launch.call] = true;
  }
  if (!compare)
    return out;
  std::vector<std::int64_t> unblocked_gaps;
  for (std::size_t i : deep) {
    if (std::int64_t g = gap(trace.api_calls[i].end_ns); !is_blocked[i] && g >= 0)
      unblocked_gaps.push_back(g);
  }
  out.unblocked_return_gap_ns = UpperMedian(unblocked_gaps);
  return out;
}

std::vector<BlockedLaunch> BlockedLaunches(const model::Trace& trace,
                                           const CorrelationIndex& index) {
  return FindBlockedLaunches(trace, index).launches;
}

void SummarizeBlockedLaunches(const LaunchBlocking& blocking, report::LaunchQueue& q) {
  const std::vector<BlockedLaunch>& blocked = blocking.launches;
  q.blocked_launches = static_cast<std::int64_t>(blocked.size());
  q.blocked_ns = 0;
  if (blocked.empty())
    return;
  std::vector<std::int64_t> queued;
  std::vector<std::int64_t> blocked_gaps;
  for (const BlockedLaunch& launch : blocked) {
    q.blocked_ns += launch.blocked_ns;
    queued.push_back(launch.queued_at_return);
    if (launch.return_gap_ns >= 0)
      blocked_gaps.push_back(launch.return_gap_ns);
  }
  const bool gaps = !blocked_gaps.empty();
  q.queued_at_blocked_return = UpperMedian(queued);
  q.blocked_return_gap_ns = UpperMedian(blocked_gaps);
  q.unblocked_return_gap_ns = blocking.unblocked_return_gap_ns;
  q.queue_full = blocked.size() >= kMinBlockedForFull && gaps &&
                 q.queued_at_blocked_return >= kMinFullQueue &&
                 q.blocked_return_gap_ns <= kSlotFreedNs &&
                 (q.unblocked_return_gap_ns == 0 ||
                  q.blocked_return_gap_ns * kUnblockedGapFactor <= q.unblocked_return_gap_ns);
}

}  // namespace gpuperf::analysis
