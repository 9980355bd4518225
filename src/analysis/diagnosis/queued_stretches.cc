// Where a dependency-bound window's queued idle concentrates: a few long stretches that end at
// the same GPU work (rank0: one ~64 ms stretch a step before the first recorded node of one CUDA
// graph) point at the one dependency to find first.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "analysis/core/names.h"
#include "analysis/core/statistics.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/findings/findings.h"
#include "analysis/kernel/readable_name.h"
#include "util/intervals.h"

namespace gpuperf::analysis {
namespace {

// Half of the queued idle in at most this many stretches (or two a step), each at least
// kLongMinNs, is a concentration worth naming.
constexpr std::size_t kMaxStretches = 10;
constexpr std::int64_t kLongMinNs = 1'000'000;

std::string ActivityLabel(const model::Trace& trace, const model::GpuActivity& a) {
  if (a.kind == model::ActivityKind::kKernel)
    return ReadableKernelName(trace.Name(a.name));
  return MemoryOpLabel(a);
}

// The innermost host operator around API call `call` on its thread, or "".
std::string LaunchingOperator(const model::Trace& trace, const model::ApiCall& call) {
  const model::HostOp* best = nullptr;
  for (const model::HostOp& op : trace.host_ops) {
    if (op.pid != call.pid || op.tid != call.tid || op.start_ns > call.start_ns ||
        op.end_ns < call.end_ns)
      continue;
    if (!best || op.end_ns - op.start_ns < best->end_ns - best->start_ns)
      best = &op;
  }
  return best ? std::string(trace.Name(best->name)) : std::string();
}

// The host's blocking waits through long stretches (disjoint, `total` long): when they cover most
// of it, the host was waiting for the GPU, not late to record an event the queued work waits on.
// `in_graph`: the stretches end at a graph's recorded node, whose graph can hold work the trace
// lacks.
std::string HostBlockedText(const model::Trace& trace,
                            const std::vector<util::Interval>& stretches,
                            std::int64_t total,
                            bool in_graph) {
  std::vector<util::Interval> in_time(stretches);  // they come longest first
  std::sort(in_time.begin(), in_time.end(), [](const auto& a, const auto& b) {
    return a.start < b.start;
  });
  const HostBlocked blocked = HostBlockedDuring(trace, in_time);
  if (total <= 0 || blocked.ns * 10 < total * kHostBlockedTenths || blocked.top_api.empty())
    return "";
  return fmt::format(
      " Through {} of them the host was blocked waiting for the GPU (most in {}): it was not "
      "late to record an event they wait on; the dependency is on the GPU side (another "
      "stream, a copy ahead of it, another rank{}) (trace: API calls).",
      Pct(Fraction(blocked.ns, total)),
      blocked.top_api,
      in_graph ? ", or work inside the graph that the trace does not record" : "");
}

}  // namespace

HostBlocked HostBlockedDuring(const model::Trace& trace,
                              const std::vector<util::Interval>& stretches) {
  CachedNamePredicate is_wait(trace, IsHostWaitApi);
  std::vector<std::pair<std::size_t, util::Interval>> in_stretch;  // (stretch, covered part)
  std::map<std::string_view, std::int64_t> by_api;
  for (const model::ApiCall& call : trace.api_calls) {
    if (!is_wait(call.name))
      continue;
    // The stretches are sorted and disjoint: only those from the first ending after the call's
    // start can meet it.
    auto it = std::upper_bound(
        stretches.begin(), stretches.end(), call.start_ns, [](std::int64_t t, const auto& s) {
          return t < s.end;
        });
    for (; it != stretches.end() && it->start < call.end_ns; ++it) {
      std::int64_t from = std::max(call.start_ns, it->start), to = std::min(call.end_ns, it->end);
      if (to <= from)
        continue;
      in_stretch.push_back({static_cast<std::size_t>(it - stretches.begin()), {from, to}});
      by_api[StripVersionSuffix(trace.Name(call.name))] += to - from;
    }
  }
  HostBlocked out;
  // Per stretch, the union of its covered parts (threads' waits overlap); the stretches are
  // disjoint, so their sum is the union over all of them.
  std::sort(in_stretch.begin(), in_stretch.end(), [](const auto& a, const auto& b) {
    return a.first < b.first;
  });
  out.per_stretch.assign(stretches.size(), 0);
  for (std::size_t i = 0; i < in_stretch.size();) {
    std::size_t j = i;
    std::vector<util::Interval> parts;
    for (; j < in_stretch.size() && in_stretch[j].first == in_stretch[i].first; ++j)
      parts.push_back(in_stretch[j].second);
    out.per_stretch[in_stretch[i].first] =
        util::TotalLength(util::MergeIntervals(std::move(parts)));
    out.ns += out.per_stretch[in_stretch[i].first];
    i = j;
  }
  auto top = std::max_element(by_api.begin(), by_api.end(), [](const auto& a, const auto& b) {
    return a.second < b.second;
  });
  if (top != by_api.end())
    out.top_api = std::string(top->first);
  return out;
}

std::string LongQueuedStretches(const model::Trace& trace,
                                const IdleAttribution& idle,
                                std::int64_t steps,
                                std::string& focus) {
  focus.clear();
  const std::vector<util::Interval>& gaps = idle.queued_gaps_at;
  if (gaps.size() < 2 || idle.queued_ns <= 0)
    return "";
  // The longest stretches that together hold half of the queued idle: a signature when they
  // are few (at most kMaxStretches, or two a step).
  std::vector<util::Interval> long_gaps(gaps.begin(), gaps.end());
  std::stable_sort(long_gaps.begin(), long_gaps.end(), [](const auto& a, const auto& b) {
    return a.end - a.start > b.end - b.start;
  });
  std::int64_t long_ns = 0;
  std::size_t k = 0;
  while (k < long_gaps.size() && 2 * long_ns < idle.queued_ns)
    long_ns += long_gaps[k].end - long_gaps[k].start, ++k;
  long_gaps.resize(k);
  std::size_t most = std::max<std::size_t>(kMaxStretches, 2 * static_cast<std::size_t>(steps));
  if (k < 2 || k > most || long_gaps.back().end - long_gaps.back().start < kLongMinNs)
    return "";
  // The GPU work that ends each long stretch: the activity that starts at its end (a stretch
  // ends where the busy union resumes), the first in trace order; one pass, no sort.
  std::vector<std::pair<std::int64_t, std::size_t>> ends;  // (stretch end, stretch), sorted
  for (std::size_t g = 0; g < long_gaps.size(); ++g)
    ends.emplace_back(long_gaps[g].end, g);
  std::sort(ends.begin(), ends.end());
  std::vector<std::size_t> ending(long_gaps.size(), trace.activities.size());
  for (std::size_t i = 0; i < trace.activities.size(); ++i) {
    std::int64_t start = trace.activities[i].start_ns;
    auto it = std::lower_bound(ends.begin(), ends.end(), std::make_pair(start, std::size_t{0}));
    if (it != ends.end() && it->first == start && ending[it->second] == trace.activities.size())
      ending[it->second] = i;
  }
  struct Group {
    std::int64_t ns = 0;
    std::vector<std::size_t> activities;  // the work ending each of its stretches
    std::vector<util::Interval> stretches;
  };
  std::map<std::pair<std::string, std::int64_t>, Group> groups;  // (label, stream)
  for (std::size_t g = 0; g < long_gaps.size(); ++g) {
    if (ending[g] == trace.activities.size())
      continue;
    const model::GpuActivity& a = trace.activities[ending[g]];
    Group& group = groups[{ActivityLabel(trace, a), a.stream}];
    group.ns += long_gaps[g].end - long_gaps[g].start;
    group.activities.push_back(ending[g]);
    group.stretches.push_back(long_gaps[g]);
  }
  auto top = std::max_element(groups.begin(), groups.end(), [](const auto& a, const auto& b) {
    return a.second.ns < b.second.ns;
  });
  if (top == groups.end() || top->second.stretches.size() < 2)
    return "";
  // How that work was launched, from the first of its activities with a launch call in the trace.
  std::string launch;
  bool in_graph = false;
  for (std::size_t i : top->second.activities) {
    const model::GpuActivity& a = trace.activities[i];
    if (a.correlation == model::kNoId)
      continue;
    for (const model::ApiCall& call : trace.api_calls) {
      if (call.correlation != a.correlation)
        continue;
      std::string_view api = StripVersionSuffix(trace.Name(call.name));
      std::string op = LaunchingOperator(trace, call);
      bool first = std::none_of(
          trace.activities.begin(), trace.activities.end(), [&](const model::GpuActivity& o) {
            return o.correlation == a.correlation && o.start_ns < a.start_ns;
          });
      in_graph = IsGraphLaunchApi(api);
      launch = fmt::format(", {} by {}{}",
                           !IsGraphLaunchApi(api) ? "launched"
                           : first                ? "the first recorded node of a graph launched"
                                                  : "a node of a graph launched",
                           api,
                           op.empty() ? std::string() : fmt::format(" inside {}", op));
      break;
    }
    if (!launch.empty())
      break;
  }
  std::size_t n = top->second.stretches.size();
  std::vector<std::int64_t> lengths;
  for (const util::Interval& stretch : top->second.stretches)
    lengths.push_back(stretch.end - stretch.start);
  focus = fmt::format("{} on stream {}{}", top->first.first, top->first.second, launch);
  return fmt::format(
      "Half of the {} of queued idle lies in its {} longest stretches ({} in all, each at least "
      "{}); {} of them, {} in all, about {} each{}, end at the same GPU work: {}. What that work "
      "waits for is the first dependency to find (trace: idle stretches by the work that ends "
      "them).{}",
      Ms(idle.queued_ns),
      long_gaps.size(),
      Ms(long_ns),
      Ms(long_gaps.back().end - long_gaps.back().start),
      n,
      Ms(top->second.ns),
      Ms(static_cast<std::int64_t>(Summarize(lengths).med)),
      steps > 0 && static_cast<std::int64_t>(n) == steps ? ", one a step" : "",
      focus,
      HostBlockedText(trace, top->second.stretches, top->second.ns, in_graph));
}

}  // namespace gpuperf::analysis
