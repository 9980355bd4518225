// PLACEHOLDER: replaced by the analysis orchestrator.
#include "gpuperf/analyze.h"
namespace gpuperf::analysis {
report::AnalysisReport Analyze(const model::Trace&, const AnalyzeOptions&) { return {}; }
}  // namespace gpuperf::analysis
