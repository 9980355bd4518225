// Run-to-run statistics of `gpuperf baseline` and the `--repeat auto` stopping rule.
//
// The rule follows nvbench's idea (run until the measurement is precise enough or a time budget
// is spent) for whole programs: after at least `min_runs` measured runs, stop when the
// distribution-free 95% confidence interval of the median wall time is narrower than
// `target_relative_width` x median; otherwise stop at the time budget or at `max_runs`.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace gpuperf::record {

// Robust summary of a sample. p95 interpolates linearly between order statistics (numpy's
// default); mad is the median absolute deviation from the median, unscaled.
struct Summary {
  std::int64_t count = 0;
  double median = 0;
  double p95 = 0;
  double min = 0;
  double max = 0;
  double mad = 0;
  double mean = 0;
};

Summary Summarize(std::vector<double> values);

// The order-statistic confidence interval of the median: [x(k), x(n-k+1)] with the largest k
// whose binomial(n, 1/2) tail P(X < k) is at most (1 - confidence) / 2. `available` is false when
// n is too small for the requested confidence (n < 6 at 95%).
struct MedianInterval {
  bool available = false;
  double low = 0;
  double high = 0;
  double coverage = 0;  // the exact coverage of the interval (>= confidence)
};

MedianInterval MedianConfidenceInterval(std::vector<double> values, double confidence = 0.95);

enum class StopReason {
  kFixedCount,   // --repeat N reached
  kConverged,    // the median's 95% interval is narrower than the target width
  kTimeBudget,   // the time budget ran out first
  kMaxRuns,      // the run cap was reached first
  kInterrupted,  // gpuperf received SIGINT/SIGTERM/SIGHUP
};

std::string_view ToString(StopReason reason);

struct AutoRepeatOptions {
  double target_relative_width = 0.02;  // interval width / median
  double time_budget_s = 120;           // measured runs only
  int min_runs = 6;                     // the fewest runs that can give a 95% median interval
  int max_runs = 200;
};

// Whether `--repeat auto` should stop after the measured wall times so far (seconds) and the
// time spent on them; nullopt means run again.
std::optional<StopReason> ShouldStopAuto(const std::vector<double>& wall_s,
                                         double elapsed_s,
                                         const AutoRepeatOptions& options);

}  // namespace gpuperf::record
