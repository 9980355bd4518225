#include "record/repeat_policy.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gpuperf::record {
namespace {

double MedianOfSorted(const std::vector<double>& sorted) {
  const std::size_t n = sorted.size();
  if (n == 0)
    return 0;
  return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

double QuantileOfSorted(const std::vector<double>& sorted, double q) {
  if (sorted.empty())
    return 0;
  const double position = q * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

// P(X <= k) for X ~ binomial(n, 1/2), summed in log space so n in the thousands is fine.
double BinomialCdfHalf(int n, int k) {
  double total = 0;
  for (int i = 0; i <= k; ++i) {
    total += std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) -
                      n * std::log(2.0));
  }
  return total;
}

}  // namespace

Summary Summarize(std::vector<double> values) {
  Summary summary;
  if (values.empty())
    return summary;
  std::sort(values.begin(), values.end());
  summary.count = static_cast<std::int64_t>(values.size());
  summary.median = MedianOfSorted(values);
  summary.p95 = QuantileOfSorted(values, 0.95);
  summary.min = values.front();
  summary.max = values.back();
  summary.mean =
      std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  std::vector<double> deviations;
  for (double value : values)
    deviations.push_back(std::fabs(value - summary.median));
  std::sort(deviations.begin(), deviations.end());
  summary.mad = MedianOfSorted(deviations);
  return summary;
}

MedianInterval MedianConfidenceInterval(std::vector<double> values, double confidence) {
  MedianInterval interval;
  const int n = static_cast<int>(values.size());
  if (n == 0)
    return interval;
  std::sort(values.begin(), values.end());
  const double tail = (1 - confidence) / 2;
  // k is 1-based: the interval is [x(k), x(n-k+1)] with coverage 1 - 2 P(X <= k-1).
  int best_k = 0;
  for (int k = 1; k <= (n + 1) / 2; ++k) {
    if (BinomialCdfHalf(n, k - 1) <= tail)
      best_k = k;
  }
  if (best_k == 0)
    return interval;
  interval.available = true;
  interval.low = values[best_k - 1];
  interval.high = values[n - best_k];
  interval.coverage = 1 - 2 * BinomialCdfHalf(n, best_k - 1);
  return interval;
}

std::optional<StopReason> ShouldStopAuto(const std::vector<double>& wall_s,
                                         double elapsed_s,
                                         const AutoRepeatOptions& options) {
  const int n = static_cast<int>(wall_s.size());
  if (n >= options.min_runs) {
    const MedianInterval interval = MedianConfidenceInterval(wall_s);
    const double median = Summarize(wall_s).median;
    if (interval.available && median > 0 &&
        (interval.high - interval.low) / median <= options.target_relative_width) {
      return StopReason::kConverged;
    }
  }
  if (n >= options.max_runs)
    return StopReason::kMaxRuns;
  if (elapsed_s >= options.time_budget_s)
    return StopReason::kTimeBudget;
  return std::nullopt;
}

}  // namespace gpuperf::record
