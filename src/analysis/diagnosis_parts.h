// Parts of the diagnosis shared by its files (diagnosis.cc, diagnosis_statement.cc).
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <string>

#include "analysis/idle_attribution.h"

namespace gpuperf::analysis {

std::string TargetMetric(const report::AnalysisReport& r);
// Input, format, the devices the GPU work uses (of those described), rank, what the window holds.
std::string Scope(const model::Trace& trace, const report::AnalysisReport& r);
std::string Baseline(const report::AnalysisReport& r);

// Adds the `initialization` triage step and evidence when the window holds one-time work; true
// when it holds at least kDominantShare of it, which makes it the diagnosis.
bool InitializationStep(report::Diagnosis& d, const report::AnalysisReport& r);

// Any coverage gap, as evidence (the launch-queue sentence has its own line: diagnosis.queue).
void AddQueueAndCoverage(report::Diagnosis& d, const IdleAttribution& idle);

}  // namespace gpuperf::analysis
