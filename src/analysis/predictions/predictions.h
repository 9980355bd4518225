// Amdahl predictions from the timeline: each hot kernel's and phase's share of the critical
// time, the whole-program bound of a local speedup, and, with a roofline floor, the wall time a
// kernel could give back (docs/method.md, "Amdahl bound and critical time").
#pragma once

#include "gpuperf/predict.h"
#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/core/correlation.h"
#include "analysis/kernel/kernel_floor.h"
#include "analysis/predictions/preroll.h"
#include "analysis/timeline/host_waits.h"
#include "util/intervals.h"
#include "util/user_regex.h"

namespace gpuperf::analysis {

// The local speedups at which every kernel's and phase's illustrative gain is computed
// (report.json `predictions.illustrative_speedups`, report.md's "gain at" columns).
inline constexpr double kIllustrativeSpeedups[] = {1.25, 2.0};

// Kernels are ranked by critical time (recoverable time, where a floor is known, is a column);
// the first `kernels_kept` are kept. A floor is never below instances x the minimum latency. Phases
// are NVTX and user-annotation ranges by their union of host time. With a pre-roll (orphan work
// from before the recording) the window starts at its end and its activities hold no critical time.
// `one_time_idle_ns`, the GPU idle inside one-time work (initialization), is left out of the wall
// too, so f and every bound are over the same steady-state window as the diagnosis', and so are
// `unobserved_lead_ns` and `unobserved_tail_ns` (idle_attribution.h).
report::Predictions ComputePredictions(const model::Trace& trace,
                                       const CorrelationIndex& index,
                                       const std::vector<report::KernelRow>& kernels,
                                       const std::map<std::string, KernelFloor>& floors,
                                       std::size_t kernels_kept,
                                       const PreRoll* preroll = nullptr,
                                       std::int64_t one_time_idle_ns = 0,
                                       std::int64_t unobserved_lead_ns = 0,
                                       std::int64_t unobserved_tail_ns = 0,
                                       const std::vector<util::Interval>* steady = nullptr,
                                       const HostWaits* host_waits = nullptr);

// One share for every kernel whose name passes `select`, taken together: a stretch counts when
// only selected kernels run on the device (`gpuperf predict --kernel REGEX`).
report::CriticalShare SelectedKernelsShare(const model::Trace& trace,
                                           const CorrelationIndex& index,
                                           const std::function<bool(std::string_view)>& select,
                                           std::int64_t* wall_ns,
                                           std::int64_t* device_groups);

// `gpuperf predict`: the kernels whose names `pattern` finds, taken together, made
// `local_speedup` times faster. From a report.json's predictions section (its wall_ns > 0): the
// matched kernels' critical times summed, and the roofline's largest local speedup when every
// one has a floor. A name the matcher refuses (too long) is not selected and said so in rests_on.
predict::Prediction PredictFromReport(const report::Predictions& predictions,
                                      const util::UserRegex& pattern,
                                      double local_speedup);

// The same from a trace: the stretches in which only the matched kernels run
// (SelectedKernelsShare).
predict::Prediction PredictFromTrace(const model::Trace& trace,
                                     const CorrelationIndex& index,
                                     const util::UserRegex& pattern,
                                     double local_speedup);

// Fills wall_fraction and bound_speedup_if_removed of each finding from its gpu_idle_caused_ns
// (wait-type findings) or else its time_ns, over `wall_ns` (the steady-state window). A
// "warning" whose cost is under 0.5% of the window (a wait that caused no idle) becomes "info".
void BoundFindings(std::vector<report::Finding>& findings, std::int64_t wall_ns);

}  // namespace gpuperf::analysis
