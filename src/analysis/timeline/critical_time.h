// Which GPU time is critical: the time a part of the program holds alone, on the path the program
// waits for. Amdahl's f comes from here, never from invocation counts (docs/method.md,
// "Amdahl bound and critical time"): overlapped time and time the program did not wait for cannot
// come back.
#pragma once

#include "gpuperf/trace.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/core/correlation.h"

namespace gpuperf::analysis {

// Which GPU work the program waited for, as runs. A run is GPU work each queued behind
// the one before it (launched before it ended) on its (pid, device), up to a gap in which the GPU
// waited for the host, or the device's end. Finishing any of it sooner starts the rest sooner;
// the program goes on sooner by at most how long a host thread waited for the GPU during the run
// (device/stream/event syncs, copies and memsets that wait, launches blocked on a full queue, sync
// records), plus, for the device's last run, how far it runs past the host's last API call: its
// budget. A run without such a wait (the host was the limit: finishing sooner only lengthens the
// idle before the host's next launch) gives nothing back. Work whose successor has no launch
// record to tell counts whole (an upper bound).
struct CriticalRuns {
  static constexpr std::int32_t kNotCritical = -1;
  static constexpr std::int64_t kUnbounded = std::numeric_limits<std::int64_t>::max();
  std::vector<std::int32_t> run_of;     // per trace.activities entry: its run, or kNotCritical
  std::vector<std::int64_t> budget_ns;  // per run: the most its work gives back together
  // The activities of each (pid, device) with positive length, by start: AttributeCriticalTime
  // reuses them instead of sorting again.
  std::vector<std::vector<std::size_t>> groups;

  bool Critical(std::size_t activity) const {
    return run_of[activity] != kNotCritical &&
           budget_ns[static_cast<std::size_t>(run_of[activity])] > 0;
  }
};
CriticalRuns CriticalActivities(const model::Trace& trace, const CorrelationIndex& index);
// With the host's waits computed once for the analysis (analyze.cc).
class HostWaits;
CriticalRuns CriticalActivities(const model::Trace& trace,
                                const CorrelationIndex& index,
                                const HostWaits& waits);

struct CriticalTime {
  std::int64_t exclusive_ns = 0;  // the key runs and no activity with another key on its device
  // Of exclusive_ns, what it gives back: summed over the runs of its running activities, each
  // at most that run's budget (an upper bound for the key alone; summed over keys it can
  // exceed a shared run's budget).
  std::int64_t critical_ns = 0;
  // Of exclusive_ns, the part during which a running activity is on the timeline asked for
  // (AttributeCriticalTime's on_timeline; all of it without one): the GPU's own timeline.
  std::int64_t timeline_ns = 0;
  // critical_ns by run: the part in runs without a budget, and exclusive time per bounded run
  // (before the budget caps it; critical_ns = unbounded_ns + the sum of min(ns, budget)).
  std::int64_t unbounded_ns = 0;
  std::vector<std::pair<std::int32_t, std::int64_t>> runs;
};

struct CriticalTimes {
  std::unordered_map<std::int64_t, CriticalTime> by_key;
  std::int64_t device_groups = 0;  // (pid, device) pairs with GPU work; times are summed over them
};

// Attributes GPU time per key: a stretch of a (pid, device) in which every running activity has
// the same key belongs to that key. `key(i)` gives trace.activities[i]'s key; every activity
// (kernels, copies, memsets) takes part, so a copy running beside a kernel makes that stretch
// nobody's. Zero-length activities take no time. `on_timeline`: one flag per activity for
// CriticalTime::timeline_ns (null: every activity).
CriticalTimes AttributeCriticalTime(const model::Trace& trace,
                                    const CriticalRuns& runs,
                                    const std::function<std::int64_t(std::size_t)>& key,
                                    const std::vector<bool>* on_timeline = nullptr);

// The window the trace covers: first start to last end over GPU activities, host API calls,
// host ops, ranges and sync records. Amdahl's denominator for a trace.
struct TraceWindow {
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::int64_t length_ns() const { return end_ns - start_ns; }
};
TraceWindow ComputeTraceWindow(const model::Trace& trace);

}  // namespace gpuperf::analysis
