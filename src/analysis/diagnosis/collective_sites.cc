// Collective instances grouped by call site, the evidence of waits for other ranks. A collective
// runs until every rank arrives, so one call site whose instances spread far above their median
// is the signature of waiting; instances of one kernel name from other call sites carry other
// message sizes, so a spread over a whole kernel name says little (hta trace_diff/test: the
// all-to-alls are tight per site, the all-reduces spread 79 µs to 12.5 ms).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/findings/findings.h"
#include "analysis/kernel/readable_name.h"

namespace gpuperf::analysis {
namespace {

// A site spreads when its longest instance takes this many times its median (and it has at
// least kSiteInstances instances: a median of two says nothing).
constexpr double kSpreadRatio = 4.0;
constexpr std::size_t kSiteInstances = 3;
// The evidence is given when the time above the spreading sites' medians is this share of the
// collectives' time.
constexpr double kExcessShare = 0.10;
// How far back from a call to look for the range around it (sibling ranges before it).
constexpr std::size_t kRangeWalk = 512;
constexpr std::size_t kSitesNamed = 3;

// A collective's own marker range (PyTorch's record_param_comms names it "nccl:all_reduce"):
// the same at every call site, so never the site.
bool IsCollectiveMarker(std::string_view name) {
  return name.starts_with("nccl:") || name.starts_with("rccl:") || name.starts_with("gloo:");
}

struct Site {
  model::NameId kernel = 0;
  std::string_view range;  // "" when no range encloses the launch
  bool launched = true;    // false: no launch call in the trace (an orphan)
  std::vector<std::int64_t> durations;
  std::int64_t total = 0;
  std::int64_t median = 0;
  std::int64_t excess = 0;  // time above the median
  bool spreads = false;
};

// The host ranges a site can be named by, per thread, by start.
class RangesByThread {
 public:
  explicit RangesByThread(const model::Trace& trace) : trace_(trace) {
    for (const model::Range& r : trace.ranges) {
      if ((r.kind == model::RangeKind::kUserAnnotation || r.kind == model::RangeKind::kNvtx) &&
          !IsCollectiveMarker(trace.Name(r.name)))
        by_thread_[{r.pid, r.tid}].push_back(&r);
    }
    for (auto& [thread, ranges] : by_thread_)
      std::sort(ranges.begin(), ranges.end(), [](const auto* a, const auto* b) {
        return a->start_ns < b->start_ns;
      });
  }

  // The innermost range around the call: the latest-starting one that contains it.
  std::string_view Around(const model::ApiCall& call) const {
    auto it = by_thread_.find({call.pid, call.tid});
    if (it == by_thread_.end())
      return "";
    const std::vector<const model::Range*>& ranges = it->second;
    auto end = std::upper_bound(
        ranges.begin(), ranges.end(), call.start_ns, [](model::TimeNs t, const model::Range* r) {
          return t < r->start_ns;
        });
    for (std::size_t walked = 0; end != ranges.begin() && walked < kRangeWalk; ++walked) {
      const model::Range* r = *--end;
      if (r->end_ns >= call.end_ns)
        return trace_.Name(r->name);
    }
    return "";
  }

