// The advice per bottleneck class as a table of steps (diagnosis_advice.cc walks it): each
// step's text in diagnosis_advice_idle.cc (the idle classes), diagnosis_advice_host.cc (the
// host-bound cases) and diagnosis_advice_gpu.cc (the GPU classes and the flat profile). Internal
// to src/analysis/diagnosis.
#pragma once

#include "gpuperf/report.h"

#include <string>

#include "analysis/diagnosis/diagnosis.h"
#include "analysis/diagnosis/diagnosis_experiments_parts.h"

namespace gpuperf::analysis::advice {

// What every step reads: the statement, its subject, the context and the vendor's tools.
struct AdviceInput {
  const report::Diagnosis& d;
  const std::string& subject;
  const ExperimentContext& context;
  Tools tools;
  std::string kernel = "the dominant kernel";
};

// "\"subject\"", or `fallback` when the statement names none.
std::string Quoted(const std::string& subject, const char* fallback);

// The idle classes (diagnosis_advice_idle.cc).
Advice InitializationOneShot(const AdviceInput& in);
Advice Initialization(const AdviceInput& in);
Advice DependencyBound(const AdviceInput& in);
Advice ImplicitSync(const AdviceInput& in);
Advice SyncBound(const AdviceInput& in);
Advice LaunchBoundInGraphs(const AdviceInput& in);
Advice LaunchBound(const AdviceInput& in);

// The host-bound cases (diagnosis_advice_host.cc).
Advice InputPipeline(const AdviceInput& in);
Advice HostWorkBeforeGpu(const AdviceInput& in);
Advice HostOutsideOperators(const AdviceInput& in);
Advice HostInOperators(const AdviceInput& in);
Advice HostUnrecorded(const AdviceInput& in);

// The GPU classes and the flat profile (diagnosis_advice_gpu.cc).
Advice TransferBound(const AdviceInput& in);
Advice CommunicationBound(const AdviceInput& in);
Advice MemoryBound(const AdviceInput& in);
Advice ComputeBound(const AdviceInput& in);
Advice NoOnChipReuse(const AdviceInput& in);
Advice LatencyBound(const AdviceInput& in);
Advice UnderfilledGrid(const AdviceInput& in);
Advice TensorCoresUnused(const AdviceInput& in);
Advice FlatRoutine(const AdviceInput& in);
Advice FlatKernels(const AdviceInput& in);
Advice MeasureDominantKernel(const AdviceInput& in);

}  // namespace gpuperf::analysis::advice
