// One-time work in the recorded window (docs/metrics.md, "Initialization"): context creation,
// lazy module loading, JIT compilation, autotuning, first library calls, CUDA graph capture and
// teardown. A steady-state diagnosis leaves it out: it does not recur per step, so a bound that
// counts it promises a speedup the next step will not see.
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <cstdint>
#include <vector>

#include "analysis/core/correlation.h"
#include "analysis/timeline/critical_time.h"
#include "util/intervals.h"

namespace gpuperf::analysis {

// A first call must take at least this long to count as one-time work, and at least
// kOneTimeFactor times the median of its name's calls (when there are other calls).
inline constexpr std::int64_t kOneTimeMinNs = 1'000'000;
inline constexpr double kOneTimeFactor = 10.0;

struct InitializationResult {
  report::Initialization report;          // items aggregated by (kind, name); time_ns, fraction
  std::vector<util::Interval> intervals;  // merged, clipped to the window
};

// Detects one-time work from first-call outliers (API calls and host ops whose first instance
// takes at least kOneTimeMinNs and kOneTimeFactor x the median of their name; for the first
// launch of each kernel, x the median launch call of kernels launched before, or kOneTimeMinNs
// alone when there are too few of those: lazy module loading), from names
// (JIT/NVRTC compilation, autotuning, module unloading and context teardown) and from CUDA
// graph capture windows (BeginCapture..EndCapture, graph instantiation).
InitializationResult DetectInitialization(const model::Trace& trace,
                                          const CorrelationIndex& index,
                                          const TraceWindow& window);

}  // namespace gpuperf::analysis