 private:
  const model::Trace& trace_;
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<const model::Range*>> by_thread_;
};

std::string SiteName(const model::Trace& trace, const Site& s) {
  std::string kernel = ReadableKernelName(std::string(trace.Name(s.kernel)));
  if (!s.launched)
    return kernel + " without a launch call in the trace";
  if (s.range.empty())
    return kernel + " with no range around its launch";
  return fmt::format("{} in {}", kernel, s.range);
}

}  // namespace

std::string CollectiveWaitText(const model::Trace& trace,
                               const CorrelationIndex& index,
                               const report::AnalysisReport& r) {
  std::unordered_set<std::string_view> collectives;
  for (const report::KernelRow& k : r.kernels) {
    if (k.category == "communication")
      collectives.insert(k.name);
  }
  if (collectives.empty())
    return "";
  // Per name id: 0 unknown, 1 a collective, 2 not.
  std::vector<std::uint8_t> is_collective(trace.strings.size(), 0);
  RangesByThread ranges(trace);
  std::map<std::tuple<model::NameId, std::string_view, bool>, Site> sites;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind != model::ActivityKind::kKernel || a.name >= is_collective.size())
      continue;
    std::uint8_t& known = is_collective[a.name];
    if (known == 0)
      known = collectives.contains(trace.Name(a.name)) ? 1 : 2;
    if (known != 1)
      continue;
    std::int64_t call = index.PrimaryCall(a.correlation, a.pid);
    std::string_view range =
        call >= 0 ? ranges.Around(trace.api_calls[static_cast<std::size_t>(call)]) : "";
    Site& s = sites[{a.name, range, call >= 0}];
    s.kernel = a.name;
    s.range = range;
    s.launched = call >= 0;
    s.durations.push_back(a.duration_ns());
    s.total += a.duration_ns();
  }
  std::int64_t total = 0, excess = 0;
  std::vector<const Site*> spread, tight;
  for (auto& [key, s] : sites) {
    std::sort(s.durations.begin(), s.durations.end());
    s.median = s.durations[(s.durations.size() - 1) / 2];
    for (std::int64_t d : s.durations)
      s.excess += std::max<std::int64_t>(0, d - s.median);
    s.spreads = s.durations.size() >= kSiteInstances &&
                static_cast<double>(s.durations.back()) >= kSpreadRatio * static_cast<double>(s.median);
    total += s.total;
    if (s.spreads)
      excess += s.excess;
    if (s.durations.size() >= kSiteInstances)
      (s.spreads ? spread : tight).push_back(&s);
  }
  if (spread.empty() || static_cast<double>(excess) < kExcessShare * static_cast<double>(total))
    return "";
  auto by_time = [](const Site* a, const Site* b) { return a->total > b->total; };
  std::sort(spread.begin(), spread.end(), by_time);
  std::sort(tight.begin(), tight.end(), by_time);
  std::string spreading;
  for (std::size_t i = 0; i < spread.size() && i < kSitesNamed; ++i) {
    const Site& s = *spread[i];
    spreading += fmt::format("{}{}: {} instances, {} to {}, median {}",
                             i ? "; " : "",
                             SiteName(trace, s),
                             s.durations.size(),
                             Ms(s.durations.front()),
                             Ms(s.durations.back()),
                             Ms(s.median));
  }
  std::string steady;
  for (std::size_t i = 0; i < tight.size() && i < kSitesNamed; ++i) {
    const Site& s = *tight[i];
    steady += fmt::format("{}{}: {} to {}, median {}",
                          i ? "; " : "",
                          SiteName(trace, s),
                          Ms(s.durations.front()),
                          Ms(s.durations.back()),
                          Ms(s.median));
  }
  return fmt::format(
      "Grouped by call site (kernel name and the innermost annotation range around its launch), "
      "the collectives' instances spread at {} of {} sites ({}){}. Of the collectives' {} of "
      "kernel time, {} lies above the spreading sites' medians. A collective runs until every "
      "rank arrives, so a spread at one call site is the signature of waiting for other ranks, "
      "unless the site moves messages of other sizes (gradient buckets); it is no measure of the "
      "wait, since a wait in every instance hides in the median. The other ranks' traces settle "
      "it (gpuperf ranks). The timeline counts such a wait as GPU busy (trace: kernel durations, "
      "annotation ranges).",
      spread.size(),
      sites.size(),
      spreading,
      steady.empty() ? ""
                     : fmt::format("; at the other sites of {} or more instances the longest "
                                   "stays under {:.0f}x the median ({})",
                                   kSiteInstances,
                                   kSpreadRatio,
                                   steady),
      Ms(total),
      Ms(excess));
}

}  // namespace gpuperf::analysis
