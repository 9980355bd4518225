// The advice per bottleneck class: the next experiment, the measurement that would falsify it
// and the evidence a hypothesis lacks (AdviceFor), the first step of a table that applies. Part
// of the next experiment (diagnosis_experiments.cc); the steps' texts are in
// diagnosis_advice_{idle,host,gpu}.cc.
#include <optional>
#include <string_view>

#include "analysis/diagnosis/diagnosis.h"
#include "analysis/diagnosis/diagnosis_advice_steps.h"
#include "analysis/diagnosis/diagnosis_experiments_parts.h"

namespace gpuperf::analysis {

namespace {

using advice::AdviceInput;

// One step: for the class `bottleneck` (any class when kAny, no class), when `applies` holds
// (always when null), the advice `advise` gives. The first step that matches wins, so a case comes
// before its class's general step.
struct AdviceStep {
  std::optional<report::Bottleneck> bottleneck;
  bool (*applies)(const AdviceInput& in);
  Advice (*advise)(const AdviceInput& in);
};

constexpr std::optional<report::Bottleneck> kAny = std::nullopt;
using report::Bottleneck;

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
bool GridUnderfillsGpu(const AdviceInput& in) {
  return in.context.grid_underfills;
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
    {Bottleneck::kInitialization, IsOneShot, advice::InitializationOneShot},
    {Bottleneck::kInitialization, nullptr, advice::Initialization},
    {Bottleneck::kDependencyBound, nullptr, advice::DependencyBound},
    {Bottleneck::kSyncBound, HasImplicitSync, advice::ImplicitSync},
    {Bottleneck::kSyncBound, nullptr, advice::SyncBound},
    {Bottleneck::kLaunchBound, InGraphs, advice::LaunchBoundInGraphs},
    {Bottleneck::kLaunchBound, nullptr, advice::LaunchBound},
    {kAny, LoaderFillsGaps, advice::InputPipeline},
    {Bottleneck::kHostBound, OverlapPaysLittle, advice::HostWorkBeforeGpu},
    {Bottleneck::kHostBound, FindingOutsideOperators, advice::HostOutsideOperators},
    {Bottleneck::kHostBound, IsFinding, advice::HostInOperators},
    {Bottleneck::kHostBound, nullptr, advice::HostUnrecorded},
    {Bottleneck::kTransferBound, nullptr, advice::TransferBound},
    {Bottleneck::kCommunicationBound, nullptr, advice::CommunicationBound},
    {Bottleneck::kMemoryBound, nullptr, advice::MemoryBound},
    {Bottleneck::kComputeBound, nullptr, advice::ComputeBound},
    {Bottleneck::kCacheBound, HasNoReuse, advice::NoOnChipReuse},
    {Bottleneck::kLatencyBound, GridUnderfillsGpu, advice::UnderfilledGrid},
    {Bottleneck::kLatencyBound, HasNoReuse, advice::NoOnChipReuse},
    {Bottleneck::kLatencyBound, nullptr, advice::LatencyBound},
    {Bottleneck::kTensorCoresUnused, nullptr, advice::TensorCoresUnused},
    {kAny, HasFlatRoutine, advice::FlatRoutine},
    {kAny, HasFlatKernels, advice::FlatKernels},
};

}  // namespace

Advice AdviceFor(const report::Diagnosis& d,
                 const std::string& subject,
                 const ExperimentContext& context) {
  const AdviceInput in{d, subject, context, ToolsFor(context.amd)};
  for (const AdviceStep& step : kSteps) {
    if (step.bottleneck && *step.bottleneck != d.bottleneck)
      continue;
    if (step.applies == nullptr || step.applies(in))
      return step.advise(in);
  }
  return advice::MeasureDominantKernel(in);
}

}  // namespace gpuperf::analysis
