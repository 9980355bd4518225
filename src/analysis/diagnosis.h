// The seed's deliverable (gpu-performance-evidence.txt, "Deliverable"; docs/metrics.md,
// "Diagnosis"): target metric and scope, baseline, dominant phase or kernel, the application's
// bottleneck class reached in the triage order of gpu-performance-engineering.txt (GPU idle ->
// host, launch or sync; transfer; communication; else the dominant kernel's roofline class), ONE
// next experiment and the measurement that would falsify it. A class without confirming evidence
// is a "hypothesis" that names the measurement that would test it, never a finding.
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <string>

#include "analysis/idle_attribution.h"

namespace gpuperf::analysis {

// A bucket of the GPU span holds at least this share to dominate the triage.
inline constexpr double kDominantShare = 0.5;

// Needs every other part of `report` (timeline, kernels with their classes, findings,
// predictions, audit) computed first.
report::Diagnosis Diagnose(const model::Trace& trace,
                           const report::AnalysisReport& report,
                           const IdleAttribution& idle);

// The next experiment, its falsifying measurement and (for a hypothesis) the missing evidence of
// a bottleneck class (diagnosis_experiments.cc). `subject` names the kernel, sync call or copy
// kind the class is about; `diagnosis` holds the class, status and evidence already.
void SetExperiment(report::Diagnosis& diagnosis, const std::string& subject);

// With hardware counters on the dominant kernel (diagnosis_counters.cc): its Nsight Compute rule
// of the largest estimated speedup as evidence, and for "unknown" exactly what its counters lack
// instead of a request for the roofline set.
// Nothing without counters on `row`.
void AdviseFromCounters(report::Diagnosis& diagnosis, const report::KernelRow& row);

// An input whose kernels have no durations (an Nsight Compute CSV without
// gpu__time_duration.sum or cycles): "unknown", never a time split it cannot measure.
void DiagnoseWithoutDurations(report::Diagnosis& diagnosis, const report::AnalysisReport& report);

}  // namespace gpuperf::analysis
