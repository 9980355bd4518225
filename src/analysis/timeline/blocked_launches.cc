#include "analysis/timeline/blocked_launches.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "analysis/core/names.h"
#include "analysis/core/statistics.h"

namespace gpuperf::analysis {
namespace {

constexpr model::TimeNs kNever = std::numeric_limits<model::TimeNs>::max();

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

std::int64_t Median(std::vector<std::int64_t> v) {
  if (v.empty())
    return 0;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

}  // namespace

std::vector<BlockedLaunch> BlockedLaunches(const model::Trace& trace,
                                           const CorrelationIndex& index) {
  const std::vector<model::TimeNs> first_start = FirstStarts(trace, index);
  CachedNamePredicate is_launch(trace, IsLaunchApi);
  std::vector<std::int64_t> shallow;  // durations of launches into a shallow queue
  std::vector<std::size_t> deep;      // launches into a deep queue
  for (std::size_t i = 0; i < trace.api_calls.size(); ++i) {
    const model::ApiCall& call = trace.api_calls[i];
    if (call.correlation == model::kNoId ||
        first_start[i] == kNever || !is_launch(call.name))
      continue;
    if (first_start[i] - call.end_ns <= kDeepQueueNs)
      shallow.push_back(call.duration_ns());
    else
      deep.push_back(i);
  }
  std::int64_t unblocked =
      shallow.empty() ? kUnblockedLaunchNs : static_cast<std::int64_t>(Summarize(shallow).med);
  std::vector<BlockedLaunch> out;
  for (std::size_t i : deep) {
    std::int64_t duration = trace.api_calls[i].duration_ns();
    if (duration > kBlockedFactor * unblocked)
      out.push_back({i, duration - unblocked, 0});
  }
  if (out.empty())
    return out;
  // The queue's occupancy at each blocked return: calls with GPU work that had returned, less
  // those whose work had started (a call still running when its work starts counts as started:
  // off by at most the threads launching at that moment).
  std::vector<model::TimeNs> returned;
  std::vector<model::TimeNs> started;
  for (std::size_t i = 0; i < trace.api_calls.size(); ++i) {
    if (first_start[i] == kNever)
      continue;
    returned.push_back(trace.api_calls[i].end_ns);
    started.push_back(first_start[i]);
  }
  std::sort(returned.begin(), returned.end());
  std::sort(started.begin(), started.end());
  for (BlockedLaunch& launch : out) {
    model::TimeNs t = trace.api_calls[launch.call].end_ns;
    auto count = [t](const std::vector<model::TimeNs>& v) {
      return static_cast<std::int64_t>(std::upper_bound(v.begin(), v.end(), t) - v.begin());
    };
    launch.queued_at_return = std::max<std::int64_t>(0, count(returned) - count(started));
  }
  return out;
}

void SummarizeBlockedLaunches(const model::Trace& trace,
                              const CorrelationIndex& index,
                              const std::vector<BlockedLaunch>& blocked,
                              report::LaunchQueue& q) {
  q.blocked_launches = static_cast<std::int64_t>(blocked.size());
  q.blocked_ns = 0;
  if (blocked.empty())
    return;
  // From the last GPU operation's end to a call's return; none when nothing ended before it.
  std::vector<model::TimeNs> ends;
  ends.reserve(trace.activities.size());
  for (const model::GpuActivity& a : trace.activities)
    ends.push_back(a.end_ns);
  std::sort(ends.begin(), ends.end());
  auto gap = [&](model::TimeNs t) -> std::optional<std::int64_t> {
    auto it = std::upper_bound(ends.begin(), ends.end(), t);
    if (it == ends.begin())
      return std::nullopt;
    return t - *(it - 1);
  };
  std::vector<std::int64_t> queued;
  std::vector<std::int64_t> blocked_gaps;
  std::vector<bool> is_blocked(trace.api_calls.size(), false);
  for (const BlockedLaunch& launch : blocked) {
    q.blocked_ns += launch.blocked_ns;
    queued.push_back(launch.queued_at_return);
    is_blocked[launch.call] = true;
    if (auto g = gap(trace.api_calls[launch.call].end_ns))
      blocked_gaps.push_back(*g);
  }
  // The launches into a deep queue that did not block: how far from an operation's end a return
  // lands when no slot is awaited.
  const std::vector<model::TimeNs> first_start = FirstStarts(trace, index);
  CachedNamePredicate is_launch(trace, IsLaunchApi);
  std::vector<std::int64_t> unblocked_gaps;
  for (std::size_t i = 0; i < trace.api_calls.size(); ++i) {
    const model::ApiCall& call = trace.api_calls[i];
    if (is_blocked[i] || call.correlation == model::kNoId || first_start[i] == kNever ||
        first_start[i] - call.end_ns <= kDeepQueueNs || !is_launch(call.name))
      continue;
    if (auto g = gap(call.end_ns))
      unblocked_gaps.push_back(*g);
  }
  q.queued_at_blocked_return = Median(queued);
  q.blocked_return_gap_ns = Median(blocked_gaps);
  q.unblocked_return_gap_ns = Median(unblocked_gaps);
  q.queue_full = blocked.size() >= kMinBlockedForFull && !blocked_gaps.empty() &&
                 q.queued_at_blocked_return >= kMinFullQueue &&
                 q.blocked_return_gap_ns <= kSlotFreedNs &&
                 (unblocked_gaps.empty() ||
                  q.blocked_return_gap_ns * kUnblockedGapFactor <= q.unblocked_return_gap_ns);
}

}  // namespace gpuperf::analysis
