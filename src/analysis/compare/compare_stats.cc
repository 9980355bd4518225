#include "analysis/compare/compare_stats.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace gpuperf::analysis {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// splitmix64 (Steele, Lea, Flood 2014): tiny, fast, and the same stream on every platform.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t Next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n): 53 random bits scaled; the bias is below 2^-40 for the n used here.
  std::size_t Below(std::size_t n) {
    const double u = static_cast<double>(Next() >> 11) * 0x1.0p-53;
    return std::min(n - 1, static_cast<std::size_t>(u * static_cast<double>(n)));
  }

 private:
  std::uint64_t state_;
};

// Median by partial sort; reorders `v`, which must not be empty.
double MedianInPlace(std::vector<double>& v) {
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double upper = v[mid];
  if (v.size() % 2 == 1)
    return upper;
  const double lower = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid));
  return lower + (upper - lower) / 2;
}

// num / den without dividing by zero: 0/0 is "no change" (1), x/0 is +infinity.
double SafeRatio(double num, double den) {
  if (den == 0)
    return num == 0 ? 1.0 : kInf;
  return num / den;
}

// Linear-interpolation quantile (type 7) of sorted values; tolerates +infinity at the top.
double SortedQuantile(const std::vector<double>& sorted, double q) {
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto i = static_cast<std::size_t>(std::floor(pos));
  const double frac = pos - static_cast<double>(i);
  if (i + 1 >= sorted.size() || frac == 0 || sorted[i + 1] == sorted[i])
    return sorted[i];
  if (std::isinf(sorted[i + 1]))
    return kInf;
  return sorted[i] + (sorted[i + 1] - sorted[i]) * frac;
}

// Continued fraction for the incomplete beta function (modified Lentz, as Numerical Recipes).
double BetaContinuedFraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  const double qab = a + b, qap = a + 1, qam = a - 1;
  double c = 1, d = 1 - qab * x / qap;
  d = 1 / (std::fabs(d) < kTiny ? kTiny : d);
  double h = d;
  for (int m = 1; m <= 500; ++m) {
    const double m2 = 2.0 * m;
    const double steps[2] = {m * (b - m) * x / ((qam + m2) * (a + m2)),
                             -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))};
    double delta = 1;
    for (const double aa : steps) {
      d = 1 + aa * d;
      d = 1 / (std::fabs(d) < kTiny ? kTiny : d);
      c = 1 + aa / c;
      if (std::fabs(c) < kTiny)
        c = kTiny;
      delta = d * c;
      h *= delta;
    }
    if (std::fabs(delta - 1) < 1e-15)
      return h;
  }
  return h;
}

// I_x(a, b), the regularized incomplete beta function.
double RegularizedIncompleteBeta(double a, double b, double x) {
  if (x <= 0)
    return 0;
  if (x >= 1)
    return 1;
  const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2))
    return front * BetaContinuedFraction(a, b, x) / a;
  return 1 - front * BetaContinuedFraction(b, a, 1 - x) / b;
}

double StudentTCdf(double t, double df) {
  const double tail = StudentTTwoSidedPValue(t, df) / 2;
  return t >= 0 ? 1 - tail : tail;
}

// Exact null distribution of U for sizes n1, n2 without ties: counts[u] = number of rank
// arrangements with U = u. Recurrence: putting the largest value in sample a adds n2 to U.
std::vector<double> ExactUCounts(std::size_t n1, std::size_t n2) {
  // prev[j] / cur[j]: distribution for (i - 1, j) / (i, j).
  std::vector<std::vector<double>> prev(n2 + 1, std::vector<double>{1.0});
  for (std::size_t i = 1; i <= n1; ++i) {
    std::vector<std::vector<double>> cur(n2 + 1);
    cur[0] = {1.0};
    for (std::size_t j = 1; j <= n2; ++j) {
      cur[j].assign(i * j + 1, 0.0);
      for (std::size_t u = 0; u < prev[j].size(); ++u)
        cur[j][u + j] += prev[j][u];
      for (std::size_t u = 0; u < cur[j - 1].size(); ++u)
        cur[j][u] += cur[j - 1][u];
    }
    prev = std::move(cur);
  }
  return prev[n2];
}

