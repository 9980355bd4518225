// Facts of the whole window that go with the statement ranked first: its dominant phase (and
// whether the host was blocked in it), and the launch queue read against the idle time. Part of
// the diagnosis (diagnosis.cc).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <string_view>
#include <unordered_map>

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
#include "analysis/timeline/launch_overhead.h"
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
// runtime staged them through pageable memory, an implicit synchronization); and of it, the time
// copy calls spend while their own transfer runs, waiting for it rather than for GPU work behind.
struct PhaseBlocked {
  std::int64_t total_ns = 0;
  std::int64_t copies_ns = 0;
};

PhaseBlocked PhaseBlockedNs(const model::Trace& trace, std::string_view name) {
  std::vector<util::Interval> phase, waits, copies;
  for (const model::Range& range : trace.ranges) {
    if (range.device == model::kNoId && trace.Name(range.name) == name)
      phase.push_back({range.start_ns, range.end_ns});
  }
  if (phase.empty())
    return {};
  CachedNamePredicate is_wait(trace, IsHostWaitApi);
  CachedNamePredicate is_async(
      trace, [](std::string_view n) { return IsAsyncMemcpyApi(StripVersionSuffix(n)); });
  CachedNamePredicate is_copy(
      trace, [](std::string_view n) { return IsSyncMemcpyApi(StripVersionSuffix(n)); });
  // A copy call waits for its own transfer only while that copy runs on the GPU: a small copy
  // behind a deep queue waits for the work ahead of it (hta negative_queue: 704 B, 146 ms).
  std::unordered_map<std::int64_t, util::Interval> transfer;  // by correlation
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind == model::ActivityKind::kMemcpy && a.correlation != model::kNoId)
      transfer[a.correlation] = {a.start_ns, a.end_ns};
  }
  for (const model::ApiCall& c : trace.api_calls) {
    if (!is_wait(c.name) || (is_async(c.name) && c.duration_ns() < 1'000'000))
      continue;
    waits.push_back({c.start_ns, c.end_ns});
    if (!is_async(c.name) && !is_copy(c.name))
      continue;
    if (auto it = transfer.find(c.correlation); it != transfer.end()) {
      std::int64_t start = std::max(c.start_ns, it->second.start);
      std::int64_t end = std::min(c.end_ns, it->second.end);
      if (end > start)
        copies.push_back({start, end});
    }
  }
  const std::vector<util::Interval> merged = util::MergeIntervals(std::move(phase));
  return {util::TotalLength(util::Intersect(merged, util::MergeIntervals(std::move(waits)))),
          util::TotalLength(util::Intersect(merged, util::MergeIntervals(std::move(copies))))};
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
  const PhaseBlocked blocked = PhaseBlockedNs(trace, best->name);
  std::string waiting;
  if (blocked.total_ns >= best->critical_ns - blocked.total_ns) {  // half, without overflow
    // Blocked in its own copies (synchronous, or staged through pageable memory), the host waits
    // for those transfers, not for GPU work running behind (review 40, sample's phase:memcpy).
    waiting = 2 * blocked.copies_ns >= blocked.total_ns
                  ? fmt::format(
                        "; {} of it the host was blocked in calls that wait for the GPU, "
                        "{} of that while its own copies ran (synchronous, or staged through "
                        "pageable memory), so its copies, more than its own host work, make it "
                        "long",
                        Ms(blocked.total_ns),
                        Ms(blocked.copies_ns))
                  : fmt::format(
                        "; {} of it the host was blocked in calls waiting for the GPU "
                        "(synchronizations, copies), so the phase is long because the "
                        "GPU is behind, not because of its own host work",
                        Ms(blocked.total_ns));
  }
  d.support.push_back(
      fmt::format("Dominant phase: {} ({} range), {} of the steady-state window{} (trace).",
                  best->name,
                  ToString(best->kind),
                  Pct(best->fraction),
                  waiting));
}

// A deep queue with a GPU that idles while its next work is queued is not GPU-bound: the queued
// work waits on something other than the host (another stream, a collective, another rank).
// Idle with nothing queued (before the first launch, host phases) says nothing about the queue.
void QueueAgainstIdle(report::Diagnosis& d, double queued_idle_share) {
  if (!d.queue || d.queue->verdict != report::QueueVerdict::kGpuBound ||
      queued_idle_share < kDominantShare)
    return;
  d.queue->verdict = report::QueueVerdict::kGpuWaits;
  d.queue->queued_idle_share = queued_idle_share;
}

// A window whose idle time is the host's (host-, launch- or sync-bound) while its launch queue
// runs deep when it launches has two phases: say so, instead of "GPU-bound" beside "host-bound".
void QueueAgainstHostPhases(report::Diagnosis& d, const IdleAttribution& idle) {
  if (!d.queue || d.queue->verdict != report::QueueVerdict::kGpuBound ||
      d.dominant_kind != report::DominantKind::kIdle ||
      d.bottleneck == report::Bottleneck::kDependencyBound)
    return;
  d.queue->between_phases_idle_ns = idle.edge_ns;
}

