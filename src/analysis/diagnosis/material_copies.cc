// Exposed copies that no statement is about, named in the evidence: what they are, what
// overlapping or removing them would give, and what pinned host buffers would save. hta
// trace_diff/test: 12.8% of the window, mostly 27.9 GB of device-to-device copies; saxpy: 285 ms
// of synchronous copies from pageable memory at 13-14 GB/s on a PCIe Gen4 A100.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/core/names.h"
#include "analysis/core/statistics.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/findings/findings.h"
#include "analysis/kernel/device_roofs.h"
#include "analysis/kernel/readable_name.h"
#include "analysis/predictions/amdahl.h"
#include "util/intervals.h"
#include "util/units_format.h"

namespace gpuperf::analysis {
namespace {

// Exposed copies from this share of the window are named in the evidence.
constexpr double kMaterialCopyShare = 0.10;
// Copies from this size on are bandwidth-bound: under it a copy's time is its latency, which
// pinned memory does not shorten.
constexpr std::int64_t kBandwidthCopyBytes = 1 << 20;

// Large copies between pageable host memory and a GPU whose host link the datasheet states.
struct PageableCopies {
  std::int64_t copies = 0;
  std::int64_t bytes = 0;
  std::int64_t time_ns = 0;
  std::int64_t pinned_ns = 0;  // the same bytes at the link's peak (per copy, no more than now)
  std::string_view link;       // the datasheet's words for it
  double link_bytes_per_s = 0;
};

// The memory kind of a copy's host side (the source of a host-to-device copy, the destination
// of a device-to-host one); kUnknown for other copies.
model::MemoryKind HostSide(const model::GpuActivity& a) {
  return a.copy_kind == model::CopyKind::kHtoD   ? a.src_kind
         : a.copy_kind == model::CopyKind::kDtoH ? a.dst_kind
                                                 : model::MemoryKind::kUnknown;
}

bool PageableHostSide(const model::GpuActivity& a) {
  return HostSide(a) == model::MemoryKind::kPageable;
}

// Over the devices with a host link in their ceilings, the copies in the steady span; nullopt
// without such copies.
std::optional<PageableCopies> LargePageableCopies(const model::Trace& trace,
                                                  const DeviceRoofsTable& roofs,
                                                  util::Interval span) {
  std::map<std::int32_t, const model::DeviceCeilings*> links;  // per device, null: no link
  PageableCopies out;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind != model::ActivityKind::kMemcpy || a.bytes < kBandwidthCopyBytes ||
        a.duration_ns() <= 0 || !PageableHostSide(a) || !InSteadySpan(a, span))
      continue;
    auto [it, added] = links.try_emplace(a.device, nullptr);
    if (added) {
      const model::DeviceCeilings* c = roofs.Of(a.device).match.entry;
      it->second = c && c->host_link_bytes_per_s ? c : nullptr;
    }
    if (!it->second)
      continue;
    double at_peak = static_cast<double>(a.bytes) / *it->second->host_link_bytes_per_s * 1e9;
    ++out.copies;
    out.bytes += a.bytes;
    out.time_ns += a.duration_ns();
    out.pinned_ns += std::min(a.duration_ns(), static_cast<std::int64_t>(at_peak));
    out.link = it->second->host_link;
    out.link_bytes_per_s = *it->second->host_link_bytes_per_s;
  }
  if (out.copies == 0)
    return std::nullopt;
  return out;
}

// Whether a device that some pageable copy of the steady span runs on has a host link in its
// ceilings: without one, what pinned buffers save is not bounded.
bool PageableCopiesHaveLink(const model::Trace& trace,
                            const DeviceRoofsTable& roofs,
                            util::Interval span) {
  std::set<std::int32_t> seen;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind != model::ActivityKind::kMemcpy || !PageableHostSide(a) || !InSteadySpan(a, span) ||
        !seen.insert(a.device).second)
      continue;
    const model::DeviceCeilings* c = roofs.Of(a.device).match.entry;
    if (c && c->host_link_bytes_per_s)
      return true;
  }
  return false;
}