bool AllValid(std::span<const double> v) {
  return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x) && x >= 0; });
}

std::string ValidateOptions(const CompareStatsOptions& o) {
  if (!(o.alpha > 0 && o.alpha < 1))
    return fmt::format("invalid alpha {} (needs 0 < alpha < 1)", o.alpha);
  if (!(o.threshold >= 0))
    return fmt::format("invalid threshold {} (needs >= 0)", o.threshold);
  if (o.bootstrap_resamples < 1)
    return "invalid bootstrap_resamples (needs >= 1)";
  return {};
}

int MinRepeats(const CompareStatsOptions& o) {
  return std::max(o.min_repeats, 2);
}

// Leaves c inconclusive with the reason when either side has fewer than the minimum samples.
bool TooFewSamples(SampleComparison& c, const CompareStatsOptions& o) {
  const int need = MinRepeats(o);
  if (c.n_before >= need && c.n_after >= need)
    return false;
  c.reason = fmt::format("needs at least {} samples per side, got {} before and {} after",
                         need,
                         c.n_before,
                         c.n_after);
  return true;
}

// Rules 2-4 of the decision rule in compare_stats.h; `quantity` is "median" or "mean".
void Decide(SampleComparison& c, const CompareStatsOptions& o, std::string_view quantity) {
  const std::string n = fmt::format("n = {}/{}", c.n_before, c.n_after);
  const double change = std::fabs(c.ratio - 1);
  const double pct = o.threshold * 100;
  if (c.p_value < o.alpha) {
    if (change >= o.threshold) {
      c.verdict = c.ratio > 1 ? Verdict::kSlower : Verdict::kFaster;
      c.reason = fmt::format(
          "{}: p = {:.3g} < alpha {:g} and the {} ratio {:.4f} differs from 1 by at least the "
          "{:g}% threshold",
          n,
          c.p_value,
          o.alpha,
          quantity,
          c.ratio,
          pct);
    } else {
      c.verdict = Verdict::kSame;
      c.reason = fmt::format(
          "{}: p = {:.3g} < alpha {:g} but the {} ratio {:.4f} is within the {:g}% threshold "
          "(a real change, smaller than the threshold)",
          n,
          c.p_value,
          o.alpha,
          quantity,
          c.ratio,
          pct);
    }
    return;
  }
  const bool inside = c.ci_low >= 1 - o.threshold && c.ci_high <= 1 + o.threshold;
  c.verdict = inside ? Verdict::kSame : Verdict::kInconclusive;
  c.reason = fmt::format(
      "{}: p = {:.3g} >= alpha {:g} and the {:g}% CI [{:.4f}, {:.4f}] of the {} "
      "ratio {}",
      n,
      c.p_value,
      o.alpha,
      (1 - o.alpha) * 100,
      c.ci_low,
      c.ci_high,
      quantity,
      inside ? fmt::format("lies within 1 +/- {:g}%", pct)
             : fmt::format("reaches beyond 1 +/- {:g}%: not enough evidence "
                           "either way",
                           pct));
}

}  // namespace

double StudentTTwoSidedPValue(double t, double df) {
  if (std::isnan(t) || !(df > 0))
    return 1;
  if (std::isinf(t))
    return 0;
  if (std::isinf(df))
    return std::erfc(std::fabs(t) / std::sqrt(2.0));
  return RegularizedIncompleteBeta(df / 2, 0.5, df / (df + t * t));
}

double StudentTQuantile(double q, double df) {
  if (!(q > 0 && q < 1) || !(df > 0))
    return std::numeric_limits<double>::quiet_NaN();
  double lo = -1, hi = 1;
  while (StudentTCdf(lo, df) > q)
    lo *= 2;
  while (StudentTCdf(hi, df) < q)
    hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-13 * std::max(1.0, std::fabs(lo)); ++i) {
    const double mid = lo + (hi - lo) / 2;
    (StudentTCdf(mid, df) < q ? lo : hi) = mid;
  }
  return lo + (hi - lo) / 2;
}