namespace {

// Launches blocked in a deep queue matter to the sentence from this share of the window on.
constexpr double kMaterialBlockedShare = 0.01;

// Launches blocked on a full queue: the host runs ahead only as far as the queue holds, then
// waits for the GPU inside its launches (an HTA trace of a V100: host steps of 35 ms, then of the
// GPU's 95 ms, every blocked launch returning 5.5 us after an operation ended, with 1021 queued).
std::string BlockedLaunchClause(const report::LaunchQueue& q, std::int64_t window_ns) {
  if (q.blocked_launches == 0 ||
      (!q.queue_full && Fraction(q.blocked_ns, window_ns) < kMaterialBlockedShare))
    return "";
  if (q.queue_full)
    return fmt::format(
        " The launch queue fills: {} launch call{} blocked, {} beyond an unblocked launch in "
        "all; they return a median {} after a GPU operation ends{}, with {} GPU operations "
        "queued (launched, not started; median): each waited for a slot to free, so the host "
        "waits for the GPU inside them as in a synchronization.",
        q.blocked_launches,
        q.blocked_launches == 1 ? "" : "s",
        Ms(q.blocked_ns),
        Ms(q.blocked_return_gap_ns),
        q.unblocked_return_gap_ns > 0
            ? fmt::format(" ({} for the launches into a deep queue that did not block)",
                          Ms(q.unblocked_return_gap_ns))
            : std::string(),
        q.queued_at_blocked_return);
  return fmt::format(
      " {} launch call{} into a deep queue took over {} times an unblocked launch, {} beyond it "
      "in all ({} GPU operations queued at their return, median): counted as waits for the GPU.",
      q.blocked_launches,
      q.blocked_launches == 1 ? "" : "s",
      kBlockedFactor,
      Ms(q.blocked_ns),
      q.queued_at_blocked_return);
}

// A queue depth: under a microsecond is the resolution of many traces (Kineto's whole-microsecond
// timestamps: linear's median "0 ns" from 2483 zeros and 3059 negative differences of 8716).
std::string Depth(std::int64_t ns) {
  return ns < 1'000 ? std::string("under 1 µs") : Ms(ns);
}

std::string QueueVerdictSentence(const report::LaunchQueue& q) {
  switch (q.verdict) {
    case report::QueueVerdict::kUndetermined: {
      std::vector<std::string> why;
      if (q.too_few_launches)
        why.push_back(fmt::format("{} launch calls are too few for a verdict (at least {})",
                                  q.launches,
                                  kMinQueueLaunches));
      if (q.slow_launch_calls)
        why.push_back(
            fmt::format("{} of {} kernels started before their launch call returned, so the "
                        "calls themselves were slow (module loading, a blocking launch) and "
                        "their end is no queue entry",
                        q.started_early,
                        q.launches));
      if (q.host_drains_queue)
        why.push_back(
            fmt::format("the host waits for the GPU {} time{} for {} launch calls (synchronize "
                        "calls, synchronous copies), so the program drains the queue itself",
                        q.host_syncs,
                        q.host_syncs == 1 ? "" : "s",
                        q.launches));
      std::string text;
      for (const std::string& part : why)
        text += (text.empty() ? "" : "; ") + part;
      return fmt::format(
          "The launch queue gives no verdict on GPU- versus host-bound: {} (depth, kernel start "
          "- launch-call end: median {}, p90 {}; trace).",
          text,
          Depth(q.median_ns),
          Depth(q.p90_ns));
    }
    case report::QueueVerdict::kGpuWaits:
      return fmt::format(
          "Queued but idle: the host runs {} ahead of the GPU (median launch-queue depth; p90 {}; "
          "{} launch calls, trace), yet the GPU idles {} of the steady-state window with its next "
          "work already queued: that work waits on something other than the host (an event on "
          "another stream, a collective, another rank).",
          Depth(q.median_ns),
          Depth(q.p90_ns),
          q.launches,
          Pct(q.queued_idle_share));
    case report::QueueVerdict::kGpuBound:
      if (q.between_phases_idle_ns)
        return fmt::format(
            "Host-bound between its GPU phases, GPU-bound within them: while it launches, the "
            "host runs {} ahead of the GPU (median launch-queue depth, kernel start - launch-call "
            "end; p90 {}; {} launch calls, trace), and the idle time lies where nothing was "
            "launched ({} of it before the first or after the last GPU activity).",
            Depth(q.median_ns),
            Depth(q.p90_ns),
            q.launches,
            Ms(*q.between_phases_idle_ns));
      return fmt::format(
          "GPU-bound while it launches: the host runs {} ahead of the GPU (median launch-queue "
          "depth, kernel start - launch-call end; p90 {}; {} launch calls, trace).",
          Depth(q.median_ns),
          Depth(q.p90_ns),
          q.launches);
    case report::QueueVerdict::kHostBound:
      break;
  }
  return fmt::format(
      "Host-bound: kernels start a median {} after their launch call returns (p90 {}; {} launch "
      "calls, trace): the GPU waits for the host.",
      Depth(q.median_ns),
      Depth(q.p90_ns),
      q.launches);
}

}  // namespace

std::string QueueSentence(const report::LaunchQueue& q, std::int64_t window_ns) {
  return QueueVerdictSentence(q) + BlockedLaunchClause(q, window_ns);
}

}  // namespace gpuperf::analysis
