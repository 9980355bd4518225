#include "util/intervals.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <random>
#include <vector>

#include "util/sort_runs.h"

using gpuperf::util::Interval;

TEST_CASE("MergeIntervals unions overlaps and drops empty intervals", "[intervals]") {
  auto merged = gpuperf::util::MergeIntervals({{10, 20}, {0, 5}, {15, 30}, {40, 40}, {30, 35}});
  REQUIRE(merged == std::vector<Interval>{{0, 5}, {10, 35}});
  CHECK(gpuperf::util::TotalLength(merged) == 30);
}

TEST_CASE("Subtract removes covered parts", "[intervals]") {
  std::vector<Interval> a{{0, 10}, {20, 30}};
  std::vector<Interval> b{{5, 22}, {25, 26}};
  REQUIRE(gpuperf::util::Subtract(a, b) == std::vector<Interval>{{0, 5}, {22, 25}, {26, 30}});
  CHECK(gpuperf::util::Subtract(a, {}) == a);
  CHECK(gpuperf::util::Subtract({}, b).empty());
}

TEST_CASE("Intersect keeps only common parts", "[intervals]") {
  std::vector<Interval> a{{0, 10}, {20, 30}};
  std::vector<Interval> b{{5, 22}, {25, 26}};
  REQUIRE(gpuperf::util::Intersect(a, b) == std::vector<Interval>{{5, 10}, {20, 22}, {25, 26}});
}

TEST_CASE("CoveredLength projects a window onto merged intervals", "[intervals]") {
  std::vector<Interval> merged{{0, 10}, {20, 30}, {40, 50}};
  CHECK(gpuperf::util::CoveredLength(merged, 5, 45) == 5 + 10 + 5);
  CHECK(gpuperf::util::CoveredLength(merged, 10, 20) == 0);
  CHECK(gpuperf::util::CoveredLength(merged, 30, 30) == 0);
  CHECK(gpuperf::util::CoveredLength(merged, -100, 100) == 30);
}

TEST_CASE("CoverageSweep answers ascending queries as CoveredLength does", "[intervals]") {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> point(0, 1000);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<Interval> raw;
    for (int i = 0; i < 40; ++i) {
      int a = point(rng);
      raw.push_back({a, a + point(rng) / 20});
    }
    std::vector<Interval> merged = gpuperf::util::MergeIntervals(raw);
    std::vector<std::int64_t> starts;
    for (int i = 0; i < 60; ++i)
      starts.push_back(point(rng));
    std::sort(starts.begin(), starts.end());
    gpuperf::util::CoverageSweep sweep(merged);
    for (std::int64_t start : starts) {
      // Lengths vary, empty and reversed windows included; only the starts ascend.
      std::int64_t end = start + point(rng) / 10 - 10;
      INFO("trial " << trial << " [" << start << ", " << end << ")");
      CHECK(sweep.Covered(start, end) == gpuperf::util::CoveredLength(merged, start, end));
    }
  }
}

TEST_CASE("IntervalProbe answers queries in any order as Overlaps and CoveredLength do",
          "[intervals]") {
  std::mt19937 rng(13);
  std::uniform_int_distribution<int> point(0, 1000);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<Interval> raw;
    for (int i = 0; i < trial; ++i) {  // from no interval up
      int a = point(rng);
      raw.push_back({a, a + point(rng) / 20});
    }
    std::vector<Interval> merged = gpuperf::util::MergeIntervals(raw);
    std::vector<std::int64_t> starts;
    for (int i = 0; i < 80; ++i)
      starts.push_back(point(rng) - 20);
    // Ascending runs (the probe's fast path) broken by jumps back, past both ends of the set.
    std::sort(starts.begin(), starts.begin() + 40);
    std::sort(starts.begin() + 50, starts.end());
    gpuperf::util::IntervalProbe probe(merged);
    for (std::int64_t start : starts) {
      std::int64_t end = start + point(rng) / 10 - 10;
      INFO("trial " << trial << " [" << start << ", " << end << ")");
      CHECK(probe.Overlaps(start, end) == gpuperf::util::Overlaps(merged, start, end));
      CHECK(probe.Covered(start, end) == gpuperf::util::CoveredLength(merged, start, end));
    }
  }
}

TEST_CASE("SortRuns sorts inputs of any order and run structure", "[intervals]") {
  std::mt19937 rng(7);
  auto check = [](std::vector<int> values) {
    std::vector<int> expected = values;
    std::sort(expected.begin(), expected.end());
    gpuperf::util::SortRuns(values.begin(), values.end(), std::less<int>());
    CHECK(values == expected);
  };
  check({});
  check({1});
  check({1, 2, 3});
  check({3, 2, 1});
  check({1, 5, 9, 2, 6, 10, 3, 7, 11});  // three interleaved runs
  std::vector<int> runs;                 // five long sorted runs, as five threads write them
  for (int r = 0; r < 5; ++r) {
    for (int i = 0; i < 1000; ++i)
      runs.push_back(i * 5 + r);
  }
  check(runs);
  std::vector<int> random(5000);
  for (int& v : random)
    v = static_cast<int>(rng() % 1000);
  check(random);  // many short runs: the std::sort path
}

TEST_CASE("UnionLength and Overlaps agree with the merged set", "[intervals]") {
  std::vector<gpuperf::util::Interval> raw{
      {10, 20}, {0, 5}, {15, 30}, {40, 40}, {30, 35}, {50, 45}};
  auto merged = gpuperf::util::MergeIntervals(raw);
  CHECK(gpuperf::util::UnionLength(raw) == gpuperf::util::TotalLength(merged));
  CHECK(gpuperf::util::UnionLength(raw) == 30);
  CHECK(gpuperf::util::Overlaps(merged, 4, 6));
  CHECK_FALSE(gpuperf::util::Overlaps(merged, 5, 10));  // half-open: [0, 5) ends where it starts
  CHECK_FALSE(gpuperf::util::Overlaps(merged, 36, 100));
  CHECK(gpuperf::util::Overlaps(merged, 34, 100));
  CHECK_FALSE(gpuperf::util::Overlaps(merged, 12, 12));  // empty query
}

TEST_CASE("PrefixCover gives the covered length inside any window by two searches", "[intervals]") {
  const gpuperf::util::PrefixCover cover({{10, 20}, {30, 40}, {50, 60}});
  CHECK(cover.Within(0, 100) == 30);
  CHECK(cover.Within(15, 35) == 10);  // 15-20 and 30-35
  CHECK(cover.Within(20, 30) == 0);   // between two intervals
  CHECK(cover.Within(55, 55) == 0);   // empty window
  CHECK(cover.Within(35, 12) == 0);   // reversed window
  CHECK(gpuperf::util::PrefixCover().Within(0, 10) == 0);
}
