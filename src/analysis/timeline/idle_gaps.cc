// The idle gaps of the window and what bounds them: when the next GPU work was queued, graph
// launches' spans, waits for work the trace does not record, and the unobserved tail after the
// last step; with RecordedHostWork, everything the host is recorded doing. Part of AttributeIdle
// (idle_attribution.cc).
#include <algorithm>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "analysis/core/names.h"
#include "analysis/timeline/idle_attribution.h"
#include "analysis/timeline/idle_attribution_parts.h"
#include "analysis/timeline/step_windows.h"
#include "util/intervals.h"
#include "util/sort_runs.h"

namespace gpuperf::analysis {
namespace {

using util::Interval;

}  // namespace

// Waits of at least kCoverageWaitNs that lie inside one gap: the GPU ran nothing while the host
// waited, so it waited for work the trace does not hold.
std::vector<Interval> CoverageWaits(const std::vector<Interval>& waits,
                                    const std::vector<Interval>& gaps) {
  std::vector<Interval> out;
  for (const Interval& w : waits) {
    if (w.end - w.start < kCoverageWaitNs)
      continue;
    auto it =
        std::upper_bound(gaps.begin(), gaps.end(), w.start, [](std::int64_t t, const Interval& g) {
          return t < g.end;
        });
    if (it != gaps.end() && it->start <= w.start && w.end <= it->end)
      out.push_back(w);
  }
  return out;
}

// For each gap, from when GPU work was queued: the earliest end of a launch call whose work
// started at or after the gap's end; INT64_MAX when none (nothing after the gap). Orphan work (no
// launch call in the trace) that starts before the trace's first launch call was launched before
// the recording began (a previous step's tail): queued from the start; a later orphan's launch is
// unknown and queues nothing. A suffix minimum over the activities by start.
std::vector<std::int64_t> QueuedFrom(const model::Trace& trace,
                                     const ActivityList& activities,
                                     const CorrelationIndex& index,
                                     const std::vector<Interval>& gaps,
                                     std::int64_t first_launch) {
  constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t kBeforeRecording = std::numeric_limits<std::int64_t>::min();
  std::vector<std::pair<std::int64_t, std::int64_t>> by_start;  // (start, launch-call end)
  by_start.reserve(activities.size());
  for (const model::GpuActivity* a : activities) {
    std::int64_t call = index.PrimaryCall(a->correlation, a->pid);
    std::int64_t queued = call >= 0 ? trace.api_calls[static_cast<std::size_t>(call)].end_ns
                          : a->start_ns < first_launch ? kBeforeRecording
                                                       : kNever;
    by_start.emplace_back(a->start_ns, queued);
  }
  util::SortRuns(by_start.begin(), by_start.end(), [](const auto& x, const auto& y) {
    return x.first < y.first;
  });
  std::vector<std::int64_t> suffix_min(by_start.size() + 1, kNever);
  for (std::size_t i = by_start.size(); i-- > 0;)
    suffix_min[i] = std::min(suffix_min[i + 1], by_start[i].second);
  std::vector<std::int64_t> out;
  out.reserve(gaps.size());
  for (const Interval& gap : gaps) {
    auto it = std::lower_bound(
        by_start.begin(), by_start.end(), gap.end, [](const auto& x, std::int64_t t) {
          return x.first < t;
        });
    out.push_back(suffix_min[static_cast<std::size_t>(it - by_start.begin())]);
  }
  return out;
}

// The span of each graph launch: its nodes' first start to last end, and before that the idle
// stretch that ends at its first node when the graph was already launched (it waited to start),
// merged. `busy` is the merged GPU work.
std::vector<Interval> GraphSpans(const model::Trace& trace,
                                 const ActivityList& activities,
                                 const CorrelationIndex& index,
                                 const std::vector<Interval>& busy) {
  CachedNamePredicate is_graph(trace, IsGraphLaunchApi);
  std::unordered_map<std::int64_t, Interval> by_call;
  for (const model::GpuActivity* a : activities) {
    std::int64_t call = index.PrimaryCall(a->correlation, a->pid);
    if (call < 0 || !is_graph(trace.api_calls[static_cast<std::size_t>(call)].name))
      continue;
    auto [it, fresh] = by_call.try_emplace(call, Interval{a->start_ns, a->end_ns});
    if (!fresh) {
      it->second.start = std::min(it->second.start, a->start_ns);
      it->second.end = std::max(it->second.end, a->end_ns);
    }
  }
  std::vector<Interval> spans;
  spans.reserve(by_call.size());
  for (auto [call, span] : by_call) {
    // The last GPU work that ended before the first node: the idle stretch after it is the
    // graph's wait when the graph had been launched by then.
    auto after = std::upper_bound(
        busy.begin(), busy.end(), span.start, [](std::int64_t t, const Interval& b) {
          return t < b.end;
        });
    std::int64_t launched = trace.api_calls[static_cast<std::size_t>(call)].end_ns;
    if (after != busy.begin()) {
      std::int64_t idle_from = std::prev(after)->end;
      if (idle_from < span.start)
        span.start = std::max(idle_from, std::min(launched, span.start));
    }
    spans.push_back(span);
  }
  return util::MergeIntervals(std::move(spans));
}

bool StreamWaitCall(std::string_view name) {
  name = StripVersionSuffix(name);
  return name.starts_with("cudaStreamWaitEvent") || name.starts_with("cuStreamWaitEvent") ||
         name.starts_with("hipStreamWaitEvent");
}

// Everything the host is recorded doing inside `within`: API calls, framework ops, host ranges
// (except those longer than `enclosing`, which wrap the whole run and say nothing), Python frames
// and OS runtime calls, merged and clipped.
std::vector<Interval> RecordedHostWork(const model::Trace& trace,
                                       Interval within,
                                       std::int64_t enclosing) {
  std::vector<Interval> raw;
  auto add = [&](std::int64_t start, std::int64_t end) {
    start = std::max(start, within.start);
    end = std::min(end, within.end);
    if (start < end)
      raw.push_back({start, end});
  };
  for (const model::ApiCall& c : trace.api_calls)
    add(c.start_ns, c.end_ns);
  for (const model::HostOp& op : trace.host_ops)
    add(op.start_ns, op.end_ns);
  for (const model::Range& r : trace.ranges) {
    if (r.device == model::kNoId && r.end_ns - r.start_ns <= enclosing)
      add(r.start_ns, r.end_ns);
  }
  for (const model::PythonFrame& f : trace.python_frames)
    add(f.start_ns, f.end_ns);
  for (const model::OsCall& call : trace.os_calls)
    add(call.start_ns, call.end_ns);
  return util::MergeIntervals(std::move(raw));
}

namespace {

// The end of the last step when the trace records at least two (the window's steps); nullopt
// otherwise.
std::optional<std::int64_t> LastStepEnd(const std::vector<StepWindow>& steps) {
  if (steps.size() < 2)
    return std::nullopt;
  std::int64_t end = 0;
  for (const StepWindow& step : steps)
    end = std::max(end, step.end_ns);
  return end;
}

// After the last GPU activity nothing later waits for the GPU. In a trace of repeated steps, the
// stretches of the trailing gap after the last step where the trace records nothing at all
// (resnet: 1.65 s between its last kernel and the profiler's closing synchronization) are outside
// the measured steps. Their total, when over kUnobservedLeadNs, leaves the gaps (the recorded
// pieces stay); 0 otherwise. Without steps (a single-shot program) an unrecorded tail may be the
// program's own host work after its GPU work (post-processing, writing results): it stays idle.
}  // namespace

std::int64_t CutUnobservedTail(const model::Trace& trace,
                               const std::vector<StepWindow>& steps,
                               const std::vector<Interval>& busy,
                               std::int64_t window_ns,
                               std::vector<Interval>& gaps) {
  if (busy.empty() || gaps.empty() || gaps.back().start < busy.back().end)
    return 0;
  std::optional<std::int64_t> last_step_end = LastStepEnd(steps);
  if (!last_step_end)
    return 0;
  Interval tail = gaps.back();
  tail.start = std::max(tail.start, *last_step_end);
  if (tail.end - tail.start <= kUnobservedLeadNs)
    return 0;
  std::vector<Interval> recorded = RecordedHostWork(trace, tail, window_ns / 2);
  std::int64_t unobserved = tail.end - tail.start - util::TotalLength(recorded);
  if (unobserved <= kUnobservedLeadNs)
    return 0;
  Interval before_tail{gaps.back().start, tail.start};  // inside the last step: stays idle
  gaps.pop_back();
  if (before_tail.end > before_tail.start)
    gaps.push_back(before_tail);
  gaps.insert(gaps.end(), recorded.begin(), recorded.end());
  return unobserved;
}

std::vector<Interval> WindowGaps(const std::vector<Interval>& busy, const TraceWindow& window) {
  std::vector<Interval> gaps;
  std::int64_t previous_end = window.start_ns;
  for (const Interval& b : busy) {
    if (b.start > previous_end)
      gaps.push_back({previous_end, b.start});
    previous_end = std::max(previous_end, b.end);
  }
  if (window.end_ns > previous_end)
    gaps.push_back({previous_end, window.end_ns});
  return gaps;
}

}  // namespace gpuperf::analysis
