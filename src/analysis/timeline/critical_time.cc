#include "analysis/timeline/critical_time.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "analysis/core/names.h"
#include "analysis/timeline/blocked_launches.h"
#include "analysis/timeline/host_waits.h"
#include "util/intervals.h"

namespace gpuperf::analysis {
namespace {

using Group = std::vector<std::size_t>;  // activity indices of one (pid, device), by start

std::map<std::pair<std::int64_t, std::int32_t>, Group> GroupsByPidDevice(
    const model::Trace& trace) {
  std::map<std::pair<std::int64_t, std::int32_t>, Group> groups;
  for (std::size_t i = 0; i < trace.activities.size(); ++i) {
    const model::GpuActivity& a = trace.activities[i];
    if (a.end_ns > a.start_ns)
      groups[{a.pid, a.device}].push_back(i);
  }
  for (auto& [unused, group] : groups) {
    std::sort(group.begin(), group.end(), [&](std::size_t x, std::size_t y) {
      const auto& a = trace.activities[x];
      const auto& b = trace.activities[y];
      return std::tie(a.start_ns, a.end_ns, x) < std::tie(b.start_ns, b.end_ns, y);
    });
  }
  return groups;
}

}  // namespace

CriticalRuns CriticalActivities(const model::Trace& trace, const CorrelationIndex& index) {
  return CriticalActivities(trace, index, HostWaits(trace, index, BlockedLaunches(trace, index)));
}

CriticalRuns CriticalActivities(const model::Trace& trace,
                                const CorrelationIndex& index,
                                const HostWaits& waits) {
  CriticalRuns out;
  out.run_of.assign(trace.activities.size(), CriticalRuns::kNotCritical);
  // The host's last call: the device's last work holds the program only as far as it runs past
  // that (the drain). API calls only, as the host's waits are counted (HostWaitCap): one-time
  // host work on other threads (a JIT compile) leaves the steady state, and with it the drain.
  std::int64_t host_end = std::numeric_limits<std::int64_t>::min();
  for (const model::ApiCall& c : trace.api_calls)
    host_end = std::max(host_end, c.end_ns);
  // A run: work each queued behind the one before (launched before it ended), up to a gap in
  // which the GPU waited for the host, or the device's end. Finishing any of it sooner starts
  // the rest sooner, and the program goes on sooner by at most how long a host thread waited
  // for the GPU during the run (a wait shortened), plus the drain past the host's last call
  // when the run is the device's last.
  struct Run {
    std::int64_t start = 0;
    std::int64_t end = 0;
    std::int64_t drain = 0;
    bool unbounded = false;
  };
  std::vector<Run> runs;
  for (auto& [unused, group] : GroupsByPidDevice(trace))
    out.groups.push_back(std::move(group));
  for (const std::vector<std::size_t>& group : out.groups) {
    std::vector<std::int64_t> starts;
    starts.reserve(group.size());
    for (std::size_t i : group)
      starts.push_back(trace.activities[i].start_ns);
    // Latest first: an activity with work queued behind it joins that work's run, and the work
    // behind it starts after it ends, so later in the group.
    for (std::size_t p = group.size(); p-- > 0;) {
      std::size_t i = group[p];
      const model::GpuActivity& a = trace.activities[i];
      auto start_run = [&](std::int64_t drain, bool unbounded) {
        out.run_of[i] = static_cast<std::int32_t>(runs.size());
        runs.push_back({a.start_ns, a.end_ns, drain, unbounded});
      };
      auto next = std::lower_bound(starts.begin(), starts.end(), a.end_ns);
      if (next == starts.end()) {
        // The device's last work: the program waited for it or ended with it.
        bool no_host = host_end == std::numeric_limits<std::int64_t>::min();
        start_run(no_host ? 0 : std::max<std::int64_t>(0, a.end_ns - host_end), no_host);
        continue;
      }
      std::size_t q = group[static_cast<std::size_t>(next - starts.begin())];
      const model::GpuActivity& b = trace.activities[q];
      std::int64_t launch = index.PrimaryCall(b.correlation, b.pid);
      if (launch < 0) {
        start_run(0, true);  // no launch record: cannot tell, count it (an upper bound)
        continue;
      }
      // Queued work behind it joins its run; otherwise the GPU went idle after it until the host
      // issued more work, and a new run ends here.
      if (trace.api_calls[static_cast<std::size_t>(launch)].end_ns <= a.end_ns) {
        out.run_of[i] = out.run_of[q];
        Run& run = runs[static_cast<std::size_t>(out.run_of[q])];
        run.start = std::min(run.start, a.start_ns);
      } else {
        start_run(0, false);
      }
    }
  }
  out.budget_ns.reserve(runs.size());
  for (const Run& run : runs)
    out.budget_ns.push_back(run.unbounded ? CriticalRuns::kUnbounded
                                          : run.drain + waits.WaitedWithin(run.start, run.end));
  return out;
}

CriticalTimes AttributeCriticalTime(const model::Trace& trace,
                                    const CriticalRuns& runs,
                                    const std::function<std::int64_t(std::size_t)>& key,
                                    const std::vector<bool>* on_timeline) {
  CriticalTimes out;
  struct Edge {
    std::int64_t time;
    bool start;
    std::size_t activity;
  };
  std::vector<Edge> edges;
  std::unordered_map<std::int64_t, std::int64_t> running_per_key;
  // A key's time alone on its device per run of its running activity: what it gives back is
  // at most that run's budget (CriticalRuns), summed over its runs.
  struct KeyRun {
    std::int64_t key;
    std::int32_t run;
    bool operator==(const KeyRun& o) const { return key == o.key && run == o.run; }
  };
  struct KeyRunHash {
    std::size_t operator()(const KeyRun& k) const {
      return std::hash<std::int64_t>()(k.key * 1000003 + k.run);
    }
  };
  std::unordered_map<KeyRun, std::int64_t, KeyRunHash> bounded;
  auto budget = [&](std::int32_t run) {
    return run == CriticalRuns::kNotCritical ? 0 : runs.budget_ns[static_cast<std::size_t>(run)];
  };
  // The groups CriticalActivities sorted, when the runs come from it.
  std::vector<std::vector<std::size_t>> sorted;
  if (runs.groups.empty()) {
    for (auto& [unused, group] : GroupsByPidDevice(trace))
      sorted.push_back(std::move(group));
  }
  for (const std::vector<std::size_t>& group : runs.groups.empty() ? sorted : runs.groups) {
    ++out.device_groups;
    edges.clear();
    for (std::size_t i : group) {
      edges.push_back({trace.activities[i].start_ns, true, i});
      edges.push_back({trace.activities[i].end_ns, false, i});
    }
    // Ends before starts at the same time: touching activities do not overlap.
    std::sort(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) {
      return std::tie(x.time, x.start) < std::tie(y.time, y.start);
    });
    running_per_key.clear();
    std::int64_t running = 0, key_sum = 0, distinct_keys = 0;
    // The running activities' runs: their sum names the run when one activity runs; the
    // count of those in an unbounded run says whether any is.
    std::int64_t run_sum = 0, running_unbounded = 0, running_critical = 0;
    std::int64_t running_on_timeline = 0;
    std::int64_t previous = 0;
    for (const Edge& e : edges) {
      if (running > 0 && distinct_keys == 1 && e.time > previous) {
        // One key runs alone; all running activities share it, so the sum names it.
        std::int64_t k = key_sum / running;
        CriticalTime& t = out.by_key[k];
        std::int64_t span = e.time - previous;
        t.exclusive_ns += span;
        if (running_on_timeline > 0)
          t.timeline_ns += span;
        if (running_unbounded > 0 || (running_critical > 1)) {
          t.critical_ns += span;  // unbounded, or the key overlapping itself: an upper bound
          t.unbounded_ns += span;
        } else if (running_critical == 1)
          bounded[{k, static_cast<std::int32_t>(run_sum)}] += span;
      }
      previous = e.time;
      std::int64_t k = key(e.activity);
      std::int64_t step = e.start ? 1 : -1;
      running += step;
      key_sum += step * k;
      if (!on_timeline || (*on_timeline)[e.activity])
        running_on_timeline += step;
      std::int32_t c = runs.run_of[e.activity];
      if (std::int64_t b = budget(c); b > 0) {
        running_critical += step;
        if (b == CriticalRuns::kUnbounded)
          running_unbounded += step;
        else
          run_sum += step * c;
      }
      std::int64_t& per_key = running_per_key[k];
      if (e.start && per_key++ == 0)
        ++distinct_keys;
      if (!e.start && --per_key == 0)
        --distinct_keys;
    }
  }
  for (const auto& [key_run, ns] : bounded) {
    CriticalTime& t = out.by_key[key_run.key];
    t.critical_ns += std::min(ns, budget(key_run.run));
    t.runs.emplace_back(key_run.run, ns);
  }
  // Hash order is not an order: by run, so that every sum over them is reproducible.
  for (auto& [unused, t] : out.by_key)
    std::sort(t.runs.begin(), t.runs.end());
  return out;
}

TraceWindow ComputeTraceWindow(const model::Trace& trace) {
  std::int64_t lo = std::numeric_limits<std::int64_t>::max();
  std::int64_t hi = std::numeric_limits<std::int64_t>::min();
  auto extend = [&](std::int64_t start, std::int64_t end) {
    lo = std::min(lo, start);
    hi = std::max(hi, end);
  };
  for (const auto& a : trace.activities)
    extend(a.start_ns, a.end_ns);
  for (const auto& c : trace.api_calls)
    extend(c.start_ns, c.end_ns);
  for (const auto& o : trace.host_ops)
    extend(o.start_ns, o.end_ns);
  for (const auto& r : trace.ranges)
    extend(r.start_ns, r.end_ns);
  for (const auto& s : trace.syncs)
    extend(s.start_ns, s.end_ns);
  if (lo > hi)
    return {};
  return {lo, hi};
}

}  // namespace gpuperf::analysis
