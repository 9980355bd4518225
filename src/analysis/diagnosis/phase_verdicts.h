// The diagnosis per phase: for each NVTX or annotation range name that holds part of the window
// (phase:memcpy, phase:launch, "## backward ##"), what its time went to and its verdict, so that a
// window of different phases is not described by its largest one alone (the sample workload's
// allocation phase is allocation-bound beside a transfer-bound and a launch-bound phase).
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <vector>

#include "analysis/core/correlation.h"
#include "analysis/timeline/idle_attribution.h"
#include "analysis/timeline/step_windows.h"
#include "util/intervals.h"

namespace gpuperf::analysis {

// A range name is a phase from this share of the steady-state window on, and not when it spans
// nearly all of it (a range around the whole run).
inline constexpr double kPhaseVerdictMinShare = 0.05;
inline constexpr double kPhaseVerdictWholeWindow = 0.9;

// The verdicts of the window's phases: host range names (NVTX, annotations; names that differ
// only in their numbers are one phase) whose union holds kPhaseVerdictMinShare to
// kPhaseVerdictWholeWindow of `window` (the steady-state window less the one-time work), only where
// two or more qualify (one phase is the window's own diagnosis). One-time work (items named like
// the range) and step ranges are no phases. Each is measured over its union in that window.
// `attribution`: the window's idle attribution (its queued idle and the round trips after waits).
std::vector<report::PhaseVerdict> PhaseVerdicts(const model::Trace& trace,
                                                const CorrelationIndex& index,
                                                const report::Initialization& initialization,
                                                const std::vector<StepWindow>& steps,
                                                const IdleAttribution& attribution,
                                                const std::vector<util::Interval>& window);

// A phase whose GPU work runs after it (verdict runs_behind) is host time the program does not
// wait for: its predictions phase of the same name and kind gets no Amdahl limit (hta
// negative_queue's sparse_data_dist had 2.69x).
void DropRunsBehindLimits(const std::vector<report::PhaseVerdict>& verdicts,
                          std::vector<report::CriticalShare>& phases);

}  // namespace gpuperf::analysis
