// The GPU phase of an idle-dominated window composes with the idle phase: the host's timeline is
// the wall, so a faster GPU gives back only the host's waits for it until the idle phase's fix
// (docs/metrics.md, "Diagnosis": the GPU phase's bound).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "analysis/core/names.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/findings/findings.h"
#include "analysis/predictions/amdahl.h"

namespace gpuperf::analysis {
namespace {

constexpr std::int64_t kDeepQueueNs = 1'000'000;

}  // namespace

HostWaitCap HostWaitsOnGpu(const model::Trace& trace,
                           const report::AnalysisReport& r,
                           std::int64_t wall_ns) {
  // A launch into a deep queue may block until the queue drains (its depth is bounded): counted
  // as a wait, so a GPU-bound phase never caps itself. Over-counting only loosens the cap.
  // (correlation, first start) sorted: a binary search per launch, no hash map per activity.
  std::vector<std::pair<std::int64_t, model::TimeNs>> first_start;
  first_start.reserve(trace.activities.size());
  model::TimeNs gpu_end = 0;
  for (const model::GpuActivity& a : trace.activities) {
    gpu_end = std::max(gpu_end, a.end_ns);
    if (a.correlation != model::kNoId)
      first_start.emplace_back(a.correlation, a.start_ns);
  }
  std::sort(first_start.begin(), first_start.end());
  CachedNamePredicate is_wait(trace, IsHostWaitApi);
  // Summed over threads: a thread can wait for another (the main thread for the autograd
  // thread in backward) without a CUDA call, so one thread's waits can be another's. Whole-trace
  // waits over-count the window's (a wait in left-out one-time work), and concurrent waits count
  // twice: both only loosen the cap, never tighten it past what the waits allow.
  HostWaitCap cap;
  cap.wall_ns = wall_ns;
  const auto& preroll = r.predictions.preroll;
  cap.gpu_busy_ns = r.timeline.busy_ns - (preroll ? preroll->gpu_ns : 0);
  model::TimeNs host_end = 0;
  for (const model::ApiCall& call : trace.api_calls) {
    host_end = std::max(host_end, call.end_ns);
    bool waits = is_wait(call.name);
    if (!waits && call.correlation != model::kNoId) {
      auto it = std::lower_bound(
          first_start.begin(),
          first_start.end(),
          std::pair<std::int64_t, model::TimeNs>{call.correlation, model::TimeNs{}});
      waits = it != first_start.end() && it->first == call.correlation &&
              it->second - call.end_ns > kDeepQueueNs;
    }
    if (waits)
      cap.waits_ns += call.duration_ns();
  }
  cap.waits_ns += std::max<std::int64_t>(0, gpu_end - host_end);
  return cap;
}

std::string CappedBoundText(const HostWaitCap& cap, std::int64_t saved_ns, bool assumed_2x) {
  double today = AmdahlLimit(std::min(0.99, Fraction(cap.waits_ns, cap.wall_ns)));
  std::string text = fmt::format(
      " It shortens only the GPU phase, and the host's timeline is the wall: the host waits for "
      "the GPU {} of the {} window ({}: synchronizations, copies and launches into a queue over "
      "1 ms deep, summed over its threads, and the GPU's drain after the host's last call), so "
      "until the idle phase is fixed the whole program is "
      "at most {:.2f}x faster{}.",
      Ms(cap.waits_ns),
      Ms(cap.wall_ns),
      Pct(Fraction(cap.waits_ns, cap.wall_ns)),
      today,
      assumed_2x ? " at any local speedup" : "");
  if (cap.gpu_busy_ns > saved_ns && saved_ns > 0)
    text += fmt::format(
        " Once the idle phase's fix keeps the GPU busy, the window falls toward the GPU's {} "
        "busy time, and this change gives {:.2f}x{} (Amdahl over it).",
        Ms(cap.gpu_busy_ns),
        static_cast<double>(cap.gpu_busy_ns) / static_cast<double>(cap.gpu_busy_ns - saved_ns),
        assumed_2x ? " at an assumed 2x" : " at most");
  return text;
}

std::int64_t SavedByBound(const report::Diagnosis& d, std::int64_t wall_ns) {
  std::optional<double> ranked = d.bound_speedup_at_2x ? d.bound_speedup_at_2x : d.bound_speedup;
  if (!ranked || !std::isfinite(*ranked) || *ranked <= 1.0)
    return 0;
  return static_cast<std::int64_t>(static_cast<double>(wall_ns) * (1.0 - 1.0 / *ranked));
}

void ApplyHostWaitCap(report::Diagnosis& d, const HostWaitCap& cap) {
  double limit = AmdahlLimit(std::min(0.99, Fraction(cap.waits_ns, cap.wall_ns)));
  if (d.bound_speedup)
    d.bound_speedup = std::min(*d.bound_speedup, limit);
  if (d.bound_speedup_at_2x)
    d.bound_speedup_at_2x = std::min(*d.bound_speedup_at_2x, limit);
  if (d.bound_speedup_modeled)
    d.bound_speedup_modeled = std::min(*d.bound_speedup_modeled, limit);
}

}  // namespace gpuperf::analysis
