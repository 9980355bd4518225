#include "analysis/core/statistics.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace gpuperf::analysis {

std::int64_t UpperMedian(std::vector<std::int64_t>& values) {
  if (values.empty())
    return 0;
  auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

report::Distribution Summarize(std::vector<std::int64_t>& values) {
  report::Distribution d;
  if (values.empty())
    return d;
  // Only the median needs order: a selection is O(n) where a sort of a million launches is not.
  std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  d.count = static_cast<std::int64_t>(values.size());
  // Hostile inputs can hold durations near INT64_MAX: saturate instead of overflowing.
  bool saturated = false;
  double exact_sum = 0;
  for (std::int64_t v : values) {
    exact_sum += static_cast<double>(v);
    if (!saturated && __builtin_add_overflow(d.total, v, &d.total))
      saturated = true;
  }
  if (saturated)
    d.total = exact_sum > 0 ? INT64_MAX : INT64_MIN;
  auto [min, max] = std::minmax_element(values.begin(), values.end());
  d.min = *min;
  d.max = *max;
  d.avg = (saturated ? exact_sum : static_cast<double>(d.total)) / static_cast<double>(d.count);
  // After the selection, the lower middle of an even count is the largest element before mid.
  d.med = values.size() % 2 == 1
              ? static_cast<double>(values[mid])
              : (static_cast<double>(*std::max_element(
                     values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid))) +
                 static_cast<double>(values[mid])) /
                    2.0;
  if (values.size() > 1) {
    // Two-pass sum of squared deviations: stable for nanosecond values near 1e12.
    double sum_sq = 0;
    for (std::int64_t v : values) {
      double dev = static_cast<double>(v) - d.avg;
      sum_sq += dev * dev;
    }
    d.stddev = std::sqrt(sum_sq / static_cast<double>(values.size() - 1));
  }
  return d;
}

double Percent(double part, double whole) {
  return whole == 0 ? 0.0 : 100.0 * part / whole;
}

double Median(std::vector<double> values) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double Percentile(std::vector<double> values, double p) {
  if (values.empty())
    return 0;
  std::sort(values.begin(), values.end());
  auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(values.size())));
  return values[std::clamp<std::size_t>(rank, 1, values.size()) - 1];
}

double MedianAbsoluteDeviation(const std::vector<double>& values) {
  double median = Median(values);
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (double v : values)
    deviations.push_back(std::fabs(v - median));
  return Median(deviations);
}

bool FirstIsOutlier(const std::vector<double>& values) {
  if (values.size() < 3)
    return false;
  std::vector<double> rest(values.begin() + 1, values.end());
  double median = Median(rest);
  double threshold = std::max(3 * 1.4826 * MedianAbsoluteDeviation(rest), 0.1 * median);
  return values.front() - median > threshold;
}

std::size_t LeadingOutliers(const std::vector<double>& values) {
  std::size_t n = 0;
  while (n < values.size() / 2 &&
         FirstIsOutlier(
             std::vector<double>(values.begin() + static_cast<std::ptrdiff_t>(n), values.end())))
    ++n;
  return n;
}

}  // namespace gpuperf::analysis
