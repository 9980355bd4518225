// The triage's last step, the dominant work: the collective or kernel with the most critical
// time and its class, or launch-bound, and what the advice for the dominant kernel depends on
// (cache reuse, shape, grid, the TF32 tensor floor). Part of the diagnosis (diagnosis.cc).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <string_view>

#include "analysis/core/critical_term.h"
#include "analysis/core/names.h"
#include "analysis/diagnosis/diagnosis.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/diagnosis/input_check.h"
#include "analysis/findings/findings.h"
#include "analysis/kernel/cache_reuse.h"
#include "analysis/kernel/kernel_class.h"
#include "analysis/kernel/readable_name.h"
#include "analysis/predictions/amdahl.h"
#include "analysis/predictions/preroll.h"
#include "analysis/timeline/critical_time.h"
#include "model/ceilings.h"
#include "util/counted.h"
#include "util/intervals.h"
#include "util/units_format.h"
#include "util/utf8.h"

namespace gpuperf::analysis {

namespace {

// f of a kernel's critical time over the steady-state window (one-time work left out).
double SteadyFraction(const report::AnalysisReport& r,
                      const IdleAttribution& idle,
                      const report::CriticalShare& share) {
  return std::min(
      1.0,
      Fraction(share.critical_ns,
               SteadyWall(r, idle) * std::max<std::int64_t>(1, r.predictions.device_groups)));
}

// "The dominant kernel holds 19.4 ms of critical time, f = 5.7% of ...": `who` names the kernel.
std::string KernelShareText(std::string_view who,
                            const report::AnalysisReport& r,
                            const report::CriticalShare& share,
                            double f) {
  return fmt::format(
      "{} holds {} of {} time, f = {} of the steady-state wall time, over {} (trace).",
      who,
      Ms(share.critical_ns),
      CriticalAdjective(r.predictions),
      Pct(f),
      util::Counted(share.instances, "instance", "instances"));
}

void SetKernelClass(report::Diagnosis& d,
                    const report::AnalysisReport& r,
                    const IdleAttribution& idle,
                    const report::CriticalShare& share,
                    std::string& subject) {
  const report::KernelRow* row = FindKernel(r, share.name);
  subject.clear();  // kernel names are long: texts say "the dominant kernel" (dominant.name)
  d.dominant_kind = report::DominantKind::kKernel;
  d.dominant_name = share.name;
  const double f = SteadyFraction(r, idle, share);
  d.dominant_fraction = f;
  d.support.push_back(KernelShareText("The dominant kernel", r, share, f));
  if (share.max_local_speedup)
    d.bound_speedup = AmdahlSpeedup(f, *share.max_local_speedup);
  else if (f < 1.0)
    d.bound_speedup = AmdahlLimit(f);
  if (!row) {
    d.bottleneck = report::Bottleneck::kUnknown;
    d.status = report::DiagnosisStatus::kHypothesis;
    return;
  }
  const report::KernelClass& c = row->classification;
  if (!c.reason.empty())
    d.support.push_back(fmt::format("Class {}: {}.", report::ToString(c.bound), c.reason));
  if (row->tensor_cores)
    d.support.push_back(fmt::format("Tensor cores: {} ({}, {}).",
                                    row->tensor_cores->detail,
                                    ToString(row->tensor_cores->evidence),
                                    row->tensor_cores->source));
  if (row->occupancy) {
    std::string achieved =
        row->occupancy->achieved
            ? fmt::format("; achieved {:.0f}% (measured, {} instance(s) with counters)",
                          *row->occupancy->achieved * 100,
                          row->occupancy->achieved_instances)
            : std::string();
    d.support.push_back(
        fmt::format("That kernel's theoretical occupancy {:.0f}%, limited by {} (modeled){}.",
                    row->occupancy->theoretical * 100,
                    row->occupancy->limiter,
                    achieved));
  }
  if (c.tensor_cores_expected_but_unused) {
    d.bottleneck = report::Bottleneck::kTensorCoresUnused;
    d.evidence = report::EvidenceTier::kMeasured;
    d.status = report::DiagnosisStatus::kFinding;
    return;
  }
  d.bottleneck = report::BottleneckOf(c.bound);
  d.evidence = c.evidence;
  d.status = c.evidence == report::EvidenceTier::kMeasured ? report::DiagnosisStatus::kFinding
                                                           : report::DiagnosisStatus::kHypothesis;
}

// Share of kernel time in kernels of one class and basis: "launch" (many small launches), or
// "latency" on the basis "launch" (small kernels under one wave run as graph nodes,
// kernel_class.cc: fewer nodes by fusion remove it, graphs are already used).
double ClassShare(const report::AnalysisReport& r,
                  report::KernelBound bound,
                  std::string_view basis = {}) {
  std::int64_t total = 0, in_class = 0;
  for (const report::KernelRow& k : r.kernels) {
    total += k.duration_ns.total;
    if (k.classification.bound == bound && (basis.empty() || k.classification.basis == basis))
      in_class += k.duration_ns.total;
  }
  return Fraction(in_class, total);
}

}  // namespace

double LaunchClassShare(const report::AnalysisReport& r) {
  return ClassShare(r, report::KernelBound::kLaunch);
}

double SmallGraphNodeShare(const report::AnalysisReport& r) {
  return ClassShare(r, report::KernelBound::kLatency, "launch");
}

namespace {

// The ceilings the kernel was placed against, as analyze.cc resolved them for the devices of
// the report's ceilings[]: the candidate parts it names (an unnamed GPU), else each device's entry.
std::vector<const model::DeviceCeilings*> EntriesOf(const DeviceRoofsTable& roofs,
                                                    const report::AnalysisReport& r,
                                                    const report::KernelRoofline& roof) {
  const std::vector<std::string>& keys = roof.ceiling_candidates;
  std::vector<const model::DeviceCeilings*> out;
  for (const report::CeilingsUsed& c : r.ceilings) {
    const DeviceRoofs& device = roofs.Of(c.device);
    if (keys.empty() && device.match.entry)
      out.push_back(device.match.entry);
    for (const model::DeviceCeilings* entry : device.unnamed_candidates) {
      if (std::find(keys.begin(), keys.end(), entry->key) != keys.end())
        out.push_back(entry);
    }
  }
  return out;
}

// A GEMM-shaped FP32 kernel on CUDA cores of a GPU with TF32 tensor cores: its time over the
// floor at the TF32 tensor roof. The FP32 compute roof it was placed against (clock-scaled) is
// raised by the datasheet's TF32-tensor / FP32-vector ratio (the clock scaling cancels); the DRAM
// floor stays, unless the kernel shows no on-chip reuse: a tiled library GEMM moves far fewer
// DRAM bytes than it (its operands once, about), so its traffic is no floor for the change and the
// FLOPs alone bound it. Over several candidate parts, the largest ratio and bandwidth: an upper
// bound.
std::optional<double> TensorLocalSpeedup(const DeviceRoofsTable& roofs,
                                         const report::AnalysisReport& r,
                                         const report::KernelRow& row,
                                         bool traffic_falls) {
  if (!row.roofline || !IsMatrixShapedKernel(row.name))
    return std::nullopt;
  const report::KernelRoofline& roof = *row.roofline;
  if (roof.precision != "fp32" || roof.unit != "vector" || !roof.flops || !roof.dram_bytes ||
      !roof.achieved_flops_per_s || !roof.achieved_bytes_per_s || *roof.achieved_flops_per_s <= 0)
    return std::nullopt;
  double ratio = 0;
  for (const model::DeviceCeilings* entry : EntriesOf(roofs, r, roof)) {
    auto tf32 = entry->Peak(model::Precision::kTf32, model::MathUnit::kTensor);
    auto fp32 = entry->Peak(model::Precision::kFp32, model::MathUnit::kVector);
    if (tf32 && fp32 && *fp32 > 0)
      ratio = std::max(ratio, *tf32 / *fp32);
  }
  std::optional<double> compute_peak = roof.peak_flops_per_s;
  std::optional<double> bandwidth = roof.peak_bytes_per_s;
  if (!compute_peak && roof.compute_fraction_range && roof.compute_fraction_range->second > 0)
    compute_peak = *roof.achieved_flops_per_s / roof.compute_fraction_range->second;
  if (!bandwidth && roof.memory_fraction_range && roof.memory_fraction_range->first > 0)
    bandwidth = *roof.achieved_bytes_per_s / roof.memory_fraction_range->first;
  if (ratio <= 1 || !compute_peak || !bandwidth || *compute_peak <= 0 || *bandwidth <= 0)
    return std::nullopt;
  double seconds = *roof.flops / *roof.achieved_flops_per_s;
  double floor = *roof.flops / (*compute_peak * ratio);
  if (!traffic_falls)
    floor = std::max(floor, *roof.dram_bytes / *bandwidth);
  if (floor <= 0)
    return std::nullopt;
  return seconds / floor;
}

// FP8 tensor cores came with compute capability 8.9 (Ada) and 9.0 (Hopper), and stay after them.
bool HasFp8TensorCores(const model::Trace& trace) {
  return !trace.devices.empty() &&
         std::all_of(trace.devices.begin(), trace.devices.end(), [](const model::Device& d) {
           return d.compute_major > 8 || (d.compute_major == 8 && d.compute_minor >= 9);
         });
}

// What the advice for the dominant kernel depends on: its cache reuse, shape, grid and floor.
void DescribeDominantKernel(const model::Trace& trace,
                            const DeviceRoofsTable& roofs,
                            const report::AnalysisReport& r,
                            const report::CriticalShare& share,
                            ExperimentContext& context) {
  context.roof_local_speedup = share.max_local_speedup;  // SetKernelClass's bound rests on it
  const report::KernelRow* row = FindKernel(r, share.name);
  if (!row)
    return;
  if (row->roofline && (row->roofline->evidence == report::EvidenceTier::kMeasured ||
                        row->classification.bound == report::KernelBound::kCache)) {
    if (auto reuse = NoOnChipReuse(*row->roofline))
      context.no_reuse = NoReuseText(*reuse);
  }
  context.matrix_shaped = IsMatrixShapedKernel(row->name);
  if (row->roofline && row->roofline->evidence == report::EvidenceTier::kMeasured) {
    context.roof_precision = row->roofline->precision;
    context.roof_unit = row->roofline->unit;
  }
  context.fp8_tensor_cores = HasFp8TensorCores(trace);
  context.min_waves = MinWaves(trace, roofs, *row);
  context.grid_underfills = row->classification.bound == report::KernelBound::kLatency &&
                            row->classification.basis == kLaunchGridBasis;
  context.tensor_local_speedup = TensorLocalSpeedup(roofs, r, *row, !context.no_reuse.empty());
}

}  // namespace

// The dominant work's class: the collective or kernel with the most critical time, or
// launch-bound when launch-class kernels hold most of the kernel time.
void ClassifyDominantWork(const model::Trace& trace,
                          const DeviceRoofsTable& roofs,
                          report::Diagnosis& d,
                          const report::AnalysisReport& r,
                          const IdleAttribution& idle,
                          std::string& subject,
                          ExperimentContext& context) {
  double launch_share = LaunchClassShare(r);
  const report::CriticalShare* top = DominantKernelShare(r);
  // A collective with the most critical time while exposed communication stays a small share of
  // the window (the triage's "no") does not make the window communication-bound: the computation
  // around it is the dominant work (hta trace_diff/test: SendRecv 8.7% of the wall time, exposed
  // communication 9.7%, computation 73.8%).
  double exposed_comm = Fraction(r.timeline.exposed_communication_ns, SteadyWall(r, idle));
  if (top && IsCollective(r, top->name) && exposed_comm < kSecondaryIdleShare) {
    if (const report::CriticalShare* compute = DominantKernelShare(r, true)) {
      d.support.push_back(fmt::format(
          "The kernel with the most {} time is a collective ({} of the wall time), but "
          "exposed communication is {} of the window: the computation is the dominant work "
          "(trace).",
          CriticalAdjective(r.predictions),
          Pct(top->fraction),
          Pct(exposed_comm)));
      top = compute;
    }
  }
  if (top && IsCollective(r, top->name)) {
    SetCollectiveClass(d, r, *top, subject);
    if (!context.collective_evidence.wait_text.empty())
      d.support.push_back(context.collective_evidence.wait_text);
    HypothesisWhenCollectivesWait(
        d, context.collective_evidence.excess_ns, r.timeline.exposed_communication_ns);
  }
  const std::size_t top_evidence = d.support.size();  // where the top kernel's evidence starts
  if (top && !IsCollective(r, top->name))
    SetKernelClass(d, r, idle, *top, subject);
  if (launch_share >= kDominantShare) {
    d.bottleneck = report::Bottleneck::kLaunchBound;
    d.evidence = report::EvidenceTier::kMeasured;
    d.status = report::DiagnosisStatus::kFinding;
    d.support.push_back(fmt::format(
        "{} of kernel time is in kernels of a few microseconds on less than one wave; {} "
        "kernel launches (trace).",
        Pct(launch_share),
        r.audit.kernel_launches));
  } else if (!top) {
    d.bottleneck = report::Bottleneck::kUnknown;
    d.status = report::DiagnosisStatus::kHypothesis;
  }
  if (top && d.dominant_kind == report::DominantKind::kKernel && d.dominant_name == top->name &&
      d.bottleneck != report::Bottleneck::kLaunchBound)
    DescribeDominantKernel(trace, roofs, r, *top, context);
  WidenToFlatProfile(d, r, SteadyWall(r, idle), context);
  // A routine's statement (its line last) replaces the top kernel as the dominant work: its line
  // goes first, and the top kernel's evidence (its share, then its occupancy) is said to be that
  // kernel's, not the routine's (cloverleaf: PdV's occupancy under advec_mom's statement).
  if (top && d.dominant_kind == report::DominantKind::kRoutine &&
      top_evidence + 1 < d.support.size()) {
    std::rotate(d.support.begin() + static_cast<std::ptrdiff_t>(top_evidence),
                d.support.end() - 1,
                d.support.end());
    // SetKernelClass's share line, first at top_evidence before the rotation.
    d.support[top_evidence + 1] = KernelShareText(
        fmt::format("The top kernel by name, {} ({}; it and the lines below are not the "
                    "routine's figures),",
                    util::Shorten(ReadableKernelName(top->name), kReplacedKernelChars),
                    LambdaRoutine(top->name) == d.dominant_name ? "one of the routine's kernels"
                                                                : "a kernel of another routine"),
        r,
        *top,
        SteadyFraction(r, idle, *top));
  }
  WidenToClassPeers(d, r, SteadyWall(r, idle), context);
}

}  // namespace gpuperf::analysis
