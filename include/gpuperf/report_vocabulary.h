// The string vocabularies of the report model that are enum classes (report.h): a finding's
// severity, a statement's status, what dominates its window and its bottleneck class, a kernel's
// bound, the launch queue's and a phase's verdict, a framework lever's change, the diagnosis'
// lead, a framework operator's category, source and the tier that decided its category, an
// initialization item's kind, what a critical share is, each with the one ToString the writers
// spell it with (report.json keeps the same strings; a Parse where the report.json reader reads one
// back), and the typed mappings between the kernel bound and the bottleneck. The evidence tier,
// shared with the roofline and occupancy structs, is in gpuperf/evidence.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace gpuperf::report {

// How much a finding matters: report.json spells it "info" or "warning" (ToString).
enum class Severity { kInfo, kWarning };
inline std::string_view ToString(Severity severity) {
  switch (severity) {
    case Severity::kInfo:
      return "info";
    case Severity::kWarning:
      return "warning";
  }
  return "info";
}

// Whether a bottleneck statement is a finding (the evidence confirms it) or a hypothesis (it
// names the measurement that would test it); kNone before a statement is made. report.json spells
// them "finding", "hypothesis" and "" (ToString).
enum class DiagnosisStatus { kNone, kFinding, kHypothesis };
inline std::string_view ToString(DiagnosisStatus status) {
  switch (status) {
    case DiagnosisStatus::kNone:
      return "";
    case DiagnosisStatus::kFinding:
      return "finding";
    case DiagnosisStatus::kHypothesis:
      return "hypothesis";
  }
  return "";
}

// What dominates a statement's window: the GPU's idle, a kernel, the kernels of one source routine
// (the lambdas a RAJA/Kokkos routine instantiates, since 1.24.0), operators (a framework lever), a
// phase, copies, communication, one-time work, nothing (the trace holds no GPU work: "none"), GPU
// work of unknown duration ("unknown"); kUnset before a statement is made. report.json spells
// them "idle", "kernel", "routine", "operators", "phase", "copy", "communication",
// "initialization", "none", "unknown" and "" (ToString, diagnosis.dominant.kind).
enum class DominantKind {
  kUnset,
  kIdle,
  kKernel,
  kRoutine,
  kOperators,
  kPhase,
  kCopy,
  kCommunication,
  kInitialization,
  kNone,
  kUnknown,
};
inline std::string_view ToString(DominantKind kind) {
  switch (kind) {
    case DominantKind::kUnset:
      return "";
    case DominantKind::kIdle:
      return "idle";
    case DominantKind::kKernel:
      return "kernel";
    case DominantKind::kRoutine:
      return "routine";
    case DominantKind::kOperators:
      return "operators";
    case DominantKind::kPhase:
      return "phase";
    case DominantKind::kCopy:
      return "copy";
    case DominantKind::kCommunication:
      return "communication";
    case DominantKind::kInitialization:
      return "initialization";
    case DominantKind::kNone:
      return "none";
    case DominantKind::kUnknown:
      return "unknown";
  }
  return "";
}

// What limits a kernel (docs/metrics.md, "Classification"). The roofline's bound
// (KernelRoofline::bound) is one of kMemory, kCompute, kLatency and kUnknown; the kernel class
// (KernelClass::bound) adds kCache (under both roofs, cache traffic without on-chip reuse) and
// kLaunch (microsecond kernels of a fraction of a wave). report.json spells them "memory",
// "compute", "latency", "cache", "launch" and "unknown" (ToString).
enum class KernelBound { kUnknown, kMemory, kCompute, kLatency, kCache, kLaunch };
inline std::string_view ToString(KernelBound bound) {
  switch (bound) {
    case KernelBound::kUnknown:
      return "unknown";
    case KernelBound::kMemory:
      return "memory";
    case KernelBound::kCompute:
      return "compute";
    case KernelBound::kLatency:
      return "latency";
    case KernelBound::kCache:
      return "cache";
    case KernelBound::kLaunch:
      return "launch";
  }
  return "unknown";
}

