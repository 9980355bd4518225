// Collective instances grouped by call site, the evidence of waits for other ranks. A collective
// runs until every rank arrives, so one call site whose instances spread far above their median
// is the signature of waiting; instances of one kernel name from other call sites carry other
// message sizes, so a spread over a whole kernel name says little (hta trace_diff/test: the
// all-to-alls are tight per site, the all-reduces spread 79 µs to 12.5 ms). The same sites give
// a rank's least wait for the others (each call's time beyond what its message needs), which
// bounds what it gains alone, and make a communication-bound statement mostly above its sites'
// fastest calls a hypothesis.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_set>
#include <vector>

#include "analysis/core/host_intervals.h"
#include "analysis/core/names.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/findings/findings.h"
#include "analysis/kernel/readable_name.h"
#include "analysis/kernel/shape_model.h"
#include "analysis/kernel/shape_model_ops.h"
#include "analysis/predictions/amdahl.h"
#include "util/units_format.h"

namespace gpuperf::analysis {
namespace {

// A site spreads when its slowest call takes this many times its fastest (and it has at least
// kSiteInstances calls: two say little). The fastest call of a message size is the best
// estimate of its transfer; time above it is waiting or contention.
constexpr double kSpreadRatio = 1.5;
constexpr std::size_t kSiteInstances = 3;
// From this share of the collectives' time above the spreading sites' fastest calls, the
// evidence reads as waiting; under it, as transfer time with a few slow calls.
constexpr double kExcessShare = 0.10;
constexpr std::size_t kSitesNamed = 3;
// A call's message needs at most its bytes at this rate plus this latency: slower than any link
// between GPUs (10 GbE carries 1.25 GB/s, PCIe 3 x16 about 12 GB/s) and than NCCL's latency
// across nodes, so the time beyond is at least waiting for other ranks.
constexpr double kSlowestLinkBytesPerS = 1e9;
constexpr std::int64_t kCollectiveLatencyNs = 100'000;
// From this share of the window, the waits for other ranks bound what this rank gains alone.
constexpr double kMaterialPeerWait = 0.05;

// A collective's own marker range (PyTorch's record_param_comms names it "nccl:all_reduce"):
// the same at every call site, so never the site.
bool IsCollectiveMarker(std::string_view name) {
  return name.starts_with("nccl:") || name.starts_with("rccl:") || name.starts_with("gloo:");
}

// A collective's message as its marker records it: the marker's name and the bytes of its first
// tensor (0 when its dims or element type are not known).
struct Message {
  model::NameId marker = 0;
  std::int64_t bytes = 0;
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
  Message message;         // of its first call; marker 0: none recorded
  std::int64_t min_bytes = 0, max_bytes = 0;
  std::vector<std::int64_t> durations;
  std::int64_t total = 0;
  std::int64_t excess = 0;  // time above the fastest call
  bool spreads = false;
};

// Messages within a factor of two share a site: a per-step all-to-all whose split sizes vary a
// little is one site, a gradient bucket of another size is another.
int SizeBucket(std::int64_t bytes) {
  return bytes > 0 ? static_cast<int>(std::log2(static_cast<double>(bytes))) : -1;
}

// NCCL-tests' bus bandwidth factor of a collective on n ranks (the bytes each link carries per
// byte of message); 0 when the marker names no known collective.
double BusFactor(std::string_view marker, std::int64_t ranks) {
  if (ranks < 2)
    return 0;
  double n = static_cast<double>(ranks);
  if (marker.find("all_reduce") != marker.npos || marker.find("allreduce") != marker.npos)
    return 2 * (n - 1) / n;
  if (marker.find("all_to_all") != marker.npos || marker.find("all_gather") != marker.npos ||
      marker.find("reduce_scatter") != marker.npos || marker.find("alltoall") != marker.npos)
    return (n - 1) / n;
  return 0;
}

// The collective a kernel's name implements, as NCCL spells it ("AllReduce", "SendRecv"), or ""
// for a name that says none (custom and symmetric-memory kernels).
// Lower case without underscores: "AllReduce", "all_reduce" and "allreduce" read alike.
std::string Folded(std::string_view name) {
  std::string folded = AsciiLower(name);
  std::erase(folded, '_');
  return folded;
}

std::string KernelCollective(std::string_view kernel) {
  std::string folded = Folded(kernel);
  for (std::string_view family :
       {"SendRecv", "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "AllToAll"}) {
    if (folded.find(Folded(family)) != std::string::npos)
      return std::string(family);
  }
  return "";
}

// Whether a marker's collective is what the kernel runs: NCCL runs all-to-all and point-to-point
// as SendRecv kernels; a SendRecv kernel under an all_reduce marker moves other bytes than the
// marker's message (a wrapper's marker around another collective), so the marker's bus factor
// does not apply to it.
bool MarkerMatchesKernel(std::string_view marker, std::string_view kernel) {
  std::string family = Folded(KernelCollective(kernel));
  if (family.empty())
    return true;
  std::string m = Folded(marker);
  if (family == "sendrecv")
    return m.find("alltoall") != std::string::npos || m.find("send") != std::string::npos ||
           m.find("recv") != std::string::npos || m.find("p2p") != std::string::npos;
  return m.find(family) != std::string::npos;
}

// The threads that launched collectives: only their ranges and operators can name a site.
using Threads = std::set<std::pair<std::int64_t, std::int64_t>>;

// The annotation and NVTX ranges a site is named by (not the collectives' own markers).
HostIntervals<std::string_view> SiteRanges(const model::Trace& trace, const Threads& threads) {
  HostIntervals<std::string_view> out;
  for (const model::Range& r : trace.ranges) {
    if ((r.kind == model::RangeKind::kUserAnnotation || r.kind == model::RangeKind::kNvtx) &&
        threads.contains({r.pid, r.tid}) && !IsCollectiveMarker(trace.Name(r.name)))
      out.Add(r.pid, r.tid, r.start_ns, r.end_ns, trace.Name(r.name));
  }
  out.Sort();
  return out;
}

// The collectives' markers that record their message: "nccl:all_reduce" annotations with shapes
// (Trace::range_shapes) and record_param_comms operators with them.
HostIntervals<Message> MessageMarkers(const model::Trace& trace, const Threads& threads) {
  HostIntervals<Message> out;
  auto add = [&](model::NameId name, model::NameId dims, model::NameId types, const auto& r) {
    // A marker without a readable size still counts: the innermost marker is the collective's
    // own, and one around it belongs to another collective.
    out.Add(r.pid,
            r.tid,
            r.start_ns,
            r.end_ns,
            Message{name, MessageBytes(trace.Name(dims), trace.Name(types))});
  };
  for (std::size_t i = 0; i < trace.ranges.size(); ++i) {
    const model::Range& r = trace.ranges[i];
    if (!threads.contains({r.pid, r.tid}) || !IsCollectiveMarker(trace.Name(r.name)))
      continue;
    auto [dims, types] = model::UnpackRangeShape(trace.range_shapes.Find(i).value_or(0));
    add(r.name, dims, types, r);
  }
  // The operator's name id, found once in the string table (fewer strings than operators).
  std::optional<model::NameId> record_param_comms;
  for (model::NameId id = 0; id < trace.strings.size() && !record_param_comms; ++id) {
    if (trace.Name(id) == "record_param_comms")
      record_param_comms = id;
  }
  for (const model::HostOp& op : trace.host_ops) {
    if (record_param_comms && op.name == *record_param_comms && threads.contains({op.pid, op.tid}))
      add(op.name, op.input_dims, op.input_types, op);
  }
  out.Sort();
  return out;
}

std::string SiteName(const model::Trace& trace, const Site& s) {
  std::string kernel = ReadableKernelName(std::string(trace.Name(s.kernel)));
  if (s.message.bytes > 0)
    kernel += fmt::format(" of {} ({})",
                          s.min_bytes == s.max_bytes
                              ? util::FormatBytes(static_cast<double>(s.min_bytes))
                              : fmt::format("{} to {}",
                                            util::FormatBytes(static_cast<double>(s.min_bytes)),
                                            util::FormatBytes(static_cast<double>(s.max_bytes))),
                          trace.Name(s.message.marker));
  if (!s.launched)
    return kernel + " without a launch call in the trace";
  if (s.range.empty())
    return kernel + " with no range around its launch";
  return fmt::format("{} in {}", kernel, s.range);
}

// "<site>: 6 instances, 12.2 ms to 12.5 ms, median 12.3 ms (14.7 GB/s)": the bandwidth of the
// median instance when the message size is known.
std::string SiteRange(const model::Trace& trace, const Site& s, std::int64_t ranks) {
  // The fastest call's bandwidth: of the message, and on the links when the collective and the
  // rank count are known (NCCL-tests' bus bandwidth, comparable across collectives).
  std::string bandwidth;
  if (s.message.bytes > 0 && s.durations.front() > 0) {
    double message =
        static_cast<double>(s.min_bytes) / static_cast<double>(s.durations.front()) * 1e9;
    std::string_view marker = trace.Name(s.message.marker);
    bool matches = MarkerMatchesKernel(marker, trace.Name(s.kernel));
    double bus = matches ? BusFactor(marker, ranks) : 0;
    bandwidth = bus > 0    ? fmt::format(", fastest {}/s on the links ({} ranks)",
                                      util::FormatBytes(message * bus),
                                      ranks)
                : !matches ? fmt::format(
                                 ", fastest {}/s of the marker's message (a {} kernel under "
                                 "{}: not that collective's bus bandwidth)",
                                 util::FormatBytes(message),
                                 KernelCollective(trace.Name(s.kernel)),
                                 marker)
                           : fmt::format(", fastest {}/s of message", util::FormatBytes(message));
  }
  return fmt::format("{}: {} calls, {} to {}{}",
                     SiteName(trace, s),
                     s.durations.size(),
                     Ms(s.durations.front()),
                     Ms(s.durations.back()),
                     bandwidth);
}

using SiteKey = std::tuple<model::NameId, std::string_view, bool, model::NameId, int>;

// The collectives' calls by site (kernel name, the innermost range around the launch, whether
// it was launched, its marker and message size within 2x), durations unsorted; empty without
// collectives.
std::map<SiteKey, Site> CollectSites(const model::Trace& trace,
                                     const CorrelationIndex& index,
                                     const report::AnalysisReport& r) {
  std::unordered_set<std::string_view> collectives;
  for (const report::KernelRow& k : r.kernels) {
    if (k.category == report::FrameworkCategory::kCommunication)
      collectives.insert(k.name);
  }
  if (collectives.empty())
    return {};
  // Per name id: 0 unknown, 1 a collective, 2 not.
  std::vector<std::uint8_t> is_collective(trace.strings.size(), 0);
  std::vector<std::pair<const model::GpuActivity*, std::int64_t>> calls;  // with its launch
  Threads threads;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind != model::ActivityKind::kKernel || a.name >= is_collective.size())
      continue;
    std::uint8_t& known = is_collective[a.name];
    if (known == 0)
      known = collectives.contains(trace.Name(a.name)) ? 1 : 2;
    if (known != 1)
      continue;
    std::int64_t call = index.PrimaryCall(a.correlation, a.pid);
    calls.emplace_back(&a, call);
    if (call >= 0) {
      const model::ApiCall& launch = trace.api_calls[static_cast<std::size_t>(call)];
      threads.insert({launch.pid, launch.tid});
    }
  }
  HostIntervals<std::string_view> ranges = SiteRanges(trace, threads);
  HostIntervals<Message> markers = MessageMarkers(trace, threads);
  std::map<SiteKey, Site> sites;
  for (const auto& [activity, call] : calls) {
    const model::GpuActivity& a = *activity;
    std::string_view range;
    Message message;
    if (call >= 0) {
      const model::ApiCall& launch = trace.api_calls[static_cast<std::size_t>(call)];
      if (const std::string_view* around = ranges.Of(launch))
        range = *around;
      if (const Message* m = markers.Of(launch); m && m->bytes > 0)
        message = *m;
    }
    Site& s = sites[{a.name, range, call >= 0, message.marker, SizeBucket(message.bytes)}];
    if (s.durations.empty()) {
      s.kernel = a.name;
      s.range = range;
      s.launched = call >= 0;
      s.message = message;
      s.min_bytes = s.max_bytes = message.bytes;
    }
    s.min_bytes = std::min(s.min_bytes, message.bytes);
    s.max_bytes = std::max(s.max_bytes, message.bytes);
    s.durations.push_back(a.duration_ns());
    s.total += a.duration_ns();
  }
  return sites;
}

// The sites whose calls spread far above their fastest, the sign of waiting (sorts each site's
// durations).
std::string WaitText(const model::Trace& trace,
                     const report::AnalysisReport& r,
                     std::map<SiteKey, Site>& sites,
                     std::int64_t& excess_out) {
  std::int64_t total = 0, excess = 0;
  std::vector<const Site*> spread, tight;
  for (auto& [key, site] : sites) {
    std::sort(site.durations.begin(), site.durations.end());
    for (std::int64_t d : site.durations)
      site.excess += d - site.durations.front();
    site.spreads = static_cast<double>(site.durations.back()) >=
                   kSpreadRatio * static_cast<double>(site.durations.front());
    total += site.total;
    // Orphans have no call site: their calls mix sites, so they say nothing either way.
    if (!site.launched || site.durations.size() < kSiteInstances)
      continue;
    if (site.spreads)
      excess += site.excess;
    (site.spreads ? spread : tight).push_back(&site);
  }
  if (spread.empty() && tight.empty())
    return "";
  auto by_time = [](const Site* a, const Site* b) { return a->total > b->total; };
  std::sort(spread.begin(), spread.end(), by_time);
  std::sort(tight.begin(), tight.end(), by_time);
  std::int64_t ranks = r.source.world_size.value_or(0);
  auto list = [&](const std::vector<const Site*>& of) {
    std::string out;
    for (std::size_t i = 0; i < of.size() && i < kSitesNamed; ++i)
      out += (i ? "; " : "") + SiteRange(trace, *of[i], ranks);
    if (of.size() > kSitesNamed)
      out += fmt::format("; {} more", of.size() - kSitesNamed);
    return out;
  };
  std::size_t sites_judged = spread.size() + tight.size();
  std::string text =
      spread.empty()
          ? fmt::format(
                "Grouped by call site (kernel name, the innermost annotation range around its "
                "launch, and the message size its marker records, within 2x), all {} sites of {} "
                "or more calls are tight, the slowest call under {:.1f}x the fastest ({}).",
                sites_judged,
                kSiteInstances,
                kSpreadRatio,
                list(tight))
          : fmt::format(
                "Grouped by call site (kernel name, the innermost annotation range around its "
                "launch, and the message size its marker records, within 2x), {} of the {} sites "
                "of {} or more calls spread, the slowest call at least {:.1f}x the fastest ({}){}.",
                spread.size(),
                sites_judged,
                kSiteInstances,
                kSpreadRatio,
                list(spread),
                tight.empty() ? ""
                              : fmt::format("; the other {} {} tight ({})",
                                            tight.size(),
                                            tight.size() == 1 ? "is" : "are",
                                            list(tight)));
  if (spread.empty())
    return text +
           fmt::format(
               " On this rank's evidence the collectives' {} of kernel time is transfer time, "
               "though a wait in every call would hide in the fastest; the other ranks' traces "
               "settle it (gpuperf ranks) (trace: kernel durations, annotation ranges, collective "
               "markers).",
               Ms(total));
  excess_out = excess;
  bool waits = static_cast<double>(excess) >= kExcessShare * static_cast<double>(total);
  return text +
         fmt::format(
             " Of the collectives' {} of kernel time, {} lies above the spreading sites' fastest "
             "calls{}. A collective runs until every rank arrives, so the same message taking "
             "longer at one site is the signature of waiting for other ranks (or of contention "
             "on the links); it is no measure of the wait, since a wait in every call hides in "
             "the fastest. The other ranks' traces settle it (gpuperf ranks). The timeline "
             "counts such a wait as GPU busy (trace: kernel durations, annotation ranges, "
             "collective markers).",
             Ms(total),
             Ms(excess),
             waits ? "" : ": most of the time is transfer time on this rank's evidence");
}

// Each call's time beyond what its message needs, summed: this rank's least wait for the others.
PeerWait PeerWaitIn(const model::Trace& trace, const std::map<SiteKey, Site>& sites) {
  PeerWait out;
  const Site* longest_site = nullptr;
  std::int64_t longest_call = 0, longest_wait = 0;
  for (const auto& [key, site] : sites) {
    // Only calls whose marker records the message: the largest of the site's, so the least wait.
    if (site.max_bytes <= 0)
      continue;
    const auto needed = static_cast<std::int64_t>(static_cast<double>(site.max_bytes) /
                                                  kSlowestLinkBytesPerS * 1e9) +
                        kCollectiveLatencyNs;
    for (std::int64_t d : site.durations) {
      const std::int64_t wait = std::max<std::int64_t>(0, d - needed);
      out.ns += wait;
      if (wait > longest_wait) {
        longest_wait = wait;
        longest_call = d;
        longest_site = &site;
      }
    }
    if (longest_site == &site)
      out.evidence = fmt::format(
          "the longest, {} taking {}, where its message needs {} at {}/s plus {} of latency",
          SiteName(trace, site),
          Ms(longest_call),
          Ms(needed - kCollectiveLatencyNs),
          util::FormatBytes(kSlowestLinkBytesPerS),
          Ms(kCollectiveLatencyNs));
  }
  return out;
}

}  // namespace

