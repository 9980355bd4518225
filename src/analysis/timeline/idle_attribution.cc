// AttributeIdle: the window's idle time split by cause (synchronization round trips, launch and
// other API calls, host work, queued work, one-time work left out), and what a set of waits
// caused of it; the gaps and the host work are found in idle_gaps.cc, idle_host_work.cc and
// idle_host_samples.cc.
#include "analysis/timeline/idle_attribution.h"

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
#include "analysis/timeline/idle_attribution_parts.h"
#include "analysis/timeline/step_windows.h"
#include "util/intervals.h"
#include "util/sort_runs.h"

namespace gpuperf::analysis {
namespace {

using util::Interval;

// Uncovered host time below this, in a gap a synchronization overlaps, is the launch latency of
// the next work rather than host work.
constexpr std::int64_t kHostWorkNs = 100'000;

bool SyncCall(std::string_view name) {
  std::string_view stripped = StripVersionSuffix(name);
  return IsBlockingSyncApi(stripped) || IsSyncMemcpyApi(stripped) || IsSyncMemsetApi(stripped);
}

bool LaunchCall(std::string_view name) {
  return IsLaunchApi(StripVersionSuffix(name));
}

bool HostBlocking(model::SyncKind kind) {
  return kind == model::SyncKind::kEvent || kind == model::SyncKind::kStream ||
         kind == model::SyncKind::kContext;
}

}  // namespace

IdleAttribution AttributeIdle(const model::Trace& trace,
                              const ActivityList& activities,
                              const TraceWindow& window,
                              const std::vector<std::size_t>& implicit_sync_calls,
                              const std::vector<Interval>& excluded,
                              const CorrelationIndex* index,
                              const std::vector<StepWindow>* steps) {
  IdleAttribution out;
  out.window_ns = window.length_ns();

  std::vector<Interval> busy_raw;
  busy_raw.reserve(activities.size());
  for (const model::GpuActivity* a : activities)
    busy_raw.push_back({a->start_ns, a->end_ns});
  std::vector<Interval> busy = util::MergeIntervals(std::move(busy_raw));

  std::vector<Interval> sync_raw, launch_raw, api_raw;
  CachedNamePredicate is_sync(trace, SyncCall);
  CachedNamePredicate is_launch(trace, LaunchCall);
  CachedNamePredicate is_stream_wait(trace, StreamWaitCall);
  // Launch calls also say which threads launch GPU work and when the recording's first launch
  // was (QueuedFrom, AttributeHostWork): one pass over the calls for all of it.
  std::set<std::pair<std::int64_t, std::int64_t>> launching_threads;
  std::int64_t first_launch = std::numeric_limits<std::int64_t>::max();
  for (const model::ApiCall& call : trace.api_calls) {
    Interval span{call.start_ns, call.end_ns};
    api_raw.push_back(span);
    if (is_stream_wait(call.name))
      ++out.stream_waits;
    bool launch = is_launch(call.name);
    if (launch) {
      launching_threads.insert({call.pid, call.tid});
      first_launch = std::min(first_launch, call.start_ns);
    }
    if (is_sync(call.name))
      sync_raw.push_back(span);
    else if (launch)
      launch_raw.push_back(span);
  }
  for (std::size_t i : implicit_sync_calls)
    sync_raw.push_back({trace.api_calls[i].start_ns, trace.api_calls[i].end_ns});
  for (const model::SyncEvent& s : trace.syncs) {
    if (HostBlocking(s.kind))
      sync_raw.push_back({s.start_ns, s.end_ns});
  }
  out.has_api_calls = !trace.api_calls.empty();
  std::vector<Interval> all_gaps = WindowGaps(busy, window);
  std::vector<Interval> coverage = util::MergeIntervals(CoverageWaits(sync_raw, all_gaps));
  std::vector<Interval> sync = util::MergeIntervals(std::move(sync_raw));
  std::vector<Interval> launch = util::MergeIntervals(std::move(launch_raw));
  std::vector<Interval> api = util::MergeIntervals(std::move(api_raw));
  // One-time work is not steady state: its idle time is left out of the attribution.
  std::vector<Interval> gaps = util::Subtract(all_gaps, excluded);
  out.excluded_gaps = util::Intersect(all_gaps, excluded);
  out.excluded_ns = util::TotalLength(out.excluded_gaps);
  out.unobserved_tail_ns =
      CutUnobservedTail(trace, steps ? *steps : DefaultSteps(trace), busy, out.window_ns, gaps);
  // One-time work shortens the wall only where the GPU idled: where it ran beside GPU work, that
  // work still had to run.
  out.steady_window_ns = out.window_ns - out.excluded_ns;
  out.last_busy_end = busy.empty() ? window.end_ns : busy.back().end;
  std::vector<std::int64_t> queued_from;
  if (index)
    queued_from = QueuedFrom(trace, activities, *index, gaps, first_launch);
  std::vector<Interval> host_gaps;  // gaps attributed to the host, not to a synchronization
  // The gaps are sorted and disjoint: each cover is swept once.
  util::CoverageSweep coverage_of(coverage), launch_of(launch), api_of(api), sync_of(sync);
  for (std::size_t g = 0; g < gaps.size(); ++g) {
    const Interval& gap = gaps[g];
    std::int64_t start = gap.start, end = gap.end;
    if (coverage_of.Covered(start, end) > 0) {
      ++out.coverage_gaps;
      out.coverage_gap_ns += end - start;
      continue;
    }
    // Queued from the gap's start, or for longer than a launch's latency: the few microseconds
    // between a launch call's end and its kernel's start stay part of a round trip.
    std::int64_t from = queued_from.empty() ? end : std::max(queued_from[g], start);
    bool leading = !busy.empty() && end <= busy.front().start;
    if (leading && from < end && end - from > kUnobservedLeadNs) {
      out.unobserved_lead_ns += end - from;
      end = from;
      if (end <= start)
        continue;
    }
    ++out.gaps;
    out.idle_ns += end - start;
    const bool edge = busy.empty() || end <= busy.front().start || start >= busy.back().end;
    if (edge)
      out.edge_ns += end - start;
    if (!busy.empty() && end <= busy.front().start)
      out.lead_ns += end - start;
    if (from < end && (from == start || end - from > kHostWorkNs)) {
      std::int64_t queued = end - from;
      out.queued_ns += queued;
      ++out.queued_gaps;
      out.queued_gaps_at.push_back({from, end});
      end -= queued;
      if (end <= start)
        continue;
    }
    std::int64_t length = end - start;
    std::int64_t launch_ns = launch_of.Covered(start, end);
    std::int64_t api_ns = api_of.Covered(start, end);
    if (sync_of.Covered(start, end) > 0) {
      // A drained queue costs the round trip back to the GPU; long host work after the
      // synchronization is host time that the synchronization exposed, counted as host.
      std::int64_t uncovered = length - api_ns;
      if (uncovered <= std::max(kHostWorkNs, length / 2)) {
        ++out.sync_gaps;
        out.sync_ns += length;
        if (start < out.last_busy_end)
          out.round_trip_gaps.push_back({start, end});
        continue;
      }
      ++out.sync_exposed_gaps;
    }
    out.launch_ns += launch_ns;
    out.other_api_ns += api_ns - launch_ns;
    out.host_ns += length - api_ns;
    if (edge)
      out.edge_host_gaps.push_back({start, end});
    host_gaps.push_back({start, end});
    if (start < out.last_busy_end)
      out.other_gaps.push_back({start, end});
  }
  out.steady_window_ns -= out.unobserved_lead_ns + out.unobserved_tail_ns;
  if (index && !out.queued_gaps_at.empty()) {
    out.queued_in_graphs_at =
        util::Intersect(out.queued_gaps_at, GraphSpans(trace, activities, *index, busy));
    out.queued_in_graphs_ns = util::TotalLength(out.queued_in_graphs_at);
  }
  AttributeHostWork(trace, util::Subtract(host_gaps, api), launching_threads, out);
  return out;
}

namespace {

// Indices of the gaps (sorted, disjoint) that some wait (merged, sorted) overlaps, ascending and
// unique: only those are visited, so a finding's rows cost their own waits, not every gap.
std::vector<std::size_t> TouchedGaps(const std::vector<Interval>& gaps,
                                     const std::vector<Interval>& waits) {
  std::vector<std::size_t> touched;
  std::size_t next = 0;  // the waits are sorted: the first gap that can meet one only moves on
  for (const Interval& w : waits) {
    while (next < gaps.size() && gaps[next].end <= w.start)
      ++next;
    for (std::size_t i = next; i < gaps.size() && gaps[i].start < w.end; ++i) {
      if (touched.empty() || touched.back() < i)
        touched.push_back(i);
    }
  }
  return touched;
}

}  // namespace

IdleAttribution::WaitIdle IdleAttribution::CausedSplit(std::vector<Interval> waits,
                                                       std::vector<Interval> data_waits) const {
  WaitIdle out;
  waits = util::MergeIntervals(std::move(waits));
  out.adjacent_ns = AdjacentIdle(waits, std::move(data_waits));
  // Below a microsecond the run forward measures timestamp rounding (Kineto records whole us).
  constexpr std::int64_t kMinLaterNs = 1'000;
  const std::int64_t forward = run_forward.ready() ? run_forward.Gain(waits) : 0;
  out.caused_ns = forward - out.adjacent_ns >= kMinLaterNs ? forward : out.adjacent_ns;
  return out;
}

std::int64_t IdleAttribution::AdjacentIdle(std::vector<Interval> waits,
                                           std::vector<Interval> data_waits) const {
  waits = util::MergeIntervals(std::move(waits));
  data_waits = util::MergeIntervals(std::move(data_waits));
  std::vector<Interval> all = util::MergeIntervals([&] {
    std::vector<Interval> both = waits;
    both.insert(both.end(), data_waits.begin(), data_waits.end());
    return both;
  }());
  // The waits that overlap [start, end): the first one's start and their summed length. Each
  // loop below asks in ascending order, so a cursor that only moves forward finds the first.
  std::size_t next = 0;
  auto overlap = [&](const std::vector<Interval>& list,
                     std::int64_t start,
                     std::int64_t end,
                     std::int64_t* first) {
    while (next < list.size() && list[next].end <= start)
      ++next;
    *first = next < list.size() && list[next].start < end ? list[next].start : end;
    std::int64_t sum = 0;
    for (std::size_t i = next; i < list.size() && list[i].start < end; ++i)
      sum += list[i].end - list[i].start;
    return sum;
  };
  std::int64_t caused = 0;
  std::int64_t first = 0;
  // A round trip from the first wait on: idle before the wait began was not its doing. Without
  // the waits the host work after them starts their length sooner, so the next launch comes at
  // most that much sooner: a 22 us wait followed by 540 us of host work gives back 22 us, not the
  // 561 us round trip (with the host's work after it unchanged, a round trip shorter than the
  // wait is all the wait's doing).
  for (std::size_t i : TouchedGaps(round_trip_gaps, all)) {
    const Interval& g = round_trip_gaps[i];
    std::int64_t length = overlap(all, g.start, g.end, &first);
    caused += std::min(length, g.end - std::max(g.start, first));
  }
  next = 0;
  for (std::size_t i : TouchedGaps(other_gaps, all)) {
    const Interval& g = other_gaps[i];
    // A wait delays the host work after it by its length, so it is credited up to that, but
    // never the idle before it began: a copy that ends a long data-loader gap did not cause the
    // gap (resnet: 340 ms credited to pageable copies that overlap 10.6 ms of idle).
    std::int64_t credit = overlap(waits, g.start, g.end, &first);
    credit = std::min(credit, g.end - std::max(g.start, first));
    credit += util::CoveredLength(data_waits, g.start, g.end);
    caused += std::min(g.end - g.start, credit);
  }
  // Across the stretches too: the waits move the host's work by their length at most.
  return std::min(caused, util::TotalLength(all));
}

std::int64_t IdleAttribution::QueuedDuring(std::vector<Interval> waits) const {
  return util::TotalLength(util::Intersect(queued_gaps_at, util::MergeIntervals(std::move(waits))));
}

void AttachRunForward(const model::Trace& trace,
                      const std::vector<Interval>& host_waits,
                      IdleAttribution& idle) {
  std::vector<Interval> paced = idle.round_trip_gaps;
  paced.insert(paced.end(), idle.other_gaps.begin(), idle.other_gaps.end());
  // The steady-state window's end: the host's or the GPU's last work, less the unobserved tail.
  const std::int64_t end = ComputeTraceWindow(trace).end_ns - idle.unobserved_tail_ns;
  idle.run_forward = RunForward(host_waits,
                                util::MergeIntervals(std::move(paced)),
                                end,
                                std::min(end, idle.last_busy_end),
                                idle.loader_waits);
}

std::vector<std::size_t> ImplicitSyncCalls(const model::Trace& trace,
                                           const CorrelationIndex& index) {
  std::vector<std::size_t> out;
  CachedNamePredicate is_async(
      trace, [](std::string_view name) { return IsAsyncMemcpyApi(StripVersionSuffix(name)); });
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind != model::ActivityKind::kMemcpy)
      continue;
    if (a.src_kind != model::MemoryKind::kPageable && a.dst_kind != model::MemoryKind::kPageable)
      continue;
    if (std::int64_t call = index.PrimaryCall(a.correlation, a.pid);
        call >= 0 && is_async(trace.api_calls[static_cast<std::size_t>(call)].name))
      out.push_back(static_cast<std::size_t>(call));
  }
  return out;
}

}  // namespace gpuperf::analysis
