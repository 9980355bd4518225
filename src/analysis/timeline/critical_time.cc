#include "analysis/timeline/critical_time.h"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

#include "analysis/core/names.h"

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

// Host intervals in which a thread was blocked on the GPU, sorted by start, with the running
// maximum of their ends so that "is t inside one of them" is one binary search.
class HostWaits {
 public:
  HostWaits(const model::Trace& trace, const CorrelationIndex& index) {
    CachedNamePredicate blocking(trace, [](std::string_view name) {
      return IsBlockingSyncApi(name) || IsSyncMemcpyApi(name);
    });
    for (std::size_t i = 0; i < trace.api_calls.size(); ++i) {
      const model::ApiCall& call = trace.api_calls[i];
      if (index.IsPrimary(i) && blocking(call.name))
        waits_.emplace_back(call.start_ns, call.end_ns);
    }
    for (const model::SyncEvent& s : trace.syncs)
      waits_.emplace_back(s.start_ns, s.end_ns);
    std::sort(waits_.begin(), waits_.end());
    max_end_.reserve(waits_.size());
    std::int64_t running = std::numeric_limits<std::int64_t>::min();
    for (const auto& [start, end] : waits_) {
      running = std::max(running, end);
      max_end_.push_back(running);
    }
  }

  bool Covers(std::int64_t t) const {
    auto it = std::upper_bound(
        waits_.begin(), waits_.end(), std::pair{t, std::numeric_limits<std::int64_t>::max()});
    if (it == waits_.begin())
      return false;
    return max_end_[static_cast<std::size_t>(it - waits_.begin()) - 1] >= t;
  }

 private:
  std::vector<std::pair<std::int64_t, std::int64_t>> waits_;
  std::vector<std::int64_t> max_end_;
};

}  // namespace

std::vector<bool> CriticalActivities(const model::Trace& trace, const CorrelationIndex& index) {
  std::vector<bool> critical(trace.activities.size(), true);
  HostWaits waits(trace, index);
  for (const auto& [unused, group] : GroupsByPidDevice(trace)) {
    std::vector<std::int64_t> starts;
    starts.reserve(group.size());
    for (std::size_t i : group)
      starts.push_back(trace.activities[i].start_ns);
    for (std::size_t i : group) {
      const model::GpuActivity& a = trace.activities[i];
      auto next = std::lower_bound(starts.begin(), starts.end(), a.end_ns);
      if (next == starts.end())
        continue;  // the device's last work: the program waited for it or ended
      const model::GpuActivity& b =
          trace.activities[group[static_cast<std::size_t>(next - starts.begin())]];
      std::int64_t launch = index.PrimaryCall(b.correlation, b.pid);
      if (launch < 0)
        continue;  // no launch record: cannot tell, count it (an upper bound)
      if (trace.api_calls[static_cast<std::size_t>(launch)].end_ns <= a.end_ns)
        continue;  // the next operation was queued behind this one
      if (waits.Covers(a.end_ns))
        continue;  // a host thread was waiting for the GPU
      critical[i] = false;
    }
  }
  return critical;
}

CriticalTimes AttributeCriticalTime(const model::Trace& trace,
                                    const std::vector<bool>& critical,
                                    const std::function<std::int64_t(std::size_t)>& key) {
  CriticalTimes out;
  struct Edge {
    std::int64_t time;
    bool start;
    std::size_t activity;
  };
  std::vector<Edge> edges;
  std::unordered_map<std::int64_t, std::int64_t> running_per_key;
  for (const auto& [unused, group] : GroupsByPidDevice(trace)) {
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
    std::int64_t running = 0, running_critical = 0, key_sum = 0, distinct_keys = 0;
    std::int64_t previous = 0;
    for (const Edge& e : edges) {
      if (running > 0 && distinct_keys == 1 && e.time > previous) {
        // One key runs alone; all running activities share it, so the sum names it.
        CriticalTime& t = out.by_key[key_sum / running];
        t.exclusive_ns += e.time - previous;
        if (running_critical > 0)
          t.critical_ns += e.time - previous;
      }
      previous = e.time;
      std::int64_t k = key(e.activity);
      std::int64_t step = e.start ? 1 : -1;
      running += step;
      key_sum += step * k;
      if (critical[e.activity])
        running_critical += step;
      std::int64_t& per_key = running_per_key[k];
      if (e.start && per_key++ == 0)
        ++distinct_keys;
      if (!e.start && --per_key == 0)
        --distinct_keys;
    }
  }
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
