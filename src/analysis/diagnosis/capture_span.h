// The span a captured graph of the program's GPU work would take over (docs/metrics.md, "Idle
// attribution"): from the start of the outermost framework operator or PyTorch module frame
// around the first launch call to the end of the one around the last. A graph replays the GPU
// work and drops the host time inside that span (operators, module code); host work outside it
// (input preparation, synchronizing, the profiler's start and stop) stays.
#pragma once

#include "gpuperf/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "util/intervals.h"

namespace gpuperf::analysis {

// nullopt without launch calls.
std::optional<util::Interval> CaptureSpan(const model::Trace& trace);

// Of `edge_gaps` (idle before the first and after the last GPU activity, attributed to the host),
// the time outside CaptureSpan: what a captured graph does not remove (all of it without a
// span), and the recorded host work that covers most of it, "name (time)" by covered time, at
// most two (step ranges left out: they hold everything).
struct EdgeOutsideCapture {
  std::int64_t ns = 0;
  std::string names;
};
EdgeOutsideCapture EdgeHostOutsideCapture(const model::Trace& trace,
                                          const std::vector<util::Interval>& edge_gaps);

}  // namespace gpuperf::analysis
