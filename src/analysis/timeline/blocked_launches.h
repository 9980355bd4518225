// Launch calls that blocked the host on a full launch queue: the host waiting for the GPU inside
// a launch, as in a synchronization. Shared by the critical-time chains (critical_time.h) and
// the host-wait cap (diagnosis/host_wait_cap.cc), so that both count the same waits.
#pragma once

#include "gpuperf/trace.h"

#include <cstdint>
#include <vector>

#include "analysis/core/correlation.h"

namespace gpuperf::analysis {

// A launch is into a deep queue when its first GPU work starts this long after the call ends.
inline constexpr std::int64_t kDeepQueueNs = 1'000'000;

struct BlockedLaunch {
  std::size_t call = 0;         // index into trace.api_calls
  std::int64_t blocked_ns = 0;  // its time beyond what an unblocked launch takes
};

// Launches into a deep queue that took more than kBlockedFactor times an unblocked launch (the
// median launch into a shallow queue; 20 us when the trace has none), in api_calls order.
std::vector<BlockedLaunch> BlockedLaunches(const model::Trace& trace,
                                           const CorrelationIndex& index);

}  // namespace gpuperf::analysis
