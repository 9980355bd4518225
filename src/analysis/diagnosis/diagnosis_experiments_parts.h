// Parts of the next experiment shared by its files: SetExperiment and the bound's text
// (diagnosis_experiments.cc), the advice per class (diagnosis_advice.cc) and the texts the advice
// is built from (diagnosis_advice_texts.cc). Internal to src/analysis/diagnosis.
#pragma once

#include "gpuperf/report.h"

#include <cstdint>
#include <string>

#include "analysis/diagnosis/diagnosis.h"

namespace gpuperf::analysis {

struct Advice {
  std::string experiment;
  std::string falsified_by;
  std::string missing;  // for a hypothesis
  // A bound the experiment's text gives beside the statement's, for the headline
  // (Diagnosis::bound_speedup_across_inputs); initialized, as the steps without one omit it.
  std::optional<double> across_inputs = std::nullopt;
};

// The vendor's tools: Nsight Compute and SASS on NVIDIA, rocprofv3 / rocprof-compute and the
// ISA on AMD.
struct Tools {
  std::string profiler, bytes_counters, flop_counters, roofline, matrix_isa, stalls, graph;
};

// Under this, moving the host work beside the GPU is not the lever worth naming first.
inline constexpr double kOverlapPays = 1.05;

// The experiment, its falsifier and what is missing, for the statement's class
// (diagnosis_advice.cc).
Advice AdviceFor(const report::Diagnosis& d,
                 const std::string& subject,
                 const ExperimentContext& context);

// Host work moved beside the GPU: the bound on the window (diagnosis_experiments.cc).
double BesideGpu(std::int64_t window_ns, std::int64_t host_ns, std::int64_t lead_ns);
// A bf16/fp16 tensor-core kernel on a GPU with FP8 tensor cores (diagnosis_experiments.cc).
bool AdvisesFp8(const ExperimentContext& context);

// The texts the advice is built from (diagnosis_advice_texts.cc).
std::string SyncsInStepText(const ExperimentContext& context);
std::string SingleProcessLoaderText(const ExperimentContext& context);
std::string InRepeatsText(const ExperimentContext& context);
std::string KernelsOfStatement(const std::string& kernel, const ExperimentContext& context);
std::string FasterArithmetic(const ExperimentContext& context);
Tools ToolsFor(bool amd);

}  // namespace gpuperf::analysis
