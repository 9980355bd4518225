#include "util/intervals.h"

#include <catch2/catch.hpp>

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
