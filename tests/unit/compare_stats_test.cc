#include "analysis/compare/compare_stats.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace {

using gpuperf::analysis::CompareSamples;
using gpuperf::analysis::CompareStatsOptions;
using gpuperf::analysis::CompareSummaries;
using gpuperf::analysis::MannWhitneyPValue;
using gpuperf::analysis::SummaryStats;
using gpuperf::analysis::Verdict;

// The tests' own seeded noise: splitmix64 + Box-Muller, identical on every standard library.
class Noise {
 public:
  explicit Noise(std::uint64_t seed) : state_(seed) {}
  double Uniform() {  // (0, 1)
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (static_cast<double>(z >> 11) + 0.5) * 0x1.0p-53;
  }
  double Gaussian() {
    return std::sqrt(-2 * std::log(Uniform())) * std::cos(2 * 3.14159265358979323846 * Uniform());
  }
  // n durations around `center` with lognormal noise of relative sd `sd`.
  std::vector<double> LogNormal(int n, double center, double sd) {
    std::vector<double> v;
    for (int i = 0; i < n; ++i)
      v.push_back(center * std::exp(sd * Gaussian()));
    return v;
  }

 private:
  std::uint64_t state_;
};

// Share of 200 seeded trials (10 repeats per side, 1% lognormal noise) with verdict `want`.
double VerdictRate(double after_factor, Verdict want) {
  int hits = 0;
  for (std::uint64_t trial = 0; trial < 200; ++trial) {
    Noise noise(1000 + trial);
    const std::vector<double> before = noise.LogNormal(10, 100.0, 0.01);
    const std::vector<double> after = noise.LogNormal(10, 100.0 * after_factor, 0.01);
    hits += CompareSamples(before, after, {}).verdict == want ? 1 : 0;
  }
  return hits / 200.0;
}

}  // namespace

TEST_CASE("Verdict names are the ones users read", "[compare_stats]") {
  using gpuperf::compare::ToString;
  CHECK(ToString(Verdict::kFaster) == "faster");
  CHECK(ToString(Verdict::kSlower) == "slower");
  CHECK(ToString(Verdict::kSame) == "same");
  CHECK(ToString(Verdict::kInconclusive) == "inconclusive");
  CHECK(ToString(Verdict::kIncomparable) == "incomparable");
}

TEST_CASE("Verdict bases keep their compare.json spellings", "[compare_stats]") {
  using gpuperf::compare::ToString;
  using gpuperf::compare::VerdictBasis;
  CHECK(ToString(VerdictBasis::kEndToEnd) == "end_to_end");
  CHECK(ToString(VerdictBasis::kKernels) == "kernels");
  CHECK(ToString(VerdictBasis::kEnvironment) == "environment");
  CHECK(ToString(VerdictBasis::kIdenticalInputs) == "identical_inputs");
}

TEST_CASE("Side kinds keep their compare.json spellings", "[compare_stats]") {
  using gpuperf::compare::SideKind;
  using gpuperf::compare::ToString;
  CHECK(ToString(SideKind::kTrace) == "trace");
  CHECK(ToString(SideKind::kReport) == "report");
  CHECK(ToString(SideKind::kBaseline) == "baseline");
}

TEST_CASE("Mann-Whitney exact p-values match hand counts", "[compare_stats]") {
  // 3 vs 3 fully separated: U = 0; 1 of C(6,3) = 20 arrangements; two-sided 2/20.
  CHECK(MannWhitneyPValue(std::vector{1.0, 2.0, 3.0}, std::vector{4.0, 5.0, 6.0}) ==
        Approx(0.1).epsilon(1e-12));
  CHECK(MannWhitneyPValue(std::vector{6.0, 5.0, 4.0}, std::vector{3.0, 1.0, 2.0}) ==
        Approx(0.1).epsilon(1e-12));
  // 2 vs 3 separated: 2 / C(5,2) = 0.2.
  CHECK(MannWhitneyPValue(std::vector{1.0, 2.0}, std::vector{3.0, 4.0, 5.0}) ==
        Approx(0.2).epsilon(1e-12));
  // 5 vs 5, U = 2 (7 beats 5 and 6): P(U <= 2) = (1 + 1 + 2) / 252, p = 8/252 (scipy 0.031746).
  CHECK(MannWhitneyPValue(std::vector{1.0, 2.0, 3.0, 4.0, 7.0},
                          std::vector{5.0, 6.0, 8.0, 9.0, 10.0}) ==
        Approx(8.0 / 252).epsilon(1e-12));
  // Interleaved 3 vs 3: U = 3, P(U <= 3) = (1 + 1 + 2 + 3) / 20, p = 0.7 (scipy exact: 0.7).
  CHECK(MannWhitneyPValue(std::vector{1.0, 3.0, 5.0}, std::vector{2.0, 4.0, 6.0}) ==
        Approx(0.7).epsilon(1e-12));
  // 20 vs 20 separated (largest exact case): 2 / C(40,20).
  std::vector<double> low, high;
  for (int i = 0; i < 20; ++i) {
    low.push_back(i);
    high.push_back(100 + i);
  }
  CHECK(MannWhitneyPValue(low, high) == Approx(2.0 / 137846528820.0).epsilon(1e-9));
}

