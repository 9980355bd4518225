// What the host was doing while the GPU was idle (docs/metrics.md, "Diagnosis"): the triage's
// first question after "is the GPU idle?" is whether the idle time is host-, launch- or
// sync-bound, and the trace's host API calls answer it.
#pragma once

#include "gpuperf/trace.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analysis/critical_time.h"
#include "analysis/timeline.h"

namespace gpuperf::analysis {

// Idle time of the recorded window (all devices together: no GPU work anywhere), including the
// stretches before the first and after the last GPU activity, split by cause.
// Each idle stretch ("gap") is either drained by a synchronization (a host-blocking sync call,
// synchronous copy or memset, or a host-blocking sync record overlaps it, and at most 100 us or
// half of it is covered by no API call: the cost is the round trip back to the GPU) or split by
// what covers it: launch calls, other CUDA API calls, or nothing the trace records (the host was
// busy elsewhere; after a synchronization, host work that the synchronization exposed).
struct IdleAttribution {
  std::int64_t window_ns = 0;  // the recorded window (critical_time.h's TraceWindow)
  std::int64_t idle_ns = 0;
  std::int64_t edge_ns = 0;  // of idle_ns: before the first and after the last GPU activity
  std::int64_t gaps = 0;
  std::int64_t sync_ns = 0;  // in gaps a synchronization overlaps
  std::int64_t sync_gaps = 0;
  std::int64_t sync_exposed_gaps = 0;  // overlap a synchronization but hold long host work
  std::int64_t launch_ns = 0;          // other gaps: covered by kernel or graph launch calls
  std::int64_t other_api_ns = 0;       // other gaps: covered by other API calls only
  std::int64_t host_ns = 0;            // other gaps: covered by no recorded API call
  // Of host_ns: inside recorded host work (host ops, NVTX and record_function ranges shorter
  // than half the window), and the names that cover most of it, with the time they cover.
  std::int64_t host_work_ns = 0;
  std::vector<std::pair<std::string, std::int64_t>> top_host_work;
  bool has_api_calls = false;  // without them only idle_ns is known
  bool has_host_work_records = false;
};

IdleAttribution AttributeIdle(const model::Trace& trace,
                              const ActivityList& activities,
                              const TraceWindow& window);

}  // namespace gpuperf::analysis