// The trace's own large copies between pinned host memory and a device, anywhere in it: the rate
// pinned buffers reach on this machine, measured.
struct PinnedRate {
  std::int64_t copies = 0;
  std::int64_t bytes = 0;
  std::int64_t time_ns = 0;
};

PinnedRate MeasuredPinnedRate(const model::Trace& trace) {
  PinnedRate out;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind != model::ActivityKind::kMemcpy || HostSide(a) != model::MemoryKind::kPinned ||
        a.bytes < kBandwidthCopyBytes || a.duration_ns() <= 0)
      continue;
    ++out.copies;
    out.bytes += a.bytes;
    out.time_ns += a.duration_ns();
  }
  return out;
}

// What pinned buffers would save, capped at the exposed copy time: a copy shortens the wall only
// where nothing overlaps it. `saved_ns`: at the link's datasheet peak; `measured_saved_ns`: at
// the rate of the trace's own pinned copies, when it has them (else 0).
struct PinnedSaving {
  std::string text;  // "" when nothing would be saved
  std::int64_t saved_ns = 0;
  std::int64_t measured_saved_ns = 0;
};

PinnedSaving PinnedBound(const model::Trace& trace,
                         const DeviceRoofsTable& roofs,
                         const report::Initialization& init,
                         util::Interval span,
                         std::int64_t window_ns,
                         std::int64_t exposed_copy_ns) {
  PinnedSaving out;
  std::optional<PageableCopies> p = LargePageableCopies(trace, roofs, span);
  if (!p || window_ns <= 0)
    return out;
  std::int64_t saved = std::min(p->time_ns - p->pinned_ns, exposed_copy_ns);
  if (saved <= 0)
    return out;
  out.saved_ns = saved;
  double achieved = static_cast<double>(p->bytes) / static_cast<double>(p->time_ns) * 1e9;
  // The same bytes at the rate this trace's pinned copies reach (never above the link's peak):
  // a measured estimate beside the datasheet's upper bound.
  std::string measured;
  if (PinnedRate pinned = MeasuredPinnedRate(trace); pinned.copies > 0 && pinned.time_ns > 0) {
    double rate =
        std::min(p->link_bytes_per_s,
                 static_cast<double>(pinned.bytes) / static_cast<double>(pinned.time_ns) * 1e9);
    auto at_rate = static_cast<std::int64_t>(static_cast<double>(p->bytes) / rate * 1e9);
    std::int64_t measured_saved =
        std::min(std::max<std::int64_t>(0, p->time_ns - at_rate), exposed_copy_ns);
    if (rate > achieved && measured_saved > 0) {
      out.measured_saved_ns = measured_saved;
      measured = fmt::format(
          " This trace's own pinned copies of 1 MiB or more move at {}/s ({} copies, "
          "measured): at that rate they would take {} less, {:.2f}x (trace).",
          util::FormatBytes(rate),
          pinned.copies,
          Ms(measured_saved),
          AmdahlLimit(static_cast<double>(measured_saved) / static_cast<double>(window_ns)));
    }
  }
  const std::int64_t pinning_ns = PinningCostNs(trace, init);
  out.text = fmt::format(
      " {} of them ({}, {}) have a pageable host side, which the runtime stages through a pinned "
      "buffer: they move at {}/s. The host link's peak is {}/s each way ({}); with pinned host "
      "buffers (cudaHostAlloc or cudaHostRegister, tensor.pin_memory()), allocated once outside "
      "the loop since pinning memory is slow, they would take at most {} less at that peak: at "
      "most {:.2f}x (Amdahl; the datasheet peak, which copies do not reach, so an upper "
      "bound).{}{}",
      p->copies,
      util::FormatBytes(static_cast<double>(p->bytes)),
      Ms(p->time_ns),
      util::FormatBytes(achieved),
      util::FormatBytes(p->link_bytes_per_s),
      p->link,
      Ms(saved),
      AmdahlLimit(static_cast<double>(saved) / static_cast<double>(window_ns)),
      measured,
      pinning_ns > 0
          ? fmt::format(" Pinning is not free: this trace's own pinning and unpinning calls "
                        "took {} of host time (one-time work, outside the window), which the "
                        "gain pays back only over enough reuse of the buffers (trace).",
                        Ms(pinning_ns))
          : std::string());
  return out;
}