double MannWhitneyPValue(std::span<const double> a, std::span<const double> b) {
  const std::size_t n1 = a.size(), n2 = b.size(), n = n1 + n2;
  if (n1 == 0 || n2 == 0)
    return 1;
  std::vector<std::pair<double, bool>> pooled;  // (value, is from a)
  pooled.reserve(n);
  for (double x : a)
    pooled.emplace_back(x, true);
  for (double x : b)
    pooled.emplace_back(x, false);
  std::sort(pooled.begin(), pooled.end());
  double rank_sum_a = 0, tie_term = 0;  // tie_term = sum over tie groups of t^3 - t
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j < n && pooled[j].first == pooled[i].first)
      ++j;
    const double mid_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
    const auto t = static_cast<double>(j - i);
    tie_term += t * t * t - t;
    for (std::size_t k = i; k < j; ++k)
      rank_sum_a += pooled[k].second ? mid_rank : 0;
    i = j;
  }
  const double fn1 = static_cast<double>(n1), fn2 = static_cast<double>(n2);
  const double u_a = rank_sum_a - fn1 * (fn1 + 1) / 2;
  const double u_max = std::max(u_a, fn1 * fn2 - u_a);
  if (n1 <= 20 && n2 <= 20 && tie_term == 0) {
    // Two-sided exact p = 2 P(U >= u_max) = 2 P(U <= n1 n2 - u_max), by symmetry.
    const std::vector<double> counts = ExactUCounts(n1, n2);
    const auto u_min = static_cast<std::size_t>(std::llround(fn1 * fn2 - u_max));
    double total = 0, tail = 0;
    for (std::size_t u = 0; u < counts.size(); ++u) {
      total += counts[u];
      if (u <= u_min)
        tail += counts[u];
    }
    return std::min(1.0, 2 * tail / total);
  }
  const double fn = static_cast<double>(n);
  const double var = fn1 * fn2 / 12 * ((fn + 1) - tie_term / (fn * (fn - 1)));
  if (!(var > 0))
    return 1;  // every value tied
  const double z = (u_max - fn1 * fn2 / 2 - 0.5) / std::sqrt(var);
  return std::clamp(std::erfc(z / std::sqrt(2.0)), 0.0, 1.0);
}

SampleComparison CompareSamples(std::span<const double> before,
                                std::span<const double> after,
                                const CompareStatsOptions& options) {
  SampleComparison c;
  c.method = "mann-whitney-u + bootstrap CI of the median ratio";
  c.n_before = static_cast<std::int64_t>(before.size());
  c.n_after = static_cast<std::int64_t>(after.size());
  if (std::string bad = ValidateOptions(options); !bad.empty()) {
    c.reason = bad;
    return c;
  }
  if (!AllValid(before) || !AllValid(after)) {
    c.reason = fmt::format("the {} samples hold a NaN, infinite or negative duration",
                           AllValid(before) ? "after" : "before");
    return c;
  }
  std::vector<double> b(before.begin(), before.end()), a(after.begin(), after.end());
  // Medians even when there are too few samples to test them (compare.md shows them).
  c.median_before = b.empty() ? 0 : MedianInPlace(b);
  c.median_after = a.empty() ? 0 : MedianInPlace(a);
  if (TooFewSamples(c, options))
    return c;
  c.p_value = MannWhitneyPValue(before, after);
  c.tested = true;
  if (c.median_before == 0 || c.median_after == 0) {
    // 0 ns is below the timer's resolution, not a duration: no ratio, no verdict.
    c.reason = fmt::format(
        "n = {}/{}: the median {} is 0 ns (below the timer's resolution), so "
        "the ratio is undefined",
        c.n_before,
        c.n_after,
        c.median_before == 0 ? "before" : "after");
    return c;
  }
  c.ratio = SafeRatio(c.median_after, c.median_before);
  c.estimated = true;

  SplitMix64 rng(options.seed);
  std::vector<double> ratios(static_cast<std::size_t>(options.bootstrap_resamples));
  for (double& r : ratios) {
    for (double& x : b)
      x = before[rng.Below(before.size())];
    for (double& x : a)
      x = after[rng.Below(after.size())];
    r = SafeRatio(MedianInPlace(a), MedianInPlace(b));
  }
  std::sort(ratios.begin(), ratios.end());
  c.ci_low = SortedQuantile(ratios, options.alpha / 2);
  c.ci_high = SortedQuantile(ratios, 1 - options.alpha / 2);
  Decide(c, options, "median");
  return c;
}

