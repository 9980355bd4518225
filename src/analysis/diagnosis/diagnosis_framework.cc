// The diagnosis on the framework view (issue 14 items 4, 7, 8): collectives recognised by their
// category, the lever of GPU-bound work chosen from operators and categories, and the secondary
// statement for the GPU half of a window that is also host-bound.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/core/critical_term.h"
#include "analysis/diagnosis/diagnosis.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/findings/findings.h"
#include "analysis/framework/levers.h"
#include "analysis/kernel/readable_name.h"
#include "analysis/predictions/amdahl.h"
#include "util/utf8.h"

namespace gpuperf::analysis {
namespace {

// Collectives holding at least this share of kernel time are named in the evidence.
constexpr double kCollectiveShare = 0.10;
// The GPU half of a host-bound window is diagnosed when computation covers this share of it.
constexpr double kSecondaryComputeShare = 0.30;

}  // namespace

bool IsCollective(const report::AnalysisReport& r, const std::string& kernel) {
  const report::KernelRow* row = FindKernel(r, kernel);
  return row && row->category == report::FrameworkCategory::kCommunication;
}

const report::CriticalShare* DominantComputeShare(const report::AnalysisReport& r,
                                                  bool collectives) {
  const report::CriticalShare* best = nullptr;
  for (const report::CriticalShare& s : r.predictions.kernels) {
    if (IsCollective(r, s.name) != collectives)
      continue;
    if (!best || s.critical_ns > best->critical_ns)
      best = &s;
  }
  return best;
}

void AddCollectiveEvidence(report::Diagnosis& d,
                           const report::AnalysisReport& r,
                           const std::string& wait) {
  std::int64_t total = 0, collective = 0;
  std::string names;
  for (const report::KernelRow& k : r.kernels) {
    total += k.duration_ns.total;
    if (k.category != report::FrameworkCategory::kCommunication)
      continue;
    collective += k.duration_ns.total;
    if (names.size() < 200)
      names += (names.empty() ? "" : ", ") + k.name.substr(0, 60);
  }
  if (total <= 0 || static_cast<double>(collective) < kCollectiveShare * static_cast<double>(total))
    return;
  std::string launchers;
  for (const report::CategoryRow& c : r.framework.categories) {
    if (c.category != report::FrameworkCategory::kCommunication)
      continue;
    for (const std::string& op : c.top_operators)
      launchers += (launchers.empty() ? "" : ", ") + OperatorDisplayName(r.framework, op);
  }
  d.support.push_back(fmt::format(
      "Collectives hold {} of kernel time ({}{}): communication, not computation; whether it "
      "waits on other ranks only a multi-rank view shows (gpuperf ranks) (trace: framework "
      "categories).",
      Pct(static_cast<double>(collective) / static_cast<double>(total)),
      names,
      launchers.empty() ? "" : "; launched by " + launchers));
  if (!wait.empty())
    d.support.push_back(wait);
}

void SetCollectiveClass(report::Diagnosis& d,
                        const report::AnalysisReport& r,
                        const report::CriticalShare& share,
                        std::string& subject) {
  d.bottleneck = report::Bottleneck::kCommunicationBound;
  d.dominant_kind = report::DominantKind::kCommunication;
  d.dominant_name = subject = share.name;
  d.dominant_fraction = share.fraction;
  d.status = report::DiagnosisStatus::kFinding;
  d.evidence = report::EvidenceTier::kMeasured;
  d.bound_speedup = share.limit_speedup;
  d.support.push_back(fmt::format(
      "The kernel with the most {} time is a collective ({} of the wall time, {} "
      "instances): its time is waiting for and exchanging data with other ranks, which no "
      "roofline of this rank explains (trace).",
      CriticalAdjective(r.predictions),
      Pct(share.fraction),
      share.instances));
  // The experiment overlaps all communication with computation, not only this kernel's: its
  // bound is the exposed communication's (control: 87.3 ms, 1.23x, against the top kernel's
  // 1.21x).
  std::int64_t wall = r.predictions.wall_ns > 0 ? r.predictions.wall_ns : r.timeline.total_ns;
  double exposed = Fraction(std::min(r.timeline.exposed_communication_ns, wall), wall);
  if (exposed > share.fraction) {
    d.bound_speedup = AmdahlLimit(exposed);
    d.support.push_back(
        fmt::format("Communication not overlapped by computation holds {} of the window ({}), all "
                    "collectives together: the bound of overlapping it (trace).",
                    Ms(r.timeline.exposed_communication_ns),
                    Pct(exposed)));
  }
  if (r.source.world_size && *r.source.world_size > 1)
    d.support.push_back(fmt::format(
        "The trace is rank {} of {}.", r.source.rank.value_or(-1), *r.source.world_size));
}

// Of a flat measurement's gain at 2x, the share an assumed-speedup lever must give back to be
// advised in its place.
constexpr double kConcreteLeverShare = 0.5;

bool ApplyLever(report::Diagnosis& d,
                const model::Trace& trace,
                const DeviceRoofsTable& roofs,
                const report::AnalysisReport& r,
                std::int64_t wall_ns,
                std::size_t kernel_evidence_from,
                const HostWaitCap* cap) {
  std::vector<framework::Lever> levers = framework::FindLevers(
      trace,
      roofs,
      r,
      wall_ns,
      // An empty span is the whole trace: the steady span differs only with a part left out.
      r.predictions.preroll || r.initialization.unobserved_tail_ns > 0 ? SteadySpan(trace, r)
                                                                       : util::Interval{});
  if (levers.empty())
    return false;
  const framework::Lever& lever = levers.front();
  // The kernel-level statement stays when it bounds more than the lever (a single kernel far
  // from its roof).
  // A flat profile's measurement is ranked by its gain at an assumed 2x, not its zero-time limit.
  std::optional<double> kernel_bound =
      d.bound_speedup_at_2x ? d.bound_speedup_at_2x : d.bound_speedup;
  // A measurement over the top kernels at an assumed 2x, and a lever at an assumed speedup that
  // gives back at least half of what it would: the lever is the concrete change to try first
  // (difftest: AMP on the FP32 GEMMs, 72 ms of the measurement's 84 ms).
  bool concrete_form = d.bound_speedup_at_2x && lever.assumed_local_speedup && wall_ns > 0 &&
                       static_cast<double>(lever.saved_ns) >=
                           kConcreteLeverShare * static_cast<double>(SavedByBound(d, wall_ns));
  // A lever's estimate at an assumed efficiency is compared by its ceiling, as the kernel's
  // roofline bound is one.
  const bool has_ceiling = lever.ceiling_saved_ns && wall_ns > 0;
  const double ceiling_fraction =
      has_ceiling
          ? std::min(0.99,
                     static_cast<double>(*lever.ceiling_saved_ns) / static_cast<double>(wall_ns))
          : 0.0;
  const double lever_bound = has_ceiling ? AmdahlLimit(ceiling_fraction) : lever.bound_speedup;
  if (kernel_bound && *kernel_bound > lever_bound + 1e-9 && IsKernelWork(d.dominant_kind) &&
      !concrete_form)
    return false;
  std::vector<std::string> lever_support;
  lever_support.push_back(
      fmt::format("Lever ({}): {}; {}.", ToString(lever.kind), lever.experiment, lever.basis));
  for (std::size_t i = 1; i < levers.size() && i < 3; ++i) {
    lever_support.push_back(fmt::format("Also possible ({}): {} {:.2f}x ({}).",
                                        ToString(levers[i].kind),
                                        levers[i].ceiling_saved_ns ? "about" : "at most",
                                        levers[i].bound_speedup,
                                        levers[i].basis));
  }
  // The lever's GEMMs on kernels for misaligned operands: part of why they are slow, and what
  // the change should also fix (owlv2: SDPA over align1 sm75 kernels, 230 ms).
  if (const report::Finding* f = FindFinding(r, report::finding_id::kGemmMisaligned);
      f && (lever.kind == report::LeverKind::kUseSdpa ||
            lever.kind == report::LeverKind::kTf32OrAmp || lever.kind == report::LeverKind::kAmp))
    lever_support.push_back(fmt::format(
        "Beside it, {} of GEMM time runs kernels built for misaligned operands ({}, trace): "
        "where the change replaces those GEMMs, the new path should reach aligned kernels ({}).",
        Ms(f->time_ns),
        f->id,
        lever.kind == report::LeverKind::kUseSdpa
            ? "scaled_dot_product_attention pads internally"
            : "pad the dimensions to multiples of 8 elements"));
  std::size_t at = std::min(kernel_evidence_from, d.support.size());
  if (at < d.support.size())
    // Said as what happened, then what the lines are (review 60: "the evidence of the statement
    // this lever replaced" read as a riddle).
    lever_support.push_back(fmt::format(
        "This lever was chosen over the statement{} ({}); the lines below are that statement's "
        "evidence, kept for reference: a class they name is its, not this lever's.",
        // Shortened as the headline's top kernel is: a Tensile name runs to 600 characters.
        d.dominant_name.empty() ? ""
        : d.dominant_kind == report::DominantKind::kRoutine
            ? " about the routine " + util::Shorten(d.dominant_name, kReplacedKernelChars)
            : " about the kernel " +
                  util::Shorten(ReadableKernelName(d.dominant_name), kReplacedKernelChars),
        concrete_form && kernel_bound && *kernel_bound > lever.bound_speedup
            ? fmt::format("measuring the top kernels would give {:.2f}x at an assumed 2x, and "
                          "this concrete change reaches at least half of that gain",
                          *kernel_bound)
            : "the lever bounds more"));
  d.support.insert(d.support.begin() + static_cast<std::ptrdiff_t>(at),
                   lever_support.begin(),
                   lever_support.end());
  // A lever on work beside the dominant kind (the optimizer step beside GEMMs measured at their
  // roof) leaves the measured class as it is: it is the next experiment, not the window's class.
  if (lever.kind == report::LeverKind::kFusedOptimizer &&
      d.status == report::DiagnosisStatus::kFinding && d.bottleneck != report::Bottleneck::kNone) {
    d.support.insert(
        d.support.begin() + static_cast<std::ptrdiff_t>(at),
        fmt::format("The class stays the measured one ({}): the lever acts on work beside the "
                    "dominant kernels, which are near their roofs.",
                    report::ToString(d.bottleneck)));
  } else {
    d.bottleneck = lever.bottleneck;
    d.status = report::DiagnosisStatus::kHypothesis;
    d.evidence = lever.kind == report::LeverKind::kTf32OrAmp ? report::EvidenceTier::kModeled
                                                             : report::EvidenceTier::kInferred;
    d.missing_evidence = lever.missing_evidence;
  }
  d.dominant_kind = report::DominantKind::kOperators;
  d.lever = lever.kind;
  d.dominant_name = lever.subject;
  d.dominant_fraction = lever.fraction;
  d.bound_speedup = lever.bound_speedup;
  d.bound_speedup_at_2x.reset();  // the lever's own bound ranks it
  d.bound_speedup_estimated.reset();
  // An estimate at an assumed efficiency: the bound is the ceiling at the roof itself.
  if (has_ceiling) {
    d.bound_speedup_estimated = lever.bound_speedup;
    d.bound_speedup = lever_bound;
    d.dominant_fraction = ceiling_fraction;  // "at most" this share: the ceiling's
  }
  // How much of the bound is assumed, and what the modelled part alone allows.
  std::string assumed;
  d.bound_speedup_modeled.reset();
  // An assumed part under 1% of the counted time moves no quoted figure: not worth a clause.
  if (lever.assumed_ns * 100 >= lever.saved_ns && lever.saved_ns > 0 && wall_ns > 0) {
    double modeled =
        static_cast<double>(lever.saved_ns - lever.assumed_ns) / static_cast<double>(wall_ns);
    d.bound_speedup_modeled = AmdahlLimit(std::min(0.99, std::max(0.0, modeled)));
    assumed = fmt::format(
        "; {} of the {} it counts rests on an assumption (work without a model counted as "
        "free): the modelled part alone gives {:.2f}x",
        Ms(lever.assumed_ns),
        Ms(lever.saved_ns),
        *d.bound_speedup_modeled);
  }
  // A lever bounded by an assumed local speedup reads like a flat profile's measurement: its
  // gain at that speedup ranks it, and the zero-time limit is only quoted.
  if (lever.assumed_local_speedup && wall_ns > 0) {
    d.bound_speedup_at_2x = lever.bound_speedup;
    d.dominant_fraction =
        std::min(0.99, static_cast<double>(lever.time_ns) / static_cast<double>(wall_ns));
    d.bound_speedup = AmdahlLimit(d.dominant_fraction);
    d.bound_speedup_modeled.reset();
  }
  d.next_experiment =
      cap && cap->Binds(lever.saved_ns) && (cap->beside_idle_phase || KeepsLaunchCount(d))
          ? lever.experiment + "." +
                CappedBoundText(*cap, lever.saved_ns, lever.assumed_local_speedup.has_value())
      : lever.assumed_local_speedup
          ? fmt::format(
                "{}. If those kernels run {:.0f}x faster (an assumed local speedup), the "
                "whole program is {:.2f}x faster (Amdahl, {} of the wall time; at most "
                "{:.2f}x only if they took no time).",
                lever.experiment,
                *lever.assumed_local_speedup,
                lever.bound_speedup,
                Pct(lever.fraction),
                d.bound_speedup.value_or(lever.bound_speedup))
      : d.bound_speedup_estimated
          ? fmt::format(
                "{}. If it succeeds, the whole program is about {:.2f}x faster with each kernel "
                "at the efficiency it has now (an assumption; Amdahl, {} of the wall time), and "
                "at most {:.2f}x at the roof itself, which no kernel reaches.",
                lever.experiment,
                *d.bound_speedup_estimated,
                Pct(lever.fraction),
                d.bound_speedup.value_or(lever.bound_speedup))
          : fmt::format(
                "{}. {} the whole program is at most {:.2f}x faster (Amdahl, {} of the wall "
                "time{}).",
                lever.experiment,
                // Raised later to the ceiling without the GPU's idle (diagnosis.cc): this bound
                // is then that lever's idle-kept case, not a second ceiling.
                cap && FewerLaunchesCeiling(d, *cap) ? "With the GPU's idle kept as now,"
                                                     : "If it succeeds fully",
                lever.bound_speedup,
                Pct(lever.fraction),
                assumed);
  d.falsified_by = lever.falsified_by + ".";
  return true;
}

std::vector<report::Diagnosis> SecondaryGpuStatement(const model::Trace& trace,
                                                     const DeviceRoofsTable& roofs,
                                                     const CorrelationIndex& index,
                                                     const report::Diagnosis& main,
                                                     const report::AnalysisReport& r,
                                                     double compute_share,
                                                     std::int64_t wall_ns,
                                                     const ExperimentContext& base) {
  if (compute_share < kSecondaryComputeShare || main.dominant_kind != report::DominantKind::kIdle)
    return {};
  report::Diagnosis s;
  s.target_metric = main.target_metric;
  s.scope = main.scope;
  s.baseline = main.baseline;
  s.triage.push_back({report::TriageQuestion::kDominantWork,
                      report::TriageAnswer::kYes,
                      fmt::format("computation covers {} of the window besides the idle time "
                                  "(trace)",
                                  Pct(compute_share))});
  std::string subject;
  HostWaitCap cap =
      HostWaitsOnGpu(trace, index, r, base.steady_span, wall_ns, base.blocked_launches);
  cap.host_work_ns = base.host_work_ns;
  cap.lead_ns = base.lead_ns;
  if (const report::CriticalShare* top = DominantComputeShare(r, false)) {
    s.dominant_kind = report::DominantKind::kKernel;
    s.dominant_name = top->name;
    s.dominant_fraction = top->fraction;
    s.bound_speedup = top->bound_speedup_at_roof ? top->bound_speedup_at_roof : top->limit_speedup;
    const report::KernelRow* row = FindKernel(r, top->name);
    s.bottleneck =
        row ? report::BottleneckOf(row->classification.bound) : report::Bottleneck::kUnknown;
    s.evidence = row ? row->classification.evidence : report::EvidenceTier::kInferred;
    s.status = s.evidence == report::EvidenceTier::kMeasured ? report::DiagnosisStatus::kFinding
                                                             : report::DiagnosisStatus::kHypothesis;
    s.support.push_back(fmt::format(
        "While the GPU runs, the kernel with the most {} time holds {} of the wall time "
        "(trace).",
        CriticalAdjective(r.predictions),
        Pct(top->fraction)));
    ExperimentContext context = SameInput(base);
    context.host_wait_cap = cap;
    WidenToFlatProfile(s, r, wall_ns, context);
    SetExperiment(s, subject, context);
  }
  if (!ApplyLever(s, trace, roofs, r, wall_ns, SIZE_MAX, &cap) &&
      s.dominant_kind == report::DominantKind::kUnset)
    return {};
  ApplyHostWaitCap(s, cap);
  // The term's meaning before the first line that uses it.
  if (r.predictions.on_gpu_timeline)
    s.support.insert(s.support.begin(), kGpuPhaseTimeText);
  if (s.bottleneck == report::Bottleneck::kNone)
    s.bottleneck = report::Bottleneck::kUnknown;
  if (s.status == report::DiagnosisStatus::kNone)
    s.status = report::DiagnosisStatus::kHypothesis;
  return {std::move(s)};
}

}  // namespace gpuperf::analysis
