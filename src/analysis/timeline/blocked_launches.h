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
};

// Launches into a deep queue that took more than kBlockedFactor times an unblocked launch (the
// median launch into a shallow queue; 20 us when the trace has none), in api_calls order.
std::vector<BlockedLaunch> BlockedLaunches(const model::Trace& trace,
                                           const CorrelationIndex& index);

// The blocked launches for the launch-queue statement: their count and time, the queue's
// occupancy at their return, how soon after a GPU operation's end they return against the
// deep-queue launches that did not block, and whether that shows a full queue (each waited for a
// slot to free).
void SummarizeBlockedLaunches(const model::Trace& trace,
                              const CorrelationIndex& index,
                              const std::vector<BlockedLaunch>& blocked,
                              report::LaunchQueue& q);

}  // namespace gpuperf::analysis