TEST_CASE("Mann-Whitney normal approximation with ties and continuity correction",
          "[compare_stats]") {
  // Pooled 1,2,3,3,4,4,5,5,6,7: ranks of a = 1 + 2 + 3.5 + 5.5 + 7.5 = 19.5, U_a = 4.5, U = 20.5.
  // mu = 12.5; var = 25/12 * (11 - 3*6/90) = 22.5; z = (20.5 - 12.5 - 0.5) / sqrt(22.5) = 1.5811;
  // p = erfc(z / sqrt 2) = 0.113846298 (scipy.stats.mannwhitneyu, asymptotic: 0.1138).
  CHECK(MannWhitneyPValue(std::vector{1.0, 2.0, 3.0, 4.0, 5.0},
                          std::vector{3.0, 4.0, 5.0, 6.0, 7.0}) ==
        Approx(0.113846298006658).epsilon(1e-9));
  // 25 vs 25 separated (too big for exact): z = 312 / sqrt(625 * 51 / 12) = 6.0537, p = 1.4157e-9.
  std::vector<double> low, high;
  for (int i = 0; i < 25; ++i) {
    low.push_back(i);
    high.push_back(100 + i);
  }
  CHECK(MannWhitneyPValue(low, high) == Approx(1.41565622484956e-9).epsilon(1e-6));
  // Everything tied, or nothing on one side: no evidence.
  CHECK(MannWhitneyPValue(std::vector{2.0, 2.0, 2.0}, std::vector{2.0, 2.0}) == 1.0);
  CHECK(MannWhitneyPValue(std::vector<double>{}, std::vector{1.0}) == 1.0);
}

TEST_CASE("Student t distribution matches tables", "[compare_stats]") {
  using gpuperf::analysis::StudentTQuantile;
  using gpuperf::analysis::StudentTTwoSidedPValue;
  CHECK(StudentTQuantile(0.975, 18) == Approx(2.10092204024104).epsilon(1e-9));
  CHECK(StudentTQuantile(0.025, 18) == Approx(-2.10092204024104).epsilon(1e-9));
  CHECK(StudentTQuantile(0.975, std::numeric_limits<double>::infinity()) ==
        Approx(1.95996398454005).epsilon(1e-9));
  CHECK(StudentTTwoSidedPValue(0, 5) == Approx(1.0));
  CHECK(StudentTTwoSidedPValue(2.10092204024104, 18) == Approx(0.05).epsilon(1e-9));
}

