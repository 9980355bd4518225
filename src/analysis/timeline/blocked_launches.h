// Launch calls that blocked the host on a full launch queue: the host waiting for the GPU inside
// a launch, as in a synchronization. Computed once per analysis (analyze.cc) and shared by the
// critical-time runs (critical_time.h), the host-wait cap (diagnosis/host_wait_cap.cc) and the
// launch-queue sentence, so that all count the same waits.
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <cstdint>
#include <vector>

#include "analysis/core/correlation.h"

namespace gpuperf::analysis {

// A launch is into a deep queue when its first GPU work starts this long after the call ends.
inline constexpr std::int64_t kDeepQueueNs = 1'000'000;

// A launch into a deep queue blocked when it took this many times an unblocked one.
inline constexpr std::int64_t kBlockedFactor = 4;

struct BlockedLaunch {
  std::size_t call = 0;         // index into trace.api_calls
  std::int64_t blocked_ns = 0;  // its time beyond what an unblocked launch takes
  // GPU work launched and not yet started when it returned: the queue's occupancy then.
  std::int64_t queued_at_return = 0;
  // From the last GPU operation's end to its return; -1 when none had ended.
  std::int64_t return_gap_ns = -1;
};

struct LaunchBlocking {
  std::vector<BlockedLaunch> launches;  // in api_calls order
  // The median return gap of the launches into a deep queue that did not block; 0 without any.
  std::int64_t unblocked_return_gap_ns = 0;
};

// Launches into a deep queue that took more than kBlockedFactor times an unblocked launch (the
// median launch into a shallow queue; 20 us when the trace has none), with the evidence of a
// full queue.
LaunchBlocking FindBlockedLaunches(const model::Trace& trace, const CorrelationIndex& index);
// Only the launches.
std::vector<BlockedLaunch> BlockedLaunches(const model::Trace& trace,
                                           const CorrelationIndex& index);

// The blocked launches for the launch-queue statement: their count and time, the queue's
// occupancy at their return, how soon after a GPU operation's end they return against the
// deep-queue launches that did not block, and whether that shows a full queue (each waited for a
// slot to free).
void SummarizeBlockedLaunches(const LaunchBlocking& blocking, report::LaunchQueue& q);

}  // namespace gpuperf::analysis
