// The headline: one paragraph with numbers saying where the time goes. It states only what the
// trace shows, each figure followed by its source; causes stay in the findings as hypotheses.
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <string>

namespace gpuperf::analysis {

// Reads the already computed parts of `report` (timeline, kernels, findings).
std::string Headline(const model::Trace& trace, const report::AnalysisReport& report);

}  // namespace gpuperf::analysis
