// Parts of the idle attribution shared by its files: AttributeIdle (idle_attribution.cc) cuts
// the window into gaps and queued stretches (idle_gaps.cc) and names the host work in them
// (idle_host_work.cc, idle_host_samples.cc). Internal to src/analysis/timeline.
#pragma once

#include "gpuperf/trace.h"

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/core/correlation.h"
#include "analysis/timeline/critical_time.h"
#include "analysis/timeline/idle_attribution.h"
#include "analysis/timeline/step_windows.h"
#include "analysis/timeline/timeline.h"
#include "util/intervals.h"

namespace gpuperf::analysis {

// A first GPU activity that starts this long after its work was launched, with nothing recorded
// before it, is not launch latency (microseconds) but unrecorded work or a clock offset.
inline constexpr std::int64_t kUnobservedLeadNs = 1'000'000;

// The host work in the idle, the names that cover most, Python self time and MPI waits
// (idle_host_work.cc).
void AttributeHostWork(const model::Trace& trace,
                       const std::vector<util::Interval>& host_idle,
                       const std::set<std::pair<std::int64_t, std::int64_t>>& launching_threads,
                       IdleAttribution& out);
// Whether (pid, tid) launches GPU work (every thread when none does) (idle_host_work.cc).
bool OnLaunchingThread(const std::set<std::pair<std::int64_t, std::int64_t>>& launching_threads,
                       std::int64_t pid,
                       std::int64_t tid);
// The names with the most time, at most kTopHostWork of them (idle_host_work.cc).
std::vector<std::pair<std::string, std::int64_t>> TopNames(
    const model::Trace& trace, const std::unordered_map<model::NameId, std::int64_t>& by_name);
// CPU samples of the launching threads in the idle no record explains (idle_host_samples.cc).
void AttributeSamples(const model::Trace& trace,
                      const std::vector<util::Interval>& unexplained,
                      const std::set<std::pair<std::int64_t, std::int64_t>>& launching_threads,
                      IdleAttribution& out);

// The window's gaps, what was queued in them, the graphs' spans and waits for unrecorded work
// (idle_gaps.cc).
std::vector<util::Interval> WindowGaps(const std::vector<util::Interval>& busy,
                                       const TraceWindow& window);
std::int64_t CutUnobservedTail(const model::Trace& trace,
                               const std::vector<StepWindow>& steps,
                               const std::vector<util::Interval>& busy,
                               std::int64_t window_ns,
                               std::vector<util::Interval>& gaps);
std::vector<util::Interval> CoverageWaits(const std::vector<util::Interval>& waits,
                                          const std::vector<util::Interval>& gaps);
std::vector<std::int64_t> QueuedFrom(const model::Trace& trace,
                                     const ActivityList& activities,
                                     const CorrelationIndex& index,
                                     const std::vector<util::Interval>& gaps,
                                     std::int64_t first_launch);
std::vector<util::Interval> GraphSpans(const model::Trace& trace,
                                       const ActivityList& activities,
                                       const CorrelationIndex& index,
                                       const std::vector<util::Interval>& busy);
// cudaStreamWaitEvent-style calls: cross-stream dependencies (idle_gaps.cc).
bool StreamWaitCall(std::string_view name);

}  // namespace gpuperf::analysis
