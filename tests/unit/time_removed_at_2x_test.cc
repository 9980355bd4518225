// The share of the wall time a lever at an assumed 2x gives back: set by the analysis from the
// bound, in the statement and its secondary, and written to report.json beside the bound, so that
// report.md prints a figure report.json holds (issue 15, "writers never compute").
#include "analysis/diagnosis/time_removed_at_2x.h"

#include <catch2/catch.hpp>

#include <iterator>

#include "report/json_diagnosis.h"

namespace report = gpuperf::report;
using Catch::Detail::Approx;

TEST_CASE("time removed at 2x: 1 - 1 / the bound, in the statement and its secondary",
          "[diagnosis]") {
  report::Diagnosis d;
  d.bound_speedup_at_2x = 1.25;
  d.time_removed_fraction_at_2x = 0.5;  // stale: the bound decides
  report::Diagnosis secondary;
  secondary.bound_speedup_at_2x = 2.0;
  d.secondary.push_back(secondary);
  gpuperf::analysis::SetTimeRemovedAt2x(d);
  REQUIRE(d.time_removed_fraction_at_2x);
  CHECK(*d.time_removed_fraction_at_2x == Approx(0.2));
  REQUIRE(d.secondary.front().time_removed_fraction_at_2x);
  CHECK(*d.secondary.front().time_removed_fraction_at_2x == Approx(0.5));

  d.bound_speedup_at_2x.reset();  // a statement without a bound at 2x states no share
  gpuperf::analysis::SetTimeRemovedAt2x(d);
  CHECK_FALSE(d.time_removed_fraction_at_2x);
}

TEST_CASE("time removed at 2x: report.json writes it after bound_speedup_at_2x", "[report]") {
  report::Diagnosis d;
  d.bound_speedup_at_2x = 1.25;
  gpuperf::analysis::SetTimeRemovedAt2x(d);
  nlohmann::ordered_json json = report::DiagnosisJson(d);
  CHECK(json["time_removed_fraction_at_2x"].get<double>() == Approx(0.2));
  auto at_2x = json.find("bound_speedup_at_2x");
  REQUIRE(at_2x != json.end());
  CHECK(std::next(at_2x).key() == "time_removed_fraction_at_2x");
  CHECK(report::DiagnosisJson(report::Diagnosis{})["time_removed_fraction_at_2x"].is_null());
}
