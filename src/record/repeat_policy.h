// Run-to-run statistics of `gpuperf baseline` and the `--repeat auto` stopping rule.
//
// The rule follows nvbench's idea (run until the measurement is precise enough or a time budget
// is spent) for whole programs: after at least `min_runs` measured runs, stop when the
// distribution-free 95% confidence interval of the median wall time is narrower than
// `target_relative_width` x median; otherwise stop at the time budget or at `max_runs`.
#pragma once

#include "gpuperf/baseline.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace gpuperf::record {

using baseline::Summary;

Summary Summarize(std::vector<double> values);

// The order-statistic confidence interval of the median (baseline::MedianInterval).
using baseline::MedianInterval;
MedianInterval MedianConfidenceInterval(std::vector<double> values, double confidence = 0.95);

using baseline::StopReason;
using baseline::ToString;

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
