// What making kernels faster gives back, run by run: in each run of queued GPU work the program
// waited for, the time the speedups remove there, at most the run's budget (the host's waits for
// it: analysis/timeline/critical_time.h). Kernels of one run share its budget, so a group's gain
// is not the sum of its members' gains.
#pragma once

#include "gpuperf/report.h"

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace gpuperf::analysis {

// Each row made `speedup` times faster (infinity: free). A row without runs (a hand-built or GPU
// timeline share) counts its critical time without a budget.
std::int64_t GainNs(const report::Predictions& p,
                    const std::vector<std::pair<const report::CriticalShare*, double>>& rows);

// One row, or rows at one speedup.
std::int64_t GainNs(const report::Predictions& p, const report::CriticalShare& row, double speedup);
std::int64_t GainNs(const report::Predictions& p,
                    const std::vector<const report::CriticalShare*>& rows,
                    double speedup);

inline constexpr double kFree = std::numeric_limits<double>::infinity();

}  // namespace gpuperf::analysis
