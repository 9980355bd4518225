// The intervals `analyze --format trace` lays on a timeline beside the trace's own events
// (HTA's augmented traces do the same): where the GPU was idle and which API calls covered that
// time, and which GPU activities were critical (analysis/timeline/critical_time.h). Writers format
// them (report/trace_export); nothing here is formatted.
#pragma once

#include "gpuperf/trace.h"

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/timeline/critical_time.h"

namespace gpuperf::analysis {

struct IdleGap {
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::int64_t api_covered_ns = 0;  // of the gap, covered by host CUDA API calls (union)
  std::string longest_api;          // the API call that covers most of it; "" when none
  std::int64_t longest_api_ns = 0;
};

struct ResultTracks {
  TraceWindow window;
  // Stretches of the window with no GPU activity on any device, in time order.
  std::vector<IdleGap> idle;
  // One flag per trace.activities entry: in a chain the program waited for (CriticalActivities).
  std::vector<bool> critical;
};

ResultTracks ComputeResultTracks(const model::Trace& trace);

}  // namespace gpuperf::analysis
