// DetectInitialization: runs the passes that find one-time work (initialization_api.cc,
// initialization_lazy.cc, initialization_host.cc, initialization_named.cc), keeps the most
// specific of nested candidates, and aggregates them into the report's items; with the group
// machinery (median, outlier test) the passes share.
#include "analysis/diagnosis/initialization.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "analysis/core/names.h"
#include "analysis/core/statistics.h"
#include "analysis/diagnosis/initialization_parts.h"
#include "analysis/findings/findings.h"

namespace gpuperf::analysis {
namespace one_time {

// Without a duration the group only tracks its first instance.
void AddToGroup(Groups& groups,
                const GroupKey& key,
                std::size_t i,
                std::int64_t start,
                std::optional<std::int64_t> duration) {
  Group& g = groups[key];
  if (duration)
    g.durations.push_back(*duration);
  if (start < g.first_start) {
    g.first_start = start;
    g.first = i;
  }
}

// "is an outlier": at least kOneTimeMinNs, and kOneTimeFactor x the median of the others.
bool Outlier(Group& g, std::int64_t duration, std::int64_t& median, bool lone_counts) {
  if (duration < kOneTimeMinNs)
    return false;
  if (g.durations.size() < 2) {
    median = 0;
    return lone_counts;
  }
  median = UpperMedian(g.durations);
  return static_cast<double>(duration) >= kOneTimeFactor * static_cast<double>(median);
}

namespace {

// Of a chain of nested host ops that are one-time work together (aten::conv2d > convolution >
// cudnn_convolution), the innermost names it: an op is left out when an op candidate inside it
// takes at least 90% of its time. API calls inside an op stay beside it: they name a cause.
std::vector<Candidate> KeepSpecific(std::vector<Candidate> candidates) {
  std::stable_sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) {
    return a.end - a.start < b.end - b.start;
  });
  std::vector<Candidate> kept;
  for (Candidate& c : candidates) {
    bool chained =
        c.from_host_op && std::any_of(kept.begin(), kept.end(), [&](const Candidate& inner) {
          return inner.from_host_op && c.start <= inner.start && inner.end <= c.end &&
                 (inner.end - inner.start) * 10 >= (c.end - c.start) * 9;
        });
    if (!chained)
      kept.push_back(std::move(c));
  }
  return kept;
}

// A named candidate inside another of the same kind (NVRTC inside a compile range) adds no time
// and names a part of the same work: the outer one stands for it.
std::vector<Candidate> DropNested(std::vector<Candidate> candidates) {
  std::vector<Candidate> kept;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = candidates[i];
    bool nested = false;
    for (std::size_t j = 0; j < candidates.size() && !nested; ++j) {
      const Candidate& o = candidates[j];
      bool wider =
          o.end - o.start > c.end - c.start || (o.end - o.start == c.end - c.start && j < i);
      nested = j != i && c.by_name && o.by_name && o.kind == c.kind && wider &&
               o.start <= c.start && c.end <= o.end;
    }
    if (!nested)
      kept.push_back(c);
  }
  return kept;
}

// An item inside a wider one (context creation inside MPI_Init, where a GPU-aware MPI initialises
// CUDA; a lazy-loading launch inside a first cuDNN convolution) is part of that time, not added to
// it: its evidence says so, so that rows summing past the total read right. (The total is the
// union of the items either way.)
void NoteContainers(std::vector<Candidate>& candidates) {
  for (Candidate& c : candidates) {
    for (const Candidate& o : candidates) {
      if (&o == &c || o.name == c.name || o.end - o.start <= c.end - c.start || c.start < o.start ||
          o.end < c.end)
        continue;
      c.evidence +=
          fmt::format("; inside {} ({}), whose time includes it", o.name, ToString(o.kind));
      break;
    }
  }
}

}  // namespace
}  // namespace one_time

namespace {

constexpr std::size_t kItemsKept = 20;

}  // namespace

using one_time::ApiOutliers;
using one_time::Candidate;
using one_time::DropNested;
using one_time::EdgeResourceCalls;
using one_time::GraphCapture;
using one_time::HostOpOutliers;
using one_time::HostRangeOutliers;
using one_time::KeepSpecific;
using one_time::LaunchedKernel;
using one_time::LaunchFacts;
using one_time::LazyFirstLaunches;
using one_time::NamedWork;
using one_time::NoteContainers;
using one_time::ProcessFirstCalls;
using one_time::ThreadWaits;
using one_time::WaitsByThread;

InitializationResult DetectInitialization(const model::Trace& trace,
                                          const CorrelationIndex& index,
                                          const TraceWindow& window) {
  std::vector<Candidate> candidates;
  const LaunchFacts facts{LaunchedKernel(trace, index), ProcessFirstCalls(trace, index)};
  ApiOutliers(trace, index, facts, candidates);
  LazyFirstLaunches(trace, index, facts, candidates);
  const ThreadWaits waits = WaitsByThread(trace);
  HostOpOutliers(trace, waits, candidates);
  HostRangeOutliers(trace, waits, candidates);
  NamedWork(trace, candidates);
  GraphCapture(trace, candidates);
  EdgeResourceCalls(trace, index, candidates);
  candidates = DropNested(KeepSpecific(std::move(candidates)));
  // One record found by two passes (the process's first call is also a named one-time API, a
  // module load) is one item, under the first pass's kind: the context is created there.
  std::vector<Candidate> unique;
  for (Candidate& c : candidates) {
    if (std::none_of(unique.begin(), unique.end(), [&](const Candidate& u) {
          return u.start == c.start && u.end == c.end && u.name == c.name;
        }))
      unique.push_back(std::move(c));
  }
  candidates = std::move(unique);
  NoteContainers(candidates);

  InitializationResult out;
  std::vector<util::Interval> raw;
  std::map<std::pair<report::InitializationKind, std::string>, report::InitializationItem> items;
  std::map<std::pair<report::InitializationKind, std::string>, std::int64_t> largest;
  for (const Candidate& c : candidates) {
    std::int64_t start = std::max(c.start, window.start_ns);
    std::int64_t end = std::min(c.end, window.end_ns);
    if (end <= start)
      continue;
    raw.push_back({start, end});
    auto key = std::pair{c.kind, c.name};
    report::InitializationItem& item = items[key];
    item.kind = c.kind;
    item.name = c.name;
    item.time_ns += end - start;
    ++item.count;
    if (end - start > largest[key]) {
      largest[key] = end - start;
      item.evidence = c.evidence;
    }
  }
  out.intervals = util::MergeIntervals(std::move(raw));
  out.report.time_ns = util::TotalLength(out.intervals);
  if (window.length_ns() > 0)
    out.report.fraction =
        static_cast<double>(out.report.time_ns) / static_cast<double>(window.length_ns());
  for (auto& [key, item] : items) {
    if (item.count > 1)
      item.evidence += fmt::format("; {} instances in all", item.count);
    out.report.items.push_back(std::move(item));
  }
  // By time, then by the kind's spelling and the name (ties read in report.json's order).
  std::sort(out.report.items.begin(), out.report.items.end(), [](const auto& a, const auto& b) {
    return std::tuple(b.time_ns, ToString(a.kind), std::string_view(a.name)) <
           std::tuple(a.time_ns, ToString(b.kind), std::string_view(b.name));
  });
  if (out.report.items.size() > kItemsKept) {
    out.report.items_omitted = static_cast<std::int64_t>(out.report.items.size() - kItemsKept);
    out.report.items.resize(kItemsKept);
  }
  return out;
}

}  // namespace gpuperf::analysis
