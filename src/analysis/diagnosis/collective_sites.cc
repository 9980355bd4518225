// Collective instances grouped by call site, the evidence of waits for other ranks. A collective
// runs until every rank arrives, so one call site whose instances spread far above their median
// is the signature of waiting; instances of one kernel name from other call sites carry other
// message sizes, so a spread over a whole kernel name says little (hta trace_diff/test: the
// all-to-alls are tight per site, the all-reduces spread 79 µs to 12.5 ms).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>
#include <unordered_set>
#include <vector>

#include "analysis/core/host_intervals.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/findings/findings.h"
#include "analysis/kernel/readable_name.h"
#include "analysis/kernel/shape_model.h"
#include "analysis/kernel/shape_model_ops.h"
#include "util/units_format.h"

namespace gpuperf::analysis {
namespace {

// A site spreads when its longest instance takes this many times its median (and it has at
// least kSiteInstances instances: a median of two says nothing).
constexpr double kSpreadRatio = 4.0;
constexpr std::size_t kSiteInstances = 3;
// The evidence is given when the time above the spreading sites' medians is this share of the
// collectives' time.
constexpr double kExcessShare = 0.10;
constexpr std::size_t kSitesNamed = 3;

// A collective's own marker range (PyTorch's record_param_comms names it "nccl:all_reduce"):
// the same at every call site, so never the site.
bool IsCollectiveMarker(std::string_view name) {
  return name.starts_with("nccl:") || name.starts_with("rccl:") || name.starts_with("gloo:");
}

// A collective's message as its marker records it: the marker's name, its first tensor's dims
// and element type, and the bytes they make (0 when the type is not known).
struct Message {
  model::NameId marker = 0;
  model::NameId dims = 0;
  model::NameId types = 0;
  std::int64_t bytes = 0;
  auto Key() const { return std::tie(marker, dims, types); }
};

// Bytes per element of the element types PyTorch's collectives carry; 0 when unknown.
std::int64_t ElementBytes(std::string_view type) {
  if (const shape::FloatType* t = shape::FindFloatType(type))
    return t->bytes;
  static constexpr std::array<std::pair<std::string_view, std::int64_t>, 7> kIntegers{{
      {"int", 4},
      {"long", 8},
      {"long int", 8},
      {"short", 2},
      {"bool", 1},
      {"unsigned char", 1},
      {"signed char", 1},
  }};
  for (const auto& [name, bytes] : kIntegers) {
    if (name == type)
      return bytes;
  }
  return 0;
}

std::int64_t MessageBytes(std::string_view dims_text, std::string_view types_text) {
  std::optional<InputDims> dims = ParseInputDims(dims_text);
  std::optional<std::vector<std::string>> types = ParseInputTypes(types_text);
  if (!dims || dims->empty() || !dims->front() || dims->front()->empty() || !types ||
      types->empty())
    return 0;
  std::int64_t elements = 1;
  for (std::int64_t n : *dims->front()) {
    if (n < 0 || (n > 0 && elements > std::numeric_limits<std::int64_t>::max() / 16 / n))
      return 0;
    elements *= n;
  }
  return elements * ElementBytes(types->front());
}

struct Site {
  model::NameId kernel = 0;
  std::string_view range;  // "" when no range encloses the launch
  bool launched = true;    // false: no launch call in the trace (an orphan)
  Message message;         // marker 0: none recorded
  std::vector<std::int64_t> durations;
  std::int64_t total = 0;
  std::int64_t median = 0;
  std::int64_t excess = 0;  // time above the median
  bool spreads = false;
};

// The annotation and NVTX ranges a site is named by (not the collectives' own markers).
HostIntervals<std::string_view> SiteRanges(const model::Trace& trace) {
  HostIntervals<std::string_view> out;
  for (const model::Range& r : trace.ranges) {
    if ((r.kind == model::RangeKind::kUserAnnotation || r.kind == model::RangeKind::kNvtx) &&
        !IsCollectiveMarker(trace.Name(r.name)))
      out.Add(r.pid, r.tid, r.start_ns, r.end_ns, trace.Name(r.name));
  }
  out.Sort();
  return out;
}

// The collectives' markers that record their message: "nccl:all_reduce" annotations with shapes
// (Trace::range_shapes) and record_param_comms operators with them.
HostIntervals<Message> MessageMarkers(const model::Trace& trace) {
  HostIntervals<Message> out;
  auto add = [&](model::NameId name, model::NameId dims, model::NameId types, const auto& r) {
    // A marker without a readable size still counts: the innermost marker is the collective's
    // own, and one around it belongs to another collective.
    out.Add(r.pid,
            r.tid,
            r.start_ns,
            r.end_ns,
            Message{name, dims, types, MessageBytes(trace.Name(dims), trace.Name(types))});
  };
  for (std::size_t i = 0; i < trace.ranges.size(); ++i) {
    const model::Range& r = trace.ranges[i];
    if (!IsCollectiveMarker(trace.Name(r.name)))
      continue;
    std::uint64_t shapes = trace.range_shapes.Find(i).value_or(0);
    add(r.name,
        static_cast<model::NameId>(shapes >> 32),
        static_cast<model::NameId>(shapes & 0xffffffffu),
        r);
  }
  for (const model::HostOp& op : trace.host_ops) {
    if (trace.Name(op.name) == "record_param_comms")
      add(op.name, op.input_dims, op.input_types, op);
  }
  out.Sort();
  return out;
}

std::string SiteName(const model::Trace& trace, const Site& s) {
  std::string kernel = ReadableKernelName(std::string(trace.Name(s.kernel)));
  if (s.message.bytes > 0)
    kernel += fmt::format(" of {} ({} {})",
                          util::FormatBytes(static_cast<double>(s.message.bytes)),
                          trace.Name(s.message.marker),
                          trace.Name(s.message.dims));
  if (!s.launched)
    return kernel + " without a launch call in the trace";
  if (s.range.empty())
    return kernel + " with no range around its launch";
  return fmt::format("{} in {}", kernel, s.range);
}

// "<site>: 6 instances, 12.2 ms to 12.5 ms, median 12.3 ms (14.7 GB/s)": the bandwidth of the
// median instance when the message size is known.
std::string SiteRange(const model::Trace& trace, const Site& s) {
  return fmt::format("{}: {} instances, {} to {}, median {}{}",
                     SiteName(trace, s),
                     s.durations.size(),
                     Ms(s.durations.front()),
                     Ms(s.durations.back()),
                     Ms(s.median),
                     s.message.bytes > 0 && s.median > 0
                         ? fmt::format(" ({}/s)",
                                       util::FormatBytes(static_cast<double>(s.message.bytes) /
                                                         static_cast<double>(s.median) * 1e9))
                         : "");
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
  HostIntervals<std::string_view> ranges = SiteRanges(trace);
  HostIntervals<Message> markers = MessageMarkers(trace);
  std::map<
      std::
          tuple<model::NameId, std::string_view, bool, model::NameId, model::NameId, model::NameId>,
      Site>
      sites;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind != model::ActivityKind::kKernel || a.name >= is_collective.size())
      continue;
    std::uint8_t& known = is_collective[a.name];
    if (known == 0)
      known = collectives.contains(trace.Name(a.name)) ? 1 : 2;
    if (known != 1)
      continue;
    std::int64_t call = index.PrimaryCall(a.correlation, a.pid);
    std::string_view range;
    Message message;
    if (call >= 0) {
      const model::ApiCall& launch = trace.api_calls[static_cast<std::size_t>(call)];
      if (const std::string_view* around = ranges.Of(launch))
        range = *around;
      if (const Message* m = markers.Of(launch); m && m->bytes > 0)
        message = *m;
    }
    Site& s = sites[{a.name, range, call >= 0, message.marker, message.dims, message.types}];
    s.kernel = a.name;
    s.range = range;
    s.launched = call >= 0;
    s.message = message;
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
    s.spreads =
        s.durations.size() >= kSiteInstances &&
        static_cast<double>(s.durations.back()) >= kSpreadRatio * static_cast<double>(s.median);
    total += s.total;
    // Orphans have no call site: their instances mix sites, so they say nothing either way.
    if (!s.launched || s.durations.size() < kSiteInstances)
      continue;
    if (s.spreads)
      excess += s.excess;
    (s.spreads ? spread : tight).push_back(&s);
  }
  auto by_time = [](const Site* a, const Site* b) { return a->total > b->total; };
  std::sort(spread.begin(), spread.end(), by_time);
  std::sort(tight.begin(), tight.end(), by_time);
  std::int64_t tight_ns = 0;
  for (const Site* t : tight)
    tight_ns += t->total;
  std::string steady;
  for (std::size_t i = 0; i < tight.size() && i < kSitesNamed; ++i)
    steady += (i ? "; " : "") + SiteRange(trace, *tight[i]);
  if (spread.empty() || static_cast<double>(excess) < kExcessShare * static_cast<double>(total)) {
    // No site spreads: on this rank's evidence the time is the transfers', when the tight sites
    // hold most of it.
    if (tight.empty() || tight_ns * 2 < total)
      return "";
    return fmt::format(
        "Grouped by call site (kernel name, the innermost annotation range around its launch "
        "and the message its marker records), the collectives' instances are tight at every "
        "site of {} or more instances, the longest under {:.0f}x the median ({}): on this rank's "
        "evidence their {} of kernel time is transfer time, not waits for other ranks, though a "
        "wait in every instance would hide in the median; the other ranks' traces settle it "
        "(gpuperf ranks) (trace: kernel durations, annotation ranges, collective markers).",
        kSiteInstances,
        kSpreadRatio,
        steady,
        Ms(total));
  }
  std::string spreading;
  for (std::size_t i = 0; i < spread.size() && i < kSitesNamed; ++i)
    spreading += (i ? "; " : "") + SiteRange(trace, *spread[i]);
  return fmt::format(
      "Grouped by call site (kernel name, the innermost annotation range around its launch and "
      "the message its marker records), the collectives' instances spread at {} of {} sites "
      "({}){}. Of the collectives' {} of kernel time, {} lies above the spreading sites' "
      "medians. A collective runs until every rank arrives, so a spread at one call site is the "
      "signature of waiting for other ranks, unless the site moves messages of other sizes its "
      "marker does not record; it is no measure of the wait, since a wait in every instance "
      "hides in the median. The other ranks' traces settle it (gpuperf ranks). The timeline "
      "counts such a wait as GPU busy (trace: kernel durations, annotation ranges, collective "
      "markers).",
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