TEST_CASE("Welch t-test on hand-computed summaries", "[compare_stats]") {
  using gpuperf::analysis::WelchTTest;
  // 10 x (100 +/- 2) vs 10 x (103 +/- 3): se^2 = 0.4 + 0.9 = 1.3, t = 3 / sqrt(1.3) = 2.6312;
  // df = 1.3^2 / (0.4^2/9 + 0.9^2/9) = 15.6804; p = 0.0183764 (mpmath betainc).
  const SummaryStats before{10, 100, 2, 100}, after{10, 103, 3, 103};
  const auto w = WelchTTest(before, after);
  CHECK(w.t == Approx(2.63117405792109).epsilon(1e-12));
  CHECK(w.df == Approx(15.6804123711340).epsilon(1e-12));
  CHECK(w.p_value == Approx(0.0183763936578707).epsilon(1e-9));
  // Equal n and sd: df = 2 (n - 1) = 18, t = 3 / sqrt(0.8) = 3.3541, p = 0.00353274.
  const auto w2 = WelchTTest(before, {10, 103, 2, 0});
  CHECK(w2.df == Approx(18.0).epsilon(1e-12));
  CHECK(w2.p_value == Approx(0.00353273579680351).epsilon(1e-9));
  // Unequal n, faster: 8 x (50 +/- 4) vs 12 x (48 +/- 1): t = -1.3856, df = 7.5871, p = 0.205223.
  const auto w3 = WelchTTest({8, 50, 4, 0}, {12, 48, 1, 0});
  CHECK(w3.t == Approx(-1.38564064605510).epsilon(1e-12));
  CHECK(w3.df == Approx(7.58710389405644).epsilon(1e-12));
  CHECK(w3.p_value == Approx(0.205222979139784).epsilon(1e-9));

  // Delta-method CI: se(R) = sqrt(0.9 + 1.03^2 * 0.4) / 100 = 0.0115081; t_{0.975, 15.68}
  // = 2.12342.
  const auto c = CompareSummaries(before, after, {});
  CHECK(c.verdict == Verdict::kSlower);
  CHECK(c.method == "welch-t + delta-method CI of the mean ratio");
  CHECK(c.ratio == Approx(1.03).epsilon(1e-12));
  CHECK(c.p_value == Approx(0.0183763936578707).epsilon(1e-9));
  CHECK(c.ci_low == Approx(1.00556347831825).epsilon(1e-9));
  CHECK(c.ci_high == Approx(1.05443652168175).epsilon(1e-9));
  CHECK(c.median_after == 103);
  // Not significant and the CI is wide: inconclusive.
  const auto c3 = CompareSummaries({8, 50, 4, 0}, {12, 48, 1, 0}, {});
  CHECK(c3.verdict == Verdict::kInconclusive);
  // Rule 4 needs the whole CI inside 1 +/- 1%: a CI on one side of 1 that is not significant is
  // still inconclusive (10 x 100 vs 10 x 97 or 103, sd 3.5: p = 0.071).
  for (const double mean_after : {97.0, 103.0}) {
    const auto one_sided = CompareSummaries({10, 100, 3.5, 0}, {10, mean_after, 3.5, 0}, {});
    REQUIRE(one_sided.p_value >= 0.05);
    REQUIRE(one_sided.ci_low < 1.01);
    REQUIRE(one_sided.ci_high > 0.99);
    CHECK(one_sided.verdict == Verdict::kInconclusive);
  }
  // Rule 4, same: 1000 x (100 +/- 1) on both sides, CI about [0.9991, 1.0009].
  const auto tight = CompareSummaries({1000, 100, 1, 0}, {1000, 100, 1, 0}, {});
  CHECK(tight.verdict == Verdict::kSame);
  CHECK(tight.p_value == Approx(1.0));
  // Too few repeats, negative or zero summaries.
  CHECK(CompareSummaries({4, 100, 1, 0}, after, {}).verdict == Verdict::kInconclusive);
  CHECK(CompareSummaries({10, -1, 1, 0}, after, {}).verdict == Verdict::kInconclusive);
  // A 0 ns mean is below the timer's resolution: no ratio, no p (Welch would say p = 0).
  const auto zeros = CompareSummaries({10, 0, 0, 0}, {10, 0, 0, 0}, {});
  CHECK(zeros.verdict == Verdict::kInconclusive);
  CHECK_FALSE(zeros.tested);
  const auto z = CompareSummaries({10, 0, 0, 0}, after, {});
  CHECK(z.verdict == Verdict::kInconclusive);
  CHECK_THAT(z.reason, Catch::Contains("undefined"));
  const auto to_zero = CompareSummaries({10, 100, 0, 0}, {10, 0, 0, 0}, {});
  CHECK(to_zero.verdict == Verdict::kInconclusive);
  CHECK_FALSE(to_zero.estimated);
  CHECK_FALSE(to_zero.tested);
}

TEST_CASE("CompareSamples detects a 3% shift with 10 repeats and 1% noise", "[compare_stats]") {
  const double slower = VerdictRate(1.03, Verdict::kSlower);
  const double faster = VerdictRate(0.97, Verdict::kFaster);
  WARN("power over 200 trials: +3% -> slower " << slower * 100 << "%, -3% -> faster "
                                               << faster * 100 << "%");
  CHECK(slower >= 0.95);
  CHECK(faster >= 0.95);
}

TEST_CASE("CompareSamples rarely calls a difference between identical distributions",
          "[compare_stats]") {
  const double false_slower = VerdictRate(1.0, Verdict::kSlower);
  const double false_faster = VerdictRate(1.0, Verdict::kFaster);
  const double same = VerdictRate(1.0, Verdict::kSame);
  WARN("identical distributions over 200 trials: faster or slower "
       << (false_slower + false_faster) * 100 << "%, same " << same * 100 << "%");
  CHECK(false_slower + false_faster <= 0.05);
}

