// The statistics behind `gpuperf compare`: a before/after verdict on two sets of durations.
//
// Decision rule (the contract; every verdict's `reason` names the rule that fired):
//   0. Invalid options (alpha outside (0, 1), negative or NaN threshold, fewer than 1 bootstrap
//      resample): kInconclusive.
//   1. Either side has fewer than max(min_repeats, 2) samples, or any value is NaN, infinite or
//      negative: kInconclusive; the reason says how many samples are needed.
//   2. p < alpha and |ratio - 1| >= threshold: kSlower if ratio > 1, else kFaster.
//   3. p < alpha but |ratio - 1| < threshold: kSame (a real change, smaller than the threshold).
//   4. p >= alpha: kSame if the whole CI lies within [1 - threshold, 1 + threshold], else
//      kInconclusive (not enough evidence either way).
// ratio = after / before (medians for samples, means for summaries): below 1 is faster.
// Zero denominators never divide: both 0 gives ratio 1; before 0 and after > 0 gives
// kInconclusive ("ratio undefined"). A bootstrap resample whose before-median is 0 counts as ratio
// 1 (after-median also 0) or +infinity, so ci_high can be +infinity for samples full of zeros.
//
// Everything here is deterministic: the bootstrap uses its own splitmix64 generator seeded from
// CompareStatsOptions::seed, so the same input gives the same output on every platform.
#pragma once

#include "gpuperf/compare.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace gpuperf::analysis {

// The compare model's verdict (gpuperf/compare.h, with its ToString): a statistic is never
// kIncomparable.
using Verdict = compare::Verdict;

struct CompareStatsOptions {
  double threshold = 0.01;  // relative change that matters (0.01 = 1%)
  double alpha = 0.05;      // significance level, two-sided
  int min_repeats = 5;      // minimum samples per side; fewer -> inconclusive (at least 2 apply)
  int bootstrap_resamples = 2000;
  std::uint64_t seed = 0x9e3779b97f4a7c15ULL;  // deterministic: same input -> same output
};

struct SampleComparison {
  Verdict verdict = Verdict::kInconclusive;
  std::string method;  // e.g. "mann-whitney-u + bootstrap CI of the median ratio"
  std::int64_t n_before = 0, n_after = 0;
  double median_before = 0, median_after = 0;
  double ratio = 0;                // after / before (lower is better: these are durations)
  double ci_low = 0, ci_high = 0;  // (1 - alpha) confidence interval of the ratio
  double p_value = 1;              // two-sided
  bool estimated = false;          // ratio and CI computed (else they are not numbers to report)
  bool tested = false;             // p_value computed
  std::string reason;              // one sentence: why this verdict (names n, p, ratio, threshold)
};

// Durations (any unit, lower is better). Mann-Whitney U p-value (MannWhitneyPValue) on the raw
// samples; ratio of medians; percentile-bootstrap CI of the median ratio (each side resampled
// independently, bootstrap_resamples times). medians and n are filled whenever computable, even
// for an inconclusive verdict.
SampleComparison CompareSamples(std::span<const double> before,
                                std::span<const double> after,
                                const CompareStatsOptions& options);

// When only summaries exist (n, mean, sample stddev per side, e.g. two report.json files).
// `median` is informational only (copied to the result; 0 when unknown).
struct SummaryStats {
  std::int64_t n = 0;
  double mean = 0;
  double stddev = 0;  // sample standard deviation (n - 1 denominator)
  double median = 0;
};

// Welch's t-test on the means plus a delta-method CI of the mean ratio:
//   ratio = mean_after / mean_before,
//   se(ratio) = ratio * sqrt(s_a^2 / (n_a mean_a^2) + s_b^2 / (n_b mean_b^2)),
//   CI = ratio -/+ t_{1 - alpha/2, df} * se(ratio), df from Welch-Satterthwaite.
// Same decision rule as CompareSamples; a negative or non-finite mean/stddev is inconclusive.
SampleComparison CompareSummaries(const SummaryStats& before,
                                  const SummaryStats& after,
                                  const CompareStatsOptions& options);

struct WelchResult {
  double t = 0;        // (mean_after - mean_before) / sqrt(s_b^2/n_b + s_a^2/n_a)
  double df = 0;       // Welch-Satterthwaite degrees of freedom; +infinity when both stddevs are 0
  double p_value = 1;  // two-sided; with both stddevs 0: 1 if the means are equal, else 0
};
// Requires n >= 2 on both sides (else returns the default: t 0, p 1).
WelchResult WelchTTest(const SummaryStats& before, const SummaryStats& after);

// Two-sided Mann-Whitney U p-value: exact distribution when both n <= 20 and there are no ties in
// the pooled sample, else the normal approximation with tie correction and continuity correction
// (as scipy.stats.mannwhitneyu). 1 when either side is empty or every value is tied.
// Example: {1,2,3} vs {4,5,6}: U = 0, P(U <= 0) = 1/C(6,3) = 0.05, two-sided p = 0.1.
double MannWhitneyPValue(std::span<const double> a, std::span<const double> b);

// P(|T| >= |t|) for Student's t with df > 0 degrees of freedom (df = +infinity: normal).
double StudentTTwoSidedPValue(double t, double df);

// The q-quantile (0 < q < 1) of Student's t with df > 0 degrees of freedom.
double StudentTQuantile(double q, double df);

}  // namespace gpuperf::analysis