// Each copy kind's time no kernel overlaps, and its copies, bytes and total time: the kinds as
// the exposed share counts them (a copy hidden under kernels costs nothing).
struct ExposedKind {
  std::string label;
  std::int64_t exposed_ns = 0;
  std::int64_t total_ns = 0;
  std::int64_t copies = 0;
  std::int64_t bytes = 0;
  // Every copy of the kind runs on a stream that also runs kernels. Device-to-device copies there
  // are part of the computation, in stream order with the kernels that produce and read their
  // data: only removing them helps (difftest: DtoD on stream 7). A copy from the host can still
  // move to another stream as a prefetch.
  bool on_kernel_streams = true;
};

std::vector<ExposedKind> ExposedKinds(const model::Trace& trace, util::Interval span) {
  std::set<std::pair<std::int32_t, std::int64_t>> kernel_streams;  // (device, stream)
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind == model::ActivityKind::kKernel)
      kernel_streams.insert({a.device, a.stream});
  }
  std::map<std::string, std::vector<util::Interval>> spans;
  std::map<std::string, ExposedKind> kinds;
  for (const model::GpuActivity& a : trace.activities) {
    if ((a.kind == model::ActivityKind::kMemcpy || a.kind == model::ActivityKind::kMemset) &&
        InSteadySpan(a, span)) {
      std::string label = MemoryOpLabel(a);
      spans[label].push_back({a.start_ns, a.end_ns});
      ExposedKind& k = kinds[label];
      k.label = label;
      k.total_ns += a.duration_ns();
      ++k.copies;
      k.bytes += a.bytes;
      k.on_kernel_streams = k.on_kernel_streams && a.stream != model::kNoId &&
                            kernel_streams.contains({a.device, a.stream});
    }
  }
  std::vector<util::Interval> kernels = KernelBusy(trace);
  std::vector<ExposedKind> out;
  for (auto& [label, intervals] : spans) {
    ExposedKind k = kinds[label];
    k.exposed_ns =
        util::TotalLength(util::Subtract(util::MergeIntervals(std::move(intervals)), kernels));
    out.push_back(std::move(k));
  }
  std::stable_sort(out.begin(), out.end(), [](const ExposedKind& a, const ExposedKind& b) {
    return a.exposed_ns > b.exposed_ns;
  });
  return out;
}

}  // namespace

// Host time the trace spends pinning and unpinning memory (cudaHostAlloc, cudaMallocHost,
// cudaHostRegister and their frees), each call once: what pinning costs, once per buffer.
static bool PinningApi(std::string_view name) {
  name = StripVersionSuffix(name);
  return ContainsNoCase(name, "HostAlloc") || ContainsNoCase(name, "MallocHost") ||
         ContainsNoCase(name, "HostRegister") || ContainsNoCase(name, "FreeHost") ||
         ContainsNoCase(name, "HostUnregister");
}

// A first call that is one-time work (initialization's items: the process's first CUDA call
// creates the context) counts at its name's median: the rest is not pinning (saxpy: the first
// cudaHostRegister, inside MPI_Init, 305 ms of the 318 ms its pinning calls took).
std::int64_t PinningCostNs(const model::Trace& trace, const report::Initialization& init) {
  CachedNamePredicate pinning(trace, PinningApi);
  std::set<std::int64_t> seen;
  std::map<model::NameId, std::vector<std::int64_t>> durations;
  std::map<model::NameId, std::size_t> first;  // the earliest call of each name
  std::vector<const model::ApiCall*> calls;
  for (const model::ApiCall& c : trace.api_calls) {
    if (!pinning(c.name) || (c.correlation != model::kNoId && !seen.insert(c.correlation).second))
      continue;
    auto [it, added] = first.try_emplace(c.name, calls.size());
    if (!added && c.start_ns < calls[it->second]->start_ns)
      it->second = calls.size();
    durations[c.name].push_back(c.duration_ns());
    calls.push_back(&c);
  }
  std::int64_t ns = 0;
  for (const model::ApiCall* c : calls)
    ns += c->duration_ns();
  for (const auto& [name, at] : first) {
    const bool one_time =
        std::any_of(init.items.begin(), init.items.end(), [&](const report::InitializationItem& i) {
          return (i.kind == report::InitializationKind::kFirstCall ||
                  i.kind == report::InitializationKind::kContextCreation) &&
                 (i.name == trace.Name(name) || i.name == StripVersionSuffix(trace.Name(name)));
        });
    if (one_time)
      ns -= calls[at]->duration_ns() - UpperMedian(durations[name]);
  }
  return ns;
}