WelchResult WelchTTest(const SummaryStats& before, const SummaryStats& after) {
  WelchResult w;
  if (before.n < 2 || after.n < 2)
    return w;
  const double v_b = before.stddev * before.stddev / static_cast<double>(before.n);
  const double v_a = after.stddev * after.stddev / static_cast<double>(after.n);
  const double diff = after.mean - before.mean;
  if (v_a + v_b == 0) {  // no spread at all: any difference is certain
    w.df = kInf;
    w.t = diff == 0 ? 0 : std::copysign(kInf, diff);
    w.p_value = diff == 0 ? 1 : 0;
    return w;
  }
  w.t = diff / std::sqrt(v_a + v_b);
  w.df = (v_a + v_b) * (v_a + v_b) /
         (v_b * v_b / static_cast<double>(before.n - 1) +
          v_a * v_a / static_cast<double>(after.n - 1));
  w.p_value = StudentTTwoSidedPValue(w.t, w.df);
  return w;
}

SampleComparison CompareSummaries(const SummaryStats& before,
                                  const SummaryStats& after,
                                  const CompareStatsOptions& options) {
  SampleComparison c;
  c.method = "welch-t + delta-method CI of the mean ratio";
  c.n_before = before.n;
  c.n_after = after.n;
  c.median_before = before.median;
  c.median_after = after.median;
  if (std::string bad = ValidateOptions(options); !bad.empty()) {
    c.reason = bad;
    return c;
  }
  for (const SummaryStats* s : {&before, &after}) {
    if (!std::isfinite(s->mean) || !std::isfinite(s->stddev) || s->mean < 0 || s->stddev < 0) {
      c.reason = fmt::format("the {} summary has a NaN, infinite or negative mean or stddev",
                             s == &before ? "before" : "after");
      return c;
    }
  }
  if (TooFewSamples(c, options))
    return c;
  if (before.mean == 0 || after.mean == 0) {
    // A 0 ns mean is below the timer's resolution; Welch on two zero spreads would say p = 0.
    c.reason = fmt::format(
        "n = {}/{}: the mean {} is 0 ns (below the timer's resolution), so "
        "the ratio is undefined",
        c.n_before,
        c.n_after,
        before.mean == 0 ? "before" : "after");
    return c;
  }
  const WelchResult w = WelchTTest(before, after);
  c.p_value = w.p_value;
  c.tested = true;
  c.ratio = SafeRatio(after.mean, before.mean);
  c.estimated = true;
  // se(R) = sqrt(v_a + R^2 v_b) / mean_b, the delta method for R = mean_a / mean_b.
  const double se = before.mean == 0
                        ? 0
                        : std::sqrt(after.stddev * after.stddev / static_cast<double>(after.n) +
                                    c.ratio * c.ratio * before.stddev * before.stddev /
                                        static_cast<double>(before.n)) /
                              before.mean;
  const double q = se == 0 ? 0 : StudentTQuantile(1 - options.alpha / 2, w.df);
  c.ci_low = c.ratio - q * se;
  c.ci_high = c.ratio + q * se;
  Decide(c, options, "mean");
  return c;
}

}  // namespace gpuperf::analysis
