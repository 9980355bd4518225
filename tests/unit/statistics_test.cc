#include "analysis/core/statistics.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

TEST_CASE("Summarize matches nsys stats definitions on hand-computed values", "[statistics]") {
  // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sum of squared deviations 32, sample variance 32/7.
  std::vector<std::int64_t> values{9, 4, 2, 4, 5, 4, 7, 5};
  auto d = gpuperf::analysis::Summarize(values);
  CHECK(d.count == 8);
  CHECK(d.total == 40);
  CHECK(d.avg == 5.0);
  CHECK(d.med == 4.5);  // mean of the two middle values
  CHECK(d.min == 2);
  CHECK(d.max == 9);
  CHECK(d.stddev == Approx(std::sqrt(32.0 / 7.0)).epsilon(1e-12));
}

TEST_CASE("Summarize handles one value and no values", "[statistics]") {
  std::vector<std::int64_t> one{17};
  auto d = gpuperf::analysis::Summarize(one);
  CHECK(d.med == 17.0);
  CHECK(d.stddev == 0.0);
  std::vector<std::int64_t> none;
  CHECK(gpuperf::analysis::Summarize(none).count == 0);
}

TEST_CASE("Summarize is exact for large nanosecond values", "[statistics]") {
  // Around 1e12 ns a one-pass variance loses the small spread; the two-pass one keeps it.
  std::vector<std::int64_t> values{1'000'000'000'002, 1'000'000'000'000, 1'000'000'000'001};
  auto d = gpuperf::analysis::Summarize(values);
  CHECK(d.total == 3'000'000'000'003);
  CHECK(d.med == 1'000'000'000'001.0);
  CHECK(d.stddev == Approx(1.0).epsilon(1e-9));
}

TEST_CASE("Summarize's median by selection equals the sorted median", "[statistics]") {
  std::mt19937 rng(5);
  for (int n = 1; n < 64; ++n) {
    std::vector<std::int64_t> values;
    for (int i = 0; i < n; ++i)
      values.push_back(std::uniform_int_distribution<std::int64_t>(0, 20)(rng));  // with ties
    std::vector<std::int64_t> sorted = values;
    std::sort(sorted.begin(), sorted.end());
    std::size_t mid = sorted.size() / 2;
    double expected = n % 2 == 1 ? static_cast<double>(sorted[mid])
                                 : (static_cast<double>(sorted[mid - 1] + sorted[mid])) / 2.0;
    auto d = gpuperf::analysis::Summarize(values);
    INFO("n = " << n);
    CHECK(d.med == expected);
    CHECK(d.min == sorted.front());
    CHECK(d.max == sorted.back());
  }
}