// The class of a bottleneck statement (Diagnosis::bottleneck) or of the framework lever that
// treats it; kNone before a statement is made. report.json spells them "host_bound",
// "launch_bound", "sync_bound", "dependency_bound", "transfer_bound", "communication_bound",
// "memory_bound", "compute_bound", "latency_bound", "cache_bound", "tensor_cores_unused",
// "initialization", "unknown" and "" (ToString, diagnosis.bottleneck).
enum class Bottleneck {
  kNone,
  kUnknown,
  kHostBound,
  kLaunchBound,
  kSyncBound,
  kDependencyBound,
  kTransferBound,
  kCommunicationBound,
  kMemoryBound,
  kComputeBound,
  kLatencyBound,
  kCacheBound,
  kTensorCoresUnused,
  kInitialization,
};
inline std::string_view ToString(Bottleneck bottleneck) {
  switch (bottleneck) {
    case Bottleneck::kNone:
      return "";
    case Bottleneck::kUnknown:
      return "unknown";
    case Bottleneck::kHostBound:
      return "host_bound";
    case Bottleneck::kLaunchBound:
      return "launch_bound";
    case Bottleneck::kSyncBound:
      return "sync_bound";
    case Bottleneck::kDependencyBound:
      return "dependency_bound";
    case Bottleneck::kTransferBound:
      return "transfer_bound";
    case Bottleneck::kCommunicationBound:
      return "communication_bound";
    case Bottleneck::kMemoryBound:
      return "memory_bound";
    case Bottleneck::kComputeBound:
      return "compute_bound";
    case Bottleneck::kLatencyBound:
      return "latency_bound";
    case Bottleneck::kCacheBound:
      return "cache_bound";
    case Bottleneck::kTensorCoresUnused:
      return "tensor_cores_unused";
    case Bottleneck::kInitialization:
      return "initialization";
  }
  return "";
}

// The bottleneck class of work a kernel bound limits: kMemory -> kMemoryBound, ...,
// kLaunch -> kLaunchBound; kUnknown -> kUnknown.
inline Bottleneck BottleneckOf(KernelBound bound) {
  switch (bound) {
    case KernelBound::kUnknown:
      return Bottleneck::kUnknown;
    case KernelBound::kMemory:
      return Bottleneck::kMemoryBound;
    case KernelBound::kCompute:
      return Bottleneck::kComputeBound;
    case KernelBound::kLatency:
      return Bottleneck::kLatencyBound;
    case KernelBound::kCache:
      return Bottleneck::kCacheBound;
    case KernelBound::kLaunch:
      return Bottleneck::kLaunchBound;
  }
  return Bottleneck::kUnknown;
}

// The kernel bound a bottleneck class names (BottleneckOf's inverse): kMemoryBound -> kMemory,
// ...; kUnknown for a class that is not a kernel's (host-, sync-bound, initialization, ...).
inline KernelBound KernelBoundOf(Bottleneck bottleneck) {
  for (KernelBound bound : {KernelBound::kMemory,
                            KernelBound::kCompute,
                            KernelBound::kLatency,
                            KernelBound::kCache,
                            KernelBound::kLaunch}) {
    if (BottleneckOf(bound) == bottleneck)
      return bound;
  }
  return KernelBound::kUnknown;
}

// Who sets the pace by the launch queue's depth (LaunchQueue::verdict): the GPU (the host runs
// ahead), the host, the GPU waiting with a deep queue (an idle GPU: the diagnosis' reading), or
// undetermined (too few launches, slow launch calls, a program that drains the queue by
// synchronizing). report.json spells them "gpu_bound", "host_bound", "gpu_waits" and
// "undetermined" (ToString, diagnosis.queue.verdict).
enum class QueueVerdict { kUndetermined, kGpuBound, kHostBound, kGpuWaits };
inline std::string_view ToString(QueueVerdict verdict) {
  switch (verdict) {
    case QueueVerdict::kUndetermined:
      return "undetermined";
    case QueueVerdict::kGpuBound:
      return "gpu_bound";
    case QueueVerdict::kHostBound:
      return "host_bound";
    case QueueVerdict::kGpuWaits:
      return "gpu_waits";
  }
  return "undetermined";
}

// The change a framework lever names (Diagnosis::lever, the framework Lever::kind): fuse an
// elementwise chain, scaled_dot_product_attention for eager attention, channels_last for layout
// conversions, TF32 or AMP for FP32 GEMMs, AMP for FP32 convolutions and GEMMs on a GPU without
// TF32, a fused optimizer step. report.json spells them "fuse_elementwise", "use_sdpa",
// "channels_last", "tf32_or_amp", "amp", "fused_optimizer" and "" without a lever (ToString,
// diagnosis.lever).
enum class LeverKind {
  kNone,
  kFuseElementwise,
  kUseSdpa,
  kChannelsLast,
  kTf32OrAmp,
  kAmp,
  kFusedOptimizer
};
inline std::string_view ToString(LeverKind kind) {
  switch (kind) {
    case LeverKind::kNone:
      return "";
    case LeverKind::kFuseElementwise:
      return "fuse_elementwise";
    case LeverKind::kUseSdpa:
      return "use_sdpa";
    case LeverKind::kChannelsLast:
      return "channels_last";
    case LeverKind::kTf32OrAmp:
      return "tf32_or_amp";
    case LeverKind::kAmp:
      return "amp";
    case LeverKind::kFusedOptimizer:
      return "fused_optimizer";
  }
  return "";
}

