// The advice per bottleneck class: the next experiment, the measurement that would falsify it
// and the evidence a hypothesis lacks (AdviceFor), the first step of a table that applies. Part
// of the next experiment (diagnosis_experiments.cc); the steps' texts are in
// diagnosis_advice_{idle,host,gpu}.cc.
#include <string_view>

#include "analysis/diagnosis/diagnosis.h"
#include "analysis/diagnosis/diagnosis_advice_steps.h"
#include "analysis/diagnosis/diagnosis_experiments_parts.h"

namespace gpuperf::analysis {

namespace {

using advice::AdviceInput;

// One step: for the class `bottleneck` (any class when empty), when `applies` holds (always
// when null), the advice `advise` gives. The first step that matches wins, so a case comes
// before its class's general step.
struct AdviceStep {
  std::string_view bottleneck;
  bool (*applies)(const AdviceInput& in);
  Advice (*advise)(const AdviceInput& in);
};

bool IsOneShot(const AdviceInput& in) {
  return in.context.one_shot;
}
bool HasImplicitSync(const AdviceInput& in) {
  return in.context.implicit_sync;
}
bool InGraphs(const AdviceInput& in) {
  return in.context.graphs;
}
// The gaps are mostly the data loader waiting for its worker processes: the input pipeline
// does not keep up (each batch fetched while the GPU idles).
bool LoaderFillsGaps(const AdviceInput& in) {
  return InputPipelineLever(in.d, in.context);
}
// Most of that host work precedes the first GPU work (one call, its input prepared first):
// beside the GPU it would overlap almost nothing, so only making it faster pays.
bool OverlapPaysLittle(const AdviceInput& in) {
  const std::optional<double>& overlapped = in.d.bound_speedup_overlapped;
  return overlapped && *overlapped < kOverlapPays;
}
bool FindingOutsideOperators(const AdviceInput& in) {
  return in.d.status == report::DiagnosisStatus::kFinding && in.context.host_outside_ops;
}
bool IsFinding(const AdviceInput& in) {
  return in.d.status == report::DiagnosisStatus::kFinding;
}
bool HasNoReuse(const AdviceInput& in) {
  return !in.context.no_reuse.empty();
}
bool HasFlatRoutine(const AdviceInput& in) {
  return !in.context.flat_routine.empty();
}
bool HasFlatKernels(const AdviceInput& in) {
  return in.context.flat_kernels > 0;
}

// In order: the idle classes, the host-bound cases, the GPU classes, then (for a dominant kernel
// nothing classifies) the flat profile and the measurement of the dominant kernel.
constexpr AdviceStep kSteps[] = {
    {"initialization", IsOneShot, advice::InitializationOneShot},
    {"initialization", nullptr, advice::Initialization},
    {"dependency_bound", nullptr, advice::DependencyBound},
    {"sync_bound", HasImplicitSync, advice::ImplicitSync},
    {"sync_bound", nullptr, advice::SyncBound},
    {"launch_bound", InGraphs, advice::LaunchBoundInGraphs},
    {"launch_bound", nullptr, advice::LaunchBound},
    {"", LoaderFillsGaps, advice::InputPipeline},
    {"host_bound", OverlapPaysLittle, advice::HostWorkBeforeGpu},
    {"host_bound", FindingOutsideOperators, advice::HostOutsideOperators},
    {"host_bound", IsFinding, advice::HostInOperators},
    {"host_bound", nullptr, advice::HostUnrecorded},
    {"transfer_bound", nullptr, advice::TransferBound},
    {"communication_bound", nullptr, advice::CommunicationBound},
    {"memory_bound", nullptr, advice::MemoryBound},
    {"compute_bound", nullptr, advice::ComputeBound},
    {"cache_bound", HasNoReuse, advice::NoOnChipReuse},
    {"latency_bound", HasNoReuse, advice::NoOnChipReuse},
    {"latency_bound", nullptr, advice::LatencyBound},
    {"tensor_cores_unused", nullptr, advice::TensorCoresUnused},
    {"", HasFlatRoutine, advice::FlatRoutine},
    {"", HasFlatKernels, advice::FlatKernels},
};

}  // namespace

Advice AdviceFor(const report::Diagnosis& d,
                 const std::string& subject,
                 const ExperimentContext& context) {
  const AdviceInput in{d, subject, context, ToolsFor(context.amd)};
  for (const AdviceStep& step : kSteps) {
    if (!step.bottleneck.empty() && step.bottleneck != d.bottleneck)
      continue;
    if (step.applies == nullptr || step.applies(in))
      return step.advise(in);
  }
  return advice::MeasureDominantKernel(in);
}

}  // namespace gpuperf::analysis
