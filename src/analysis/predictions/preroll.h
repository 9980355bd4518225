// GPU work from before the recording (docs/metrics.md, "Diagnosis", "Pre-roll"): a trace that
// starts mid-run opens with the GPU still running work launched before the profiler began (the
// previous step's tail: kernels with no launch call in the trace, orphans). That work belongs to
// an iteration the trace did not record; counted in the measured window it makes one step look
// like 1.4 and shrinks every share. The stretch from the window's start until that work ends
// (at the latest the first launch call in the trace) is left out of the steady-state window.
// Queued work runs back to back: the tail is the run of orphans from the window's start with no
// idle gap over kPreRollGapNs; an orphan after a longer gap was launched by a call the trace lost,
// not queued before the recording, and stays in the window.
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "analysis/core/correlation.h"
#include "analysis/timeline/critical_time.h"
#include "analysis/timeline/step_windows.h"

namespace gpuperf::analysis {

// The longest GPU idle inside a tail of queued work (launch and dependency latencies are a few
// microseconds), and the shortest pre-roll worth leaving out: under 1% of the window it changes
// no share the report prints.
inline constexpr std::int64_t kPreRollGapNs = 100'000;
inline constexpr double kPreRollMinShare = 0.01;

struct PreRoll {
  // A warm-up step (FindStepLead): every activity that starts in it is left out, not orphans
  // alone.
  std::string warmup_step;
  std::int64_t warmup_steps = 0;         // leading outliers left out (LeadingOutliers)
  std::int64_t warmup_step_wall_ns = 0;  // their walls together
  std::int64_t other_steps_median_ns = 0;
  // Start-up before the first marked step (FindStepLead): the window's start to that step's
  // start, when it is at least kPreRollMinShare of the window; every activity that starts in the
  // left-out part is left out with it, as for a warm-up step.
  std::int64_t lead_in_ns = 0;
  std::string first_step;  // the first step's name, with lead_in_ns
  // Of lead_in_ns: the longest stretch the trace records nothing in, from the window's start
  // (report::PreRollSummary).
  std::int64_t lead_in_unrecorded_ns = 0;
  std::int64_t lead_in_unrecorded_start_ns = 0;
  std::int64_t start_ns = 0;    // the recorded window's start
  std::int64_t end_ns = 0;      // == start_ns when there is none
  std::int64_t activities = 0;  // orphan GPU activities that start before end_ns
  std::int64_t gpu_ns = 0;      // their busy union inside [start_ns, end_ns)
  // report::PreRollSummary::category_ns and memcpy_ns
  std::map<report::FrameworkCategory, std::int64_t> category_ns;
  std::optional<std::int64_t> memcpy_ns;
  // Adds `ns` of activity `a` to its category: a kernel's by its name, memsets kMemset, copies
  // to memcpy_ns.
  void AddCategoryTime(const model::Trace& trace, const model::GpuActivity& a, std::int64_t ns);
  std::int64_t length_ns() const { return end_ns - start_ns; }
  bool empty() const { return end_ns <= start_ns; }
  // Whether activity `a` is pre-roll work: an orphan that starts before end_ns.
  bool Holds(const model::GpuActivity& a, const CorrelationIndex& index) const;
  // What report.json says of it (predictions.preroll); nullopt when empty.
  std::optional<report::PreRollSummary> Summary() const;
};

// The pre-roll of the window: from its start to the end of the run of orphan GPU work (gaps of at
// most kPreRollGapNs, the first from the window's start) that starts before the first launch call
// of any recorded GPU work, capped at that call's start. Empty without launch calls (an Nsight
// Compute CSV, a trace of orphans only), without such a run, or under kPreRollMinShare.
PreRoll FindPreRoll(const model::Trace& trace,
                    const CorrelationIndex& index,
                    const TraceWindow& window);

// The window's lead up to its first steady step, from the window's steps (`steps`,
// FindWindowSteps: --step-range, else ProfilerStep, else optimizer steps):
// - up to the second step when the first of three or more is a warm-up outlier (FirstIsOutlier
//   on their walls): its GPU work warms caches, allocators and autotuners, and counted in the
//   window it stretches every share (k2021: 182 ms against a median 127 ms);
// - else, with two or more marked steps (not optimizer steps, whose first iteration's forward
//   lies before the first call), up to the first step when it starts at least kPreRollMinShare
//   into the window: a whole-process recording holds the start-up before the loop (the H200 MLP:
//   4.75 s of Python, model construction and library loading before its first step).
// Empty otherwise.
PreRoll FindStepLead(const model::Trace& trace,
                     const TraceWindow& window,
                     const WindowSteps& steps);

// What is left out, as the texts name it: "the pre-roll", "the warm-up step", "the start-up
// before the first step" or "the start-up and the warm-up step" (each starts with "the ").
std::string_view PreRollName(const report::PreRollSummary& p);
// Whether it is the orphan tail from before the recording (FindPreRoll), not steps' lead.
bool IsOrphanPreRoll(const report::PreRollSummary& p);
// What it holds, for the texts: the orphan tail from before the recording, or the warm-up step
// with its wall against the other steps' median.
std::string PreRollWhat(const report::PreRollSummary& p);

}  // namespace gpuperf::analysis