// What the diagnosis leads with (Diagnosis::lead): the input check, when it bounds more than the
// statement's own lever, else the bottleneck; kNone without a bottleneck. report.json spells
// them "input_check" and "bottleneck", and kNone as null (ToString gives "", diagnosis.lead).
enum class DiagnosisLead { kNone, kInputCheck, kBottleneck };
inline std::string_view ToString(DiagnosisLead lead) {
  switch (lead) {
    case DiagnosisLead::kNone:
      return "";
    case DiagnosisLead::kInputCheck:
      return "input_check";
    case DiagnosisLead::kBottleneck:
      return "bottleneck";
  }
  return "";
}

// What a phase spent its time on (PhaseVerdict::verdict): its GPU work runs mostly after it
// (kRunsBehind), GPU work runs half of it or more (kGpuBound, kTransferBound when copies alone
// run longer than kernels), else the largest part of its idle (the next work already launched,
// blocking waits, blocking MPI calls, launch calls, device allocations, other CUDA calls, host
// work). report.json spells them "runs_behind", "gpu_bound", "transfer_bound",
// "dependency_bound", "sync_bound", "communication_bound", "launch_bound", "allocation_bound",
// "api_bound" and "host_bound" (ToString, phase_verdicts[].verdict).
enum class PhaseClass {
  kRunsBehind,
  kGpuBound,
  kTransferBound,
  kDependencyBound,
  kSyncBound,
  kCommunicationBound,
  kLaunchBound,
  kAllocationBound,
  kApiBound,
  kHostBound,
};
inline std::string_view ToString(PhaseClass verdict) {
  switch (verdict) {
    case PhaseClass::kRunsBehind:
      return "runs_behind";
    case PhaseClass::kGpuBound:
      return "gpu_bound";
    case PhaseClass::kTransferBound:
      return "transfer_bound";
    case PhaseClass::kDependencyBound:
      return "dependency_bound";
    case PhaseClass::kSyncBound:
      return "sync_bound";
    case PhaseClass::kCommunicationBound:
      return "communication_bound";
    case PhaseClass::kLaunchBound:
      return "launch_bound";
    case PhaseClass::kAllocationBound:
      return "allocation_bound";
    case PhaseClass::kApiBound:
      return "api_bound";
    case PhaseClass::kHostBound:
      return "host_bound";
  }
  return "host_bound";
}

// Which rule decided a framework operator's category (OperatorRow::category_tier): its own
// name, its kernels' names, or their activity kind (copies and memsets); kNone before one has.
// report.json spells them "operator", "kernel_name", "activity" and "" (ToString,
// framework.operators[].category_tier); ParseCategoryTier reads them back.
enum class CategoryTier { kNone, kOperator, kKernelName, kActivity };
inline std::string_view ToString(CategoryTier tier) {
  switch (tier) {
    case CategoryTier::kNone:
      return "";
    case CategoryTier::kOperator:
      return "operator";
    case CategoryTier::kKernelName:
      return "kernel_name";
    case CategoryTier::kActivity:
      return "activity";
  }
  return "";
}

// The tier report.json spells `text`; nullopt for a spelling this version does not know.
inline std::optional<CategoryTier> ParseCategoryTier(std::string_view text) {
  for (CategoryTier tier : {CategoryTier::kNone,
                            CategoryTier::kOperator,
                            CategoryTier::kKernelName,
                            CategoryTier::kActivity}) {
    if (ToString(tier) == text)
      return tier;
  }
  return std::nullopt;
}

