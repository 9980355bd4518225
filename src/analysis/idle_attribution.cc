#include "analysis/idle_attribution.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/names.h"
#include "util/intervals.h"

namespace gpuperf::analysis {
namespace {

using util::Interval;

// Uncovered host time below this, in a gap a synchronization overlaps, is the launch latency of
// the next work rather than host work.
constexpr std::int64_t kHostWorkNs = 100'000;
constexpr std::size_t kTopHostWork = 3;

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

// What the host was running in `host_idle` (GPU idle, no CUDA call, not a synchronization's
// round trip): host ops (framework operators) and host ranges (NVTX, record_function), except
// those longer than half the window, which enclose everything and say nothing.
void AttributeHostWork(const model::Trace& trace,
                       const std::vector<Interval>& host_idle,
                       IdleAttribution& out) {
  std::int64_t enclosing = out.window_ns / 2;
  std::vector<Interval> work_raw;
  std::unordered_map<model::NameId, std::int64_t> by_name;
  auto add = [&](model::NameId name, std::int64_t start, std::int64_t end) {
    if (end - start > enclosing)
      return;
    work_raw.push_back({start, end});
    if (std::int64_t covered = util::CoveredLength(host_idle, start, end); covered > 0)
      by_name[name] += covered;
  };
  for (const model::HostOp& op : trace.host_ops)
    add(op.name, op.start_ns, op.end_ns);
  for (const model::Range& r : trace.ranges) {
    if (r.kind == model::RangeKind::kNvtx || r.kind == model::RangeKind::kUserAnnotation) {
      if (r.device == model::kNoId)
        add(r.name, r.start_ns, r.end_ns);
    }
  }
  out.has_host_work_records = !work_raw.empty();
  out.host_work_ns =
      util::TotalLength(util::Intersect(host_idle, util::MergeIntervals(std::move(work_raw))));
  std::vector<std::pair<model::NameId, std::int64_t>> top(by_name.begin(), by_name.end());
  std::sort(top.begin(), top.end(), [&](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : trace.Name(a.first) < trace.Name(b.first);
  });
  for (std::size_t i = 0; i < top.size() && i < kTopHostWork; ++i)
    out.top_host_work.emplace_back(std::string(trace.Name(top[i].first)), top[i].second);
}

}  // namespace

IdleAttribution AttributeIdle(const model::Trace& trace,
                              const ActivityList& activities,
                              const TraceWindow& window) {
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
  for (const model::ApiCall& call : trace.api_calls) {
    Interval span{call.start_ns, call.end_ns};
    api_raw.push_back(span);
    if (is_sync(call.name))
      sync_raw.push_back(span);
    else if (is_launch(call.name))
      launch_raw.push_back(span);
  }
  for (const model::SyncEvent& s : trace.syncs) {
    if (HostBlocking(s.kind))
      sync_raw.push_back({s.start_ns, s.end_ns});
  }
  out.has_api_calls = !trace.api_calls.empty();
  std::vector<Interval> sync = util::MergeIntervals(std::move(sync_raw));
  std::vector<Interval> launch = util::MergeIntervals(std::move(launch_raw));
  std::vector<Interval> api = util::MergeIntervals(std::move(api_raw));
  // The window's complement of busy time, edges included.
  std::vector<Interval> gaps;
  std::int64_t previous_end = window.start_ns;
  for (const Interval& b : busy) {
    if (b.start > previous_end)
      gaps.push_back({previous_end, b.start});
    previous_end = std::max(previous_end, b.end);
  }
  if (window.end_ns > previous_end)
    gaps.push_back({previous_end, window.end_ns});
  std::vector<Interval> host_gaps;  // gaps attributed to the host, not to a synchronization
  for (const Interval& gap : gaps) {
    std::int64_t start = gap.start, end = gap.end;
    std::int64_t length = end - start;
    ++out.gaps;
    out.idle_ns += length;
    if (busy.empty() || end <= busy.front().start || start >= busy.back().end)
      out.edge_ns += length;
    std::int64_t launch_ns = util::CoveredLength(launch, start, end);
    std::int64_t api_ns = util::CoveredLength(api, start, end);
    if (util::CoveredLength(sync, start, end) > 0) {
      // A drained queue costs the round trip back to the GPU; long host work after the
      // synchronization is host time that the synchronization exposed, counted as host.
      std::int64_t uncovered = length - api_ns;
      if (uncovered <= std::max(kHostWorkNs, length / 2)) {
        ++out.sync_gaps;
        out.sync_ns += length;
        continue;
      }
      ++out.sync_exposed_gaps;
    }
    out.launch_ns += launch_ns;
    out.other_api_ns += api_ns - launch_ns;
    out.host_ns += length - api_ns;
    host_gaps.push_back(gap);
  }
  AttributeHostWork(trace, util::Subtract(host_gaps, api), out);
  return out;
}

}  // namespace gpuperf::analysis