void AddMaterialCopies(report::Diagnosis& d,
                       const model::Trace& trace,
                       const DeviceRoofsTable& roofs,
                       const report::AnalysisReport& r,
                       double transfer,
                       double triage_share,
                       std::int64_t window_ns,
                       std::int64_t exposed_copy_ns) {
  auto about_copies = [](const report::Diagnosis& s) {
    return s.bottleneck == report::Bottleneck::kTransferBound;
  };
  if (transfer < kMaterialCopyShare || about_copies(d) ||
      std::any_of(d.secondary.begin(), d.secondary.end(), about_copies) || r.memory_ops.empty())
    return;
  std::string kinds;
  const util::Interval span = SteadySpan(trace, r);
  std::vector<ExposedKind> exposed = ExposedKinds(trace, span);
  for (std::size_t i = 0; i < exposed.size() && i < 2; ++i) {
    const ExposedKind& k = exposed[i];
    kinds += fmt::format(
        "{}{} {} exposed of {} in {} copies ({}){}",
        i ? "; " : "",
        k.label,
        Ms(k.exposed_ns),
        Ms(k.total_ns),
        k.copies,
        util::FormatBytes(static_cast<double>(k.bytes)),
        k.on_kernel_streams && k.exposed_ns > 0 && k.label.find("DtoD") != std::string::npos
            ? ", all on streams that run kernels: part of the computation, "
              "so removing them is the lever, not overlapping them"
            : "");
  }
  std::string issuers;
  int named = 0;
  for (const report::OperatorRow& op : r.framework.operators) {
    if (op.category != report::FrameworkCategory::kCopyLayout || op.kernel_ns <= 0)
      continue;
    issuers += fmt::format("{}{} ({})",
                           issuers.empty() ? "" : ", ",
                           OperatorDisplayName(r.framework, op.name),
                           Ms(op.kernel_ns));
    if (++named == 3)
      break;
  }
  // Beside a statement bounded at an assumed 2x: copies near the memory's bandwidth are removed
  // or hidden rather than made faster, so their removal bound is what compares, with the
  // statement's 2x figure and its limit.
  std::string same_terms;
  if (d.bound_speedup_at_2x && d.bound_speedup) {
    double removed = AmdahlLimit(transfer);
    same_terms = removed >= *d.bound_speedup_at_2x
                     ? fmt::format(
                           " Their removal bound is of the order of the statement's ({:.2f}x at "
                           "an assumed 2x, {:.2f}x at most): a parallel experiment, not a later "
                           "one.",
                           *d.bound_speedup_at_2x,
                           *d.bound_speedup)
                     : fmt::format(
                           " Their removal bound is below the statement's {:.2f}x at an assumed "
                           "2x: they rank after it.",
                           *d.bound_speedup_at_2x);
  }
  d.support.push_back(fmt::format(
      "Copies not overlapped by kernels hold {} of the window, {}: {}{}. Overlapped with kernels "
      "or removed, they would give at most {:.2f}x (Amdahl; trace: memory operations).{}{}",
      Pct(transfer),
      transfer < triage_share
          ? fmt::format("under the triage's {} but material", Pct(triage_share))
          : fmt::format("above the triage's {} (it stops at its first yes, before its transfer "
                        "step)",
                        Pct(triage_share)),
      kinds,
      issuers.empty() ? "" : "; the operators issuing copy work: " + issuers,
      AmdahlLimit(transfer),
      same_terms,
      PinnedBound(trace, roofs, r.initialization, span, window_ns, exposed_copy_ns).text));
}