// The framework category of a GPU activity (docs/metrics.md "Categories"; CategoryRow::category,
// OperatorRow::category, KernelRow::category): the launching operator's name decides first, the
// kernel name second, copies and memsets by their activity kind. The values index arrays of
// kFrameworkCategoryCount. report.json spells them "gemm", "attention", "convolution",
// "elementwise", "reduction_normalization", "copy_layout", "communication", "memset" and "other"
// (ToString, categories[].name, operators[].category, kernels[].category);
// ParseFrameworkCategory reads them back.
enum class FrameworkCategory : std::uint8_t {
  kGemm,
  kAttention,
  kConvolution,
  kElementwise,
  kReductionNormalization,
  kCopyLayout,
  kCommunication,
  kMemset,
  kOther,
};
inline constexpr std::size_t kFrameworkCategoryCount = 9;
inline std::string_view ToString(FrameworkCategory category) {
  switch (category) {
    case FrameworkCategory::kGemm:
      return "gemm";
    case FrameworkCategory::kAttention:
      return "attention";
    case FrameworkCategory::kConvolution:
      return "convolution";
    case FrameworkCategory::kElementwise:
      return "elementwise";
    case FrameworkCategory::kReductionNormalization:
      return "reduction_normalization";
    case FrameworkCategory::kCopyLayout:
      return "copy_layout";
    case FrameworkCategory::kCommunication:
      return "communication";
    case FrameworkCategory::kMemset:
      return "memset";
    case FrameworkCategory::kOther:
      return "other";
  }
  return "other";
}

// The category report.json spells `text`; nullopt for a spelling this version does not know.
inline std::optional<FrameworkCategory> ParseFrameworkCategory(std::string_view text) {
  for (std::size_t c = 0; c < kFrameworkCategoryCount; ++c) {
    auto category = static_cast<FrameworkCategory>(c);
    if (ToString(category) == text)
      return category;
  }
  return std::nullopt;
}

// What kind of one-time work an initialization item is (InitializationItem::kind): context
// creation, lazy module loading, JIT compilation, autotuning, a slow first call, CUDA graph
// capture, teardown, set-up (a communication library's init, allocations before the first GPU
// work). report.json spells them "context_creation", "lazy_loading", "jit_compile", "autotune",
// "first_call", "graph_capture", "teardown" and "setup" (ToString,
// diagnosis.initialization.items[].kind).
enum class InitializationKind {
  kContextCreation,
  kLazyLoading,
  kJitCompile,
  kAutotune,
  kFirstCall,
  kGraphCapture,
  kTeardown,
  kSetup,
};
inline std::string_view ToString(InitializationKind kind) {
  switch (kind) {
    case InitializationKind::kContextCreation:
      return "context_creation";
    case InitializationKind::kLazyLoading:
      return "lazy_loading";
    case InitializationKind::kJitCompile:
      return "jit_compile";
    case InitializationKind::kAutotune:
      return "autotune";
    case InitializationKind::kFirstCall:
      return "first_call";
    case InitializationKind::kGraphCapture:
      return "graph_capture";
    case InitializationKind::kTeardown:
      return "teardown";
    case InitializationKind::kSetup:
      return "setup";
  }
  return "first_call";
}

// Where a framework operator row comes from (OperatorRow::source) and what the view's operators
// are (FrameworkView::op_source): PyTorch cpu_op events, NVTX ranges where the input has no
// operators, or, for a row only, GPU work launched outside any operator (the row is named after
// its launch call); kNone for a view whose input has neither. report.json spells them "cpu_op",
// "nvtx", "launch_call" and "" (ToString, framework.op_source, operators[].source);
// ParseOperatorSource reads them back.
enum class OperatorSource { kNone, kCpuOp, kNvtx, kLaunchCall };
inline std::string_view ToString(OperatorSource source) {
  switch (source) {
    case OperatorSource::kNone:
      return "";
    case OperatorSource::kCpuOp:
      return "cpu_op";
    case OperatorSource::kNvtx:
      return "nvtx";
    case OperatorSource::kLaunchCall:
      return "launch_call";
  }
  return "";
}

// The source report.json spells `text`; nullopt for a spelling this version does not know.
inline std::optional<OperatorSource> ParseOperatorSource(std::string_view text) {
  for (OperatorSource source : {OperatorSource::kNone,
                                OperatorSource::kCpuOp,
                                OperatorSource::kNvtx,
                                OperatorSource::kLaunchCall}) {
    if (ToString(source) == text)
      return source;
  }
  return std::nullopt;
}

