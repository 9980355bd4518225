// Summary statistics with `nsys stats` definitions (see report::Distribution).
#pragma once

#include "gpuperf/report.h"

#include <cstdint>
#include <vector>

namespace gpuperf::analysis {

// Reorders `values` in place (a selection, not a sort). An empty input gives an all-zero
// Distribution.
report::Distribution Summarize(std::vector<std::int64_t>& values);

// 100 * part / whole, 0 when whole is 0.
double Percent(double part, double whole);

}  // namespace gpuperf::analysis
