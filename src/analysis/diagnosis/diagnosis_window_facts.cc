// Facts of the whole window that go with the statement ranked first: its dominant phase (and
// whether the host was blocked in it), and the launch queue read against the idle time. Part of
// the diagnosis (diagnosis.cc).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <string_view>

#include "analysis/core/names.h"
#include "analysis/diagnosis/diagnosis.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/diagnosis/input_check.h"
#include "analysis/findings/findings.h"
#include "analysis/kernel/cache_reuse.h"
#include "analysis/kernel/kernel_class.h"
#include "analysis/kernel/readable_name.h"
#include "analysis/predictions/amdahl.h"
#include "analysis/predictions/preroll.h"
#include "analysis/timeline/critical_time.h"
#include "model/ceilings.h"
#include "util/intervals.h"
#include "util/units_format.h"

namespace gpuperf::analysis {

namespace {

// A phase dominates only from kPhaseMinShare of the window on, and never as a range around
// (nearly) all of it (a root range such as the whole run or one step says nothing).
constexpr double kPhaseMinShare = 0.3;
constexpr double kPhaseWholeWindow = 0.9;

// The host time of the host ranges named `name` spent blocked in calls that wait for the GPU:
// synchronizations, synchronous copies and memsets, and async copy calls of at least 1 ms (the
// runtime staged them through pageable memory, an implicit synchronization).
std::int64_t PhaseBlockedNs(const model::Trace& trace, std::string_view name) {
  std::vector<util::Interval> phase, waits;
  for (const model::Range& range : trace.ranges) {
    if (range.device == model::kNoId && trace.Name(range.name) == name)
      phase.push_back({range.start_ns, range.end_ns});
  }
  if (phase.empty())
    return 0;
  CachedNamePredicate is_wait(trace, IsHostWaitApi);
  CachedNamePredicate is_async(
      trace, [](std::string_view n) { return IsAsyncMemcpyApi(StripVersionSuffix(n)); });
  for (const model::ApiCall& c : trace.api_calls) {
    if (!is_wait(c.name) || (is_async(c.name) && c.duration_ns() < 1'000'000))
      continue;
    waits.push_back({c.start_ns, c.end_ns});
  }
  return util::TotalLength(util::Intersect(util::MergeIntervals(std::move(phase)),
                                           util::MergeIntervals(std::move(waits))));
}

}  // namespace

void AddPhase(report::Diagnosis& d, const model::Trace& trace, const report::AnalysisReport& r) {
  const report::CriticalShare* best = nullptr;
  for (const report::CriticalShare& p : r.predictions.phases) {
    if (p.fraction < kPhaseMinShare || p.fraction >= kPhaseWholeWindow)
      continue;
    // One-time work (MPI_Init, a compile range) is left out of the steady state: never its phase.
    if (std::any_of(r.initialization.items.begin(),
                    r.initialization.items.end(),
                    [&](const report::InitializationItem& item) { return item.name == p.name; }))
      continue;
    if (!best || p.fraction > best->fraction)
      best = &p;
  }
  if (!best)
    return;
  // A phase long because its host waits for the GPU is not where the time goes: say so.
  std::int64_t blocked = PhaseBlockedNs(trace, best->name);
  std::string waiting =
      blocked >= best->critical_ns - blocked  // half, without overflow
          ? fmt::format(
                "; {} of it the host was blocked in calls waiting for the GPU "
                "(synchronizations, copies), so the phase is long because the GPU is "
                "behind, not because of its own host work",
                Ms(blocked))
          : std::string();
  d.support.push_back(
      fmt::format("Dominant phase: {} ({} range), {} of the trace window{} (trace).",
                  best->name,
                  best->kind,
                  Pct(best->fraction),
                  waiting));
}

// A deep queue with a GPU that idles while its next work is queued is not GPU-bound: the queued
// work waits on something other than the host (another stream, a collective, another rank).
// Idle with nothing queued (before the first launch, host phases) says nothing about the queue.
void QueueAgainstIdle(report::Diagnosis& d, double queued_idle_share) {
  if (!d.queue || d.queue->verdict != "gpu_bound" || queued_idle_share < kDominantShare)
    return;
  d.queue->verdict = "gpu_waits";
  d.queue->sentence = fmt::format(
      "Queued but idle: the host runs {} ahead of the GPU (median launch-queue depth; p90 {}; {} "
      "launch calls, trace), yet the GPU idles {} of the steady-state window with its next "
      "work already queued: that work waits on something other than the host (an event on "
      "another stream, a collective, another rank).",
      Ms(d.queue->median_ns),
      Ms(d.queue->p90_ns),
      d.queue->launches,
      Pct(queued_idle_share));
}

// A window whose idle time is the host's (host-, launch- or sync-bound) while its launch queue
// runs deep when it launches has two phases: say so, instead of "GPU-bound" beside "host-bound".
void QueueAgainstHostPhases(report::Diagnosis& d, const IdleAttribution& idle) {
  if (!d.queue || d.queue->verdict != "gpu_bound" || d.dominant_kind != "idle" ||
      d.bottleneck == "dependency_bound")
    return;
  d.queue->sentence = fmt::format(
      "Host-bound between its GPU phases, GPU-bound within them: while it launches, the host "
      "runs {} ahead of the GPU (median launch-queue depth, kernel start - launch-call end; p90 "
      "{}; {} launch calls, trace), and the idle time lies where nothing was launched ({} of it "
      "before the first or after the last GPU activity).",
      Ms(d.queue->median_ns),
      Ms(d.queue->p90_ns),
      d.queue->launches,
      Ms(idle.edge_ns));
}

}  // namespace gpuperf::analysis