TEST_CASE("CompareSamples is inconclusive with too few or invalid samples", "[compare_stats]") {
  const std::vector<double> ten{10, 11, 10, 12, 10, 11, 10, 12, 11, 10};
  for (std::size_t n : {0u, 1u, 4u}) {
    const std::vector<double> few(ten.begin(), ten.begin() + static_cast<std::ptrdiff_t>(n));
    const auto c = CompareSamples(few, ten, {});
    CHECK(c.verdict == Verdict::kInconclusive);
    CHECK_THAT(c.reason, Catch::Contains("needs at least 5 samples per side"));
    CHECK(CompareSamples(ten, few, {}).verdict == Verdict::kInconclusive);
  }
  std::vector<double> with_nan = ten;
  with_nan[3] = std::nan("");
  const auto c = CompareSamples(ten, with_nan, {});
  CHECK(c.verdict == Verdict::kInconclusive);
  CHECK_THAT(c.reason, Catch::Contains("after samples hold a NaN"));
  std::vector<double> negative = ten;
  negative[0] = -1;
  CHECK(CompareSamples(negative, ten, {}).verdict == Verdict::kInconclusive);
  CompareStatsOptions bad;
  bad.alpha = 0;
  CHECK(CompareSamples(ten, ten, bad).verdict == Verdict::kInconclusive);
}

TEST_CASE("CompareSamples on constant and zero samples", "[compare_stats]") {
  const std::vector<double> ones(5, 1.0), more(5, 1.1), less(5, 0.9), zeros(5, 0.0);
  const auto same = CompareSamples(ones, ones, {});
  CHECK(same.verdict == Verdict::kSame);
  CHECK(same.ratio == 1.0);
  CHECK(same.ci_low == 1.0);
  CHECK(same.ci_high == 1.0);
  // Constant but different: tied within each side, so the normal approximation, p = 0.0039.
  const auto slower = CompareSamples(ones, more, {});
  CHECK(slower.verdict == Verdict::kSlower);
  CHECK(slower.ratio == Approx(1.1));
  CHECK(slower.p_value < 0.05);
  CHECK(CompareSamples(ones, less, {}).verdict == Verdict::kFaster);
  // Zeros: a 0 ns median is below the timer's resolution, never "faster" and never a ratio.
  CHECK(CompareSamples(zeros, zeros, {}).verdict == Verdict::kInconclusive);
  const auto to_zero = CompareSamples(ones, zeros, {});
  CHECK(to_zero.verdict == Verdict::kInconclusive);
  CHECK_FALSE(to_zero.estimated);
  CHECK_THAT(to_zero.reason, Catch::Contains("median after is 0 ns"));
  const auto from_zero = CompareSamples(zeros, ones, {});
  CHECK(from_zero.verdict == Verdict::kInconclusive);
  CHECK_THAT(from_zero.reason, Catch::Contains("median before is 0 ns"));
}

TEST_CASE("CompareSamples separates real-but-small changes from missing evidence",
          "[compare_stats]") {
  Noise noise(7);
  // Rule 3: 0.5% shift, 0.05% noise, 30 repeats: significant but below the 1% threshold.
  const auto small =
      CompareSamples(noise.LogNormal(30, 100, 0.0005), noise.LogNormal(30, 100.5, 0.0005), {});
  CHECK(small.verdict == Verdict::kSame);
  CHECK(small.p_value < 0.05);
  CHECK_THAT(small.reason, Catch::Contains("smaller than the threshold"));
  // Rule 4, same: identical tight samples, p = 1, CI within 1 +/- 1%.
  const std::vector<double> tight{1000, 1001, 999, 1000.5, 999.5, 1000.2, 999.8};
  const auto tie = CompareSamples(tight, tight, {});
  CHECK(tie.verdict == Verdict::kSame);
  CHECK_THAT(tie.reason, Catch::Contains("lies within"));
  // Rule 4, inconclusive: 10% noise hides whatever there is.
  const auto noisy = CompareSamples(
      std::vector<double>{90, 100, 110, 95, 105}, std::vector<double>{92, 101, 108, 97, 103}, {});
  CHECK(noisy.verdict == Verdict::kInconclusive);
  CHECK_THAT(noisy.reason, Catch::Contains("not enough evidence"));
}

TEST_CASE("CompareSamples is deterministic", "[compare_stats]") {
  Noise noise(42);
  const std::vector<double> before = noise.LogNormal(12, 50, 0.02);
  const std::vector<double> after = noise.LogNormal(9, 51, 0.02);
  const auto first = CompareSamples(before, after, {});
  const auto second = CompareSamples(before, after, {});
  CHECK(first.ci_low == second.ci_low);
  CHECK(first.ci_high == second.ci_high);
  CHECK(first.p_value == second.p_value);
  CHECK(first.reason == second.reason);
  CHECK(first.ci_low <= first.ratio);
  CHECK(first.ratio <= first.ci_high);
  CHECK(first.n_before == 12);
  CHECK(first.n_after == 9);
}
