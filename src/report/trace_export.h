// `analyze --format trace`: the analysed trace as Chrome trace-event JSON (chrome://tracing,
// ui.perfetto.dev) with gpuperf's results as extra tracks, as HTA's augmented traces do:
//   - the trace's own GPU activities, CUDA API calls, host operators and ranges;
//   - process "gpuperf": the diagnosis over the window, one instant per finding, the idle
//     stretches of the GPU with the API calls that covered them, and per device the union of
//     critical GPU time (docs/metrics.md, "Predictions");
//   - kernels carry their class (memory, compute, latency, launch) and whether they were critical.
// Timestamps are microseconds from the window's start with ns precision; otherData says where
// the window started (ns, as the trace records it).
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <string>

#include "analysis/timeline/trace_tracks.h"
#include "report/tool_info.h"

namespace gpuperf::report {

inline constexpr std::int64_t kGpuperfTrackPid = 1'000'000'000;  // no real pid or device id

std::string ToTraceEvents(const model::Trace& trace,
                          const AnalysisReport& report,
                          const analysis::ResultTracks& tracks,
                          const ToolInfo& tool);

}  // namespace gpuperf::report