// What a share of the critical time is (CriticalShare::kind): a kernel, or a phase by the kind of
// its host ranges (NVTX ranges or torch.profiler annotations), also a phase verdict's
// (PhaseVerdict::kind). The values are in the order of their spellings. report.json spells them
// "kernel", "nvtx" and "user_annotation" (ToString, predictions.kernels[].kind,
// predictions.phases[].kind, phase_verdicts[].kind); ParseShareKind reads them back.
enum class ShareKind { kKernel, kNvtx, kUserAnnotation };
inline std::string_view ToString(ShareKind kind) {
  switch (kind) {
    case ShareKind::kKernel:
      return "kernel";
    case ShareKind::kNvtx:
      return "nvtx";
    case ShareKind::kUserAnnotation:
      return "user_annotation";
  }
  return "kernel";
}

// The kind report.json spells `text`; nullopt for a spelling this version does not know.
inline std::optional<ShareKind> ParseShareKind(std::string_view text) {
  for (ShareKind kind : {ShareKind::kKernel, ShareKind::kNvtx, ShareKind::kUserAnnotation}) {
    if (ToString(kind) == text)
      return kind;
  }
  return std::nullopt;
}

// Where the ceilings a device's kernels were placed against come from (CeilingsUsed::evidence, a
// ceilings entry's model::DeviceCeilings::evidence): the vendor's datasheet or a measurement on
// the GPU itself (gpuperf ceilings). report.json spells them "datasheet" and "measured"
// (ToString, ceilings[].evidence; report.md, roofline.svg and the roofline's ceiling source).
enum class CeilingsEvidence { kDatasheet, kMeasured };
inline std::string_view ToString(CeilingsEvidence evidence) {
  switch (evidence) {
    case CeilingsEvidence::kDatasheet:
      return "datasheet";
    case CeilingsEvidence::kMeasured:
      return "measured";
  }
  return "datasheet";
}

// A question of the application-level triage (TriageStep::question; docs/method.md, "Triage
// order"): one-time work in the window, the GPU's idle, exposed copies, exposed communication,
// the dominant work. report.json spells them "initialization", "gpu_idle", "transfer",
// "communication" and "dominant_work" (ToString, diagnosis.triage[].question).
enum class TriageQuestion { kInitialization, kGpuIdle, kTransfer, kCommunication, kDominantWork };
inline std::string_view ToString(TriageQuestion question) {
  switch (question) {
    case TriageQuestion::kInitialization:
      return "initialization";
    case TriageQuestion::kGpuIdle:
      return "gpu_idle";
    case TriageQuestion::kTransfer:
      return "transfer";
    case TriageQuestion::kCommunication:
      return "communication";
    case TriageQuestion::kDominantWork:
      return "dominant_work";
  }
  return "dominant_work";
}

// A triage step's answer (TriageStep::answer): yes (it decides the class), no, partly (a large
// minority that does not decide it: the GPU's idle, communication), unknown (the input cannot
// tell). report.json spells them "yes", "no", "partly" and "unknown" (ToString,
// diagnosis.triage[].answer).
enum class TriageAnswer { kYes, kNo, kPartly, kUnknown };
inline std::string_view ToString(TriageAnswer answer) {
  switch (answer) {
    case TriageAnswer::kYes:
      return "yes";
    case TriageAnswer::kNo:
      return "no";
    case TriageAnswer::kPartly:
      return "partly";
    case TriageAnswer::kUnknown:
      return "unknown";
  }
  return "unknown";
}

// What kind of host range a row of the range table is (RangeRow::kind), as the trace model's
// range kinds (model::RangeKind): NVTX, torch.profiler record_function on the host, the same
// projected by Kineto onto a GPU stream, ProfilerStep#N. report.json spells them "nvtx",
// "user_annotation", "gpu_user_annotation" and "profiler_step" (ToString, ranges[].kind);
// ParseRangeKind reads them back.
enum class RangeKind { kNvtx, kUserAnnotation, kGpuUserAnnotation, kProfilerStep };
inline std::string_view ToString(RangeKind kind) {
  switch (kind) {
    case RangeKind::kNvtx:
      return "nvtx";
    case RangeKind::kUserAnnotation:
      return "user_annotation";
    case RangeKind::kGpuUserAnnotation:
      return "gpu_user_annotation";
    case RangeKind::kProfilerStep:
      return "profiler_step";
  }
  return "nvtx";
}

// The kind report.json spells `text`; nullopt for a spelling this version does not know.
inline std::optional<RangeKind> ParseRangeKind(std::string_view text) {
  for (RangeKind kind : {RangeKind::kNvtx,
                         RangeKind::kUserAnnotation,
                         RangeKind::kGpuUserAnnotation,
                         RangeKind::kProfilerStep}) {
    if (ToString(kind) == text)
      return kind;
  }
  return std::nullopt;
}

}  // namespace gpuperf::report
