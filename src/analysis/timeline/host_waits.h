// The host's waits for the GPU as one timeline: every interval in which a host thread was blocked
// on GPU work (synchronizations, copies and memsets that wait like one, launches blocked on a
// full queue, sync records), merged over threads. Shared by the critical-time runs (their
// budgets) and the run-forward cost of a wait (run_forward.h), so that both count the same waits.
#pragma once

#include "gpuperf/trace.h"

#include <cstdint>
#include <vector>

#include "analysis/core/correlation.h"
#include "analysis/timeline/blocked_launches.h"
#include "util/intervals.h"

namespace gpuperf::analysis {

class HostWaits {
 public:
  HostWaits(const model::Trace& trace,
            const CorrelationIndex& index,
            const std::vector<BlockedLaunch>& blocked);

  // How long a host thread waited for the GPU inside [start, end] (their union).
  std::int64_t WaitedWithin(std::int64_t start, std::int64_t end) const {
    return waits_.Within(start, end);
  }
  // The waits, merged (closed intervals: touching waits are one), sorted.
  const std::vector<util::Interval>& merged() const { return waits_.merged(); }

 private:
  util::PrefixCover waits_;
};

}  // namespace gpuperf::analysis
