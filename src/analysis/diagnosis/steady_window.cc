// The steady-state window the diagnosis measures (diagnosis_parts.h): the recorded window less
// what lies before its first steady step or pre-roll, the unobserved tail and the one-time work
// during which the GPU idled.
#include <algorithm>
#include <vector>

#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/timeline/critical_time.h"
#include "analysis/timeline/timeline.h"
#include "util/intervals.h"

namespace gpuperf::analysis {

std::int64_t SteadyWall(const report::AnalysisReport& r, const IdleAttribution& idle) {
  if (idle.steady_window_ns > 0)
    return idle.steady_window_ns;
  return r.predictions.wall_ns > 0 ? r.predictions.wall_ns : r.timeline.total_ns;
}

double WallFraction(const report::AnalysisReport& r, const IdleAttribution& idle, std::int64_t ns) {
  return std::min(1.0, Fraction(ns, SteadyWall(r, idle)));
}

util::Interval SteadySpan(const model::Trace& trace, const report::AnalysisReport& r) {
  return SteadySpan(ComputeTraceWindow(trace), r);
}

util::Interval SteadySpan(const TraceWindow& window, const report::AnalysisReport& r) {
  const auto& pre = r.predictions.preroll;
  return {window.start_ns + (pre ? pre->time_ns : 0),
          window.end_ns - r.initialization.unobserved_tail_ns};
}

bool InSteadySpan(std::int64_t start_ns, util::Interval span) {
  return start_ns >= span.start && start_ns < span.end;
}

bool InSteadySpan(const model::GpuActivity& a, util::Interval span) {
  return InSteadySpan(a.start_ns, span);
}

report::Timeline SteadyTimeline(const model::Trace& trace, const report::AnalysisReport& r) {
  if (!r.predictions.preroll && r.initialization.unobserved_tail_ns == 0)
    return r.timeline;
  const util::Interval span = SteadySpan(trace, r);
  ActivityList inside;
  for (const model::GpuActivity& a : trace.activities) {
    if (InSteadySpan(a, span))
      inside.push_back(&a);
  }
  std::stable_sort(inside.begin(), inside.end(), [](const auto* x, const auto* y) {
    return x->start_ns < y->start_ns;
  });
  return ComputeTimeline(trace, inside);
}

std::vector<util::Interval> KernelBusy(const model::Trace& trace) {
  std::vector<util::Interval> kernels;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind == model::ActivityKind::kKernel)
      kernels.push_back({a.start_ns, a.end_ns});
  }
  return util::MergeIntervals(std::move(kernels));
}

}  // namespace gpuperf::analysis