CollectiveEvidence CollectiveEvidenceOf(const model::Trace& trace,
                                        const CorrelationIndex& index,
                                        const report::AnalysisReport& r) {
  std::map<SiteKey, Site> sites = CollectSites(trace, index, r);
  CollectiveEvidence out;
  out.peer_wait = PeerWaitIn(trace, sites);
  out.wait_text = WaitText(trace, r, sites, out.excess_ns);
  return out;
}

void BoundThisRankOnly(report::Diagnosis& d,
                       const PeerWait& wait,
                       const report::AnalysisReport& r,
                       std::int64_t window_ns) {
  if (r.source.world_size.value_or(0) < 2 || !d.bound_speedup || window_ns <= 0 ||
      d.bottleneck == report::Bottleneck::kCommunicationBound ||
      d.bottleneck == report::Bottleneck::kInitialization)
    return;
  if (static_cast<double>(wait.ns) < kMaterialPeerWait * static_cast<double>(window_ns))
    return;
  const double window = static_cast<double>(window_ns);
  const double saved = window * (1.0 - 1.0 / *d.bound_speedup);
  const double kept = std::max(0.0, saved - static_cast<double>(wait.ns));
  const double only_this_rank = AmdahlLimit(kept / window);
  if (only_this_rank + 0.005 >= *d.bound_speedup)
    return;
  d.peer_wait_ns = wait.ns;
  d.bound_speedup_this_rank_only = only_this_rank;
  d.support.push_back(fmt::format(
      "This rank waits at least {} in its collectives for other ranks ({}): each call's time "
      "beyond what its message needs at a link slower than any between GPUs. It arrives before "
      "the ranks it waits for, so what it saves alone lengthens those waits: at most {:.2f}x if "
      "only this rank changes, and nothing if it is never the last to arrive; the {:.2f}x "
      "needs every rank to gain alike. gpuperf ranks over all ranks' traces names the ranks it "
      "waits for and the job's own bound (trace: collective markers, kernel durations).",
      Ms(wait.ns),
      wait.evidence,
      only_this_rank,
      *d.bound_speedup));
}

void HypothesisWhenCollectivesWait(report::Diagnosis& d,
                                   std::int64_t excess_ns,
                                   std::int64_t exposed_ns) {
  // Most of the exposed time above the sites' fastest calls: this rank waiting for the others (or
  // contention), which overlap hides only where independent computation remains (hta
  // trace_diff/control: 83.9 ms above the fastest beside 87.3 ms exposed).
  if (exposed_ns <= 0 || 4 * excess_ns < exposed_ns)
    return;
  d.status = report::DiagnosisStatus::kHypothesis;
  d.evidence = report::EvidenceTier::kInferred;
  d.support.push_back(fmt::format(
      "{} of the collectives' time lies above the fastest call of its site, against {} of "
      "exposed communication: waiting for other ranks or contention, not transfer, which overlap "
      "hides only where independent computation remains and no change on this rank alone "
      "removes; the class is a hypothesis until the other ranks' traces (gpuperf ranks) split "
      "the wait from the transfer (trace).",
      Ms(excess_ns),
      Ms(exposed_ns)));
}

}  // namespace gpuperf::analysis
