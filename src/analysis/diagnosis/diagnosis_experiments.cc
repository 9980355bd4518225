// The one next experiment per bottleneck class, and the measurement that would falsify it
// (docs/method.md, "The bottleneck statement": one ranked next experiment and the measurement
// that would falsify the hypothesis). Texts name the subject and carry the Amdahl bound the
// diagnosis computed.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analysis/diagnosis/diagnosis.h"
#include "analysis/diagnosis/diagnosis_experiments_parts.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/findings/findings.h"
#include "analysis/predictions/amdahl.h"

namespace gpuperf::analysis {

namespace {

// The advice sends a GEMM-shaped FP32 kernel to a library GEMM on tensor cores: its bound is at
// the TF32 tensor roof, not at the FP32 floor it was classified against.
bool AdvisesTensorCores(const report::Diagnosis& d, const ExperimentContext& context) {
  if (!context.tensor_local_speedup || !context.matrix_shaped ||
      d.dominant_kind != report::DominantKind::kKernel)
    return false;
  const report::Bottleneck c = d.bottleneck;
  return c == report::Bottleneck::kComputeBound ||
         ((c == report::Bottleneck::kCacheBound || c == report::Bottleneck::kLatencyBound) &&
          !context.no_reuse.empty());
}

}  // namespace

// Host work moved beside the GPU still takes its time: the wall is then at least the larger of
// it and the rest of the window, and the first input's preparation (the idle before the first GPU
// work) overlaps nothing. Not for a multi-process DataLoader: its workers already run beside the
// GPU, and the main thread's time in the fetch is waiting for them, not work to overlap.
// window / (lead + max(host - lead, window - host)); a lead of 0 is a loop over inputs, where
// the next input's preparation overlaps this one's GPU work.
double BesideGpu(std::int64_t window_ns, std::int64_t host_ns, std::int64_t lead_ns) {
  double w = static_cast<double>(window_ns);
  double h = static_cast<double>(host_ns);
  double lead = static_cast<double>(lead_ns);
  return w / (lead + std::max(h - lead, w - h));
}

namespace {

std::optional<double> OverlapBound(const report::Diagnosis& d, const ExperimentContext& context) {
  if (d.bottleneck != report::Bottleneck::kHostBound ||
      d.status != report::DiagnosisStatus::kFinding || !context.host_outside_ops ||
      InputPipelineLever(d, context) || context.host_work_ns <= 0 ||
      context.window_ns <= context.host_work_ns)
    return std::nullopt;
  return BesideGpu(context.window_ns, context.host_work_ns, context.lead_ns);
}

}  // namespace

// A bf16/fp16 tensor-core kernel on a GPU with FP8 tensor cores: FP8 is the faster precision left.
bool AdvisesFp8(const ExperimentContext& context) {
  return context.roof_unit == "tensor" && context.fp8_tensor_cores &&
         (context.roof_precision == "bf16" || context.roof_precision == "fp16");
}

namespace {

std::string BoundText(const report::Diagnosis& d, const ExperimentContext& context) {
  if (!d.bound_speedup || !std::isfinite(*d.bound_speedup))
    return "";
  if (const auto& cap = context.host_wait_cap;
      cap &&
      (IsKernelWork(d.dominant_kind) || d.dominant_kind == report::DominantKind::kOperators ||
       d.dominant_kind == report::DominantKind::kCommunication) &&
      (cap->beside_idle_phase || KeepsLaunchCount(d))) {
    std::int64_t saved = SavedByBound(d, cap->wall_ns);
    if (cap->Binds(saved))
      return CappedBoundText(*cap, saved, d.bound_speedup_at_2x.has_value());
  }
  if (context.class_peers > 0) {
    double f = context.class_peer_fraction;
    const bool fp8 = AdvisesFp8(context) && context.class_peer_half_floor_bound;
    return fmt::format(
        " If it succeeds fully, these kernels at their roofline floors, the whole program is at "
        "most {:.2f}x faster (Amdahl over their floors{}; {} only if they took no time at all).{}",
        *d.bound_speedup,
        fp8 ? fmt::format("; at FP8's roof, twice theirs by the datasheet, {:.2f}x, an upper "
                          "bound that counts no conversion kernels",
                          *context.class_peer_half_floor_bound)
            : "",
        f < 1.0 ? fmt::format("{:.2f}x", 1.0 / (1.0 - f)) : std::string("unbounded"),
        context.class_peer_rest.empty()
            ? ""
            : fmt::format(" They are near their roofs, so little is left in them: {}; the "
                          "larger levers lie there, in the other kernels and the GPU idle.",
                          context.class_peer_rest));
  }
  if (context.roof_local_speedup) {  // name the floor, so the bound matches the Amdahl table's
    double f = d.dominant_fraction;
    std::string limit =
        f < 1.0 ? fmt::format("{:.2f}x", 1.0 / (1.0 - f)) : std::string("unbounded");
    if (AdvisesTensorCores(d, context))
      return fmt::format(
          " If it succeeds fully, the kernel at the TF32 tensor roof ({:.2f}x faster locally{}; "
          "{:.2f}x at its FP32 floor on CUDA cores{}), the whole program is at most {:.2f}x "
          "faster (Amdahl; {} only if the kernel took no time at all).",
          *context.tensor_local_speedup,
          context.no_reuse.empty() ? ""
                                   : ", its FLOPs alone: a tiled GEMM moves far fewer DRAM bytes "
                                     "than this kernel",
          *context.roof_local_speedup,
          context.no_reuse.empty() ? "" : ", which the on-chip reuse alone reaches",
          *d.bound_speedup,
          limit);
    return fmt::format(
        " If it succeeds fully, the kernel at its roofline floor ({:.2f}x faster locally), the "
        "whole program is at most {:.2f}x faster (Amdahl; {} only if the kernel took no time at "
        "all).",
        *context.roof_local_speedup,
        *d.bound_speedup,
        limit);
  }
  if (context.flat_kernels > 0 && d.bound_speedup_at_2x)
    return fmt::format(
        " If the measurement leads to these kernels running 2x faster, the whole program is "
        "{:.2f}x faster (Amdahl at an assumed 2x); at most {:.2f}x only if they took no time.",
        *d.bound_speedup_at_2x,
        *d.bound_speedup);
  std::string text =
      fmt::format(" If it succeeds fully the whole program is at most {:.2f}x faster (Amdahl).",
                  *d.bound_speedup);
  // The bound is over all host work in the gaps; the named work's own (SetIdleClass) is said
  // beside it.
  if (d.bound_speedup_named)
    text = fmt::format(
        " If it succeeds fully, all the host work in the gaps taking no time, the whole program "
        "is at most {:.2f}x faster (Amdahl); the named work, with what it calls, covers {} of "
        "the gaps: making only it free gives at most {:.2f}x.",
        *d.bound_speedup,
        Ms(context.named_host_work_ns),
        *d.bound_speedup_named);
  if (const std::optional<double>& overlapped = d.bound_speedup_overlapped)
    text += context.lead_ns > 0
                ? fmt::format(
                      " Overlapped with the GPU work without getting faster, it gives at most "
                      "{:.2f}x (window / (the {} before the first GPU work, which nothing "
                      "overlaps, + max(the rest of that host work, the rest of the window))).",
                      *overlapped,
                      Ms(context.lead_ns))
                : fmt::format(
                      " Overlapped with the GPU work without getting faster, it gives at most "
                      "{:.2f}x (window / max(that host work, the rest)).",
                      *overlapped);
  return text;
}

}  // namespace

bool InputPipelineLever(const report::Diagnosis& d, const ExperimentContext& context) {
  return d.bottleneck == report::Bottleneck::kHostBound &&
         d.status == report::DiagnosisStatus::kFinding && context.host_outside_ops &&
         context.loader_multiprocess &&
         context.loader_ns > context.host_work_ns - context.loader_ns;  // half, no overflow
}

void SetExperiment(report::Diagnosis& d,
                   const std::string& subject,
                   const ExperimentContext& context) {
  if (d.dominant_kind == report::DominantKind::kNone) {
    d.next_experiment =
        "Record GPU activity: trace the program with gpuperf baseline (or nsys -t cuda, "
        "torch.profiler with CUDA activities).";
    d.falsified_by = "Not applicable: the trace holds no GPU work.";
    d.missing_evidence = "The trace records no kernel, copy or memset.";
    return;
  }
  d.bound_speedup_overlapped = OverlapBound(d, context);  // the advice and its bound read it
  Advice advice = AdviceFor(d, subject, context);
  d.bound_speedup_across_inputs = advice.across_inputs;
  if (AdvisesTensorCores(d, context) && context.roof_local_speedup)
    d.bound_speedup = std::max(d.bound_speedup.value_or(1.0),
                               AmdahlSpeedup(d.dominant_fraction, *context.tensor_local_speedup));
  d.next_experiment = advice.experiment + BoundText(d, context);
  d.falsified_by = advice.falsified_by;
  if (d.status == report::DiagnosisStatus::kHypothesis)
    d.missing_evidence = advice.missing;
}

}  // namespace gpuperf::analysis