std::vector<report::Diagnosis> SecondaryTransferStatement(const model::Trace& trace,
                                                          const DeviceRoofsTable& roofs,
                                                          const report::Diagnosis& main,
                                                          const report::AnalysisReport& r,
                                                          double transfer,
                                                          double triage_share,
                                                          std::int64_t window_ns,
                                                          std::int64_t exposed_copy_ns,
                                                          const ExperimentContext& base) {
  if (transfer < triage_share || main.dominant_kind != report::DominantKind::kIdle ||
      !main.secondary.empty() || r.memory_ops.empty() || window_ns <= 0)
    return {};
  report::Diagnosis s;
  s.target_metric = main.target_metric;
  s.scope = main.scope;
  s.baseline = main.baseline;
  s.triage.push_back(
      {report::TriageQuestion::kTransfer,
       report::TriageAnswer::kYes,
       fmt::format("copies not overlapped by kernels: {} of the window (trace)", Pct(transfer))});
  s.bottleneck = report::Bottleneck::kTransferBound;
  s.dominant_kind = report::DominantKind::kCopy;
  s.dominant_fraction = transfer;
  s.status = report::DiagnosisStatus::kFinding;
  s.evidence = report::EvidenceTier::kMeasured;
  s.bound_speedup = AmdahlLimit(std::min(1.0, transfer));
  std::string subject = r.memory_ops.front().operation;
  s.dominant_name = subject;
  s.support.push_back(
      fmt::format("Exposed copies: {} of the {} window, not overlapped by computation (trace).",
                  Ms(exposed_copy_ns),
                  Ms(window_ns)));
  PinnedSaving pinned =
      PinnedBound(trace, roofs, r.initialization, SteadySpan(trace, r), window_ns, exposed_copy_ns);
  if (!pinned.text.empty())
    s.support.push_back(pinned.text.substr(1));  // its leading space
  if (const report::Finding* f = FindFinding(r, report::finding_id::kPageableAsyncMemcpy))
    s.support.push_back(fmt::format("{} ({}, trace).", f->summary, f->id));
  ExperimentContext context = SameInput(base);
  SetExperiment(s, subject, context);
  // Pageable copies: pinning them is the concrete change, bounded at the rate the trace's own
  // pinned copies reach (else the link's peak); hiding every copy stays the upper limit.
  std::int64_t saved = pinned.measured_saved_ns > 0 ? pinned.measured_saved_ns : pinned.saved_ns;
  if (saved > 0) {
    double bound = AmdahlLimit(static_cast<double>(saved) / static_cast<double>(window_ns));
    s.next_experiment = fmt::format(
        "Pin the host buffers of the pageable copies (cudaHostAlloc or cudaHostRegister, "
        "allocated once outside the loop; tensor.pin_memory()), then overlap what remains with "
        "kernels on another stream. Pinned, the program is at most {:.2f}x faster ({}; hiding "
        "every copy would give at most {:.2f}x, Amdahl).",
        bound,
        pinned.measured_saved_ns > 0 ? "at the rate this trace's own pinned copies reach, measured"
                                     : "at the host link's datasheet peak, an upper bound",
        *s.bound_speedup);
    s.falsified_by =
        "After pinning, the copies' rate must rise toward the pinned copies' and the exposed "
        "copy time fall; if the rate stays, the copies are bound by the link or by their size, "
        "and only fewer bytes help.";
    s.bound_speedup = bound;
  }
  return {std::move(s)};
}

void AttachPinnedSavings(const model::Trace& trace,
                         const DeviceRoofsTable& roofs,
                         const TraceWindow& window,
                         report::AnalysisReport& report) {
  std::optional<std::int64_t> saving;
  bool computed = false;
  for (report::Finding& f : report.findings) {
    if (f.id != report::finding_id::kSyncMemcpy && f.id != report::finding_id::kPageableAsyncMemcpy)
      continue;
    if (!computed) {  // once, for the first copy finding
      computed = true;
      const util::Interval span = SteadySpan(window, report);
      if (PageableCopiesHaveLink(trace, roofs, span)) {
        std::optional<PageableCopies> p = LargePageableCopies(trace, roofs, span);
        saving = p ? p->time_ns - p->pinned_ns : 0;
      }
    }
    f.pinned_saving_ns = saving;
  }
}

}  // namespace gpuperf::analysis
