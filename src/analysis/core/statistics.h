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

// The upper of the middle two for an even count, a value the input holds; reorders `values` (a
// selection); 0 when empty.
std::int64_t UpperMedian(std::vector<std::int64_t>& values);
// The median (the mean of the middle two for an even count); 0 when empty.
double Median(std::vector<double> values);
// The nearest-rank percentile (p in [0, 1]); 0 when empty.
double Percentile(std::vector<double> values, double p);
// The median absolute deviation from the median.
double MedianAbsoluteDeviation(const std::vector<double>& values);
// A warm-up outlier: the first of at least three values lies more than
// max(3 * 1.4826 * MAD, 10% of the median) above the median of the others.
bool FirstIsOutlier(const std::vector<double>& values);
// Warm-up outliers at the start: FirstIsOutlier, asked again of the values after each outlier
// while it holds (a second step can still pay for lazy loading and allocator growth), at most
// half of the values, so that the steady ones stay the majority.
std::size_t LeadingOutliers(const std::vector<double>& values);

}  // namespace gpuperf::analysis
