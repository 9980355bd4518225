// Nsight Compute values and units, converted by hand (docs/formats.md, "Values").
#include "io/ncu/ncu_values.h"

#include <catch2/catch.hpp>

namespace {

using gpuperf::io::ncu::BaseUnitFactor;
using gpuperf::io::ncu::ConvertValue;
using gpuperf::io::ncu::ParseNumber;
using gpuperf::io::ncu::ValueKind;

double Base(const char* value, const char* unit) {
  auto converted = ConvertValue(value, unit);
  REQUIRE(converted.kind == ValueKind::kNumber);
  return converted.value;
}

TEST_CASE("ncu numbers: thousands separators and locales", "[ncu]") {
  CHECK(*ParseNumber("5,323,503,232.00") == 5323503232.0);
  CHECK(*ParseNumber("34,359,738,368,000.00") == 34359738368000.0);
  CHECK(*ParseNumber("12,904") == 12904.0);
  CHECK(*ParseNumber("9,096.60") == Approx(9096.6));
  CHECK(*ParseNumber("0.995519") == Approx(0.995519));
  CHECK(*ParseNumber("1.234.567") == 1234567.0);     // period thousands (locale variant)
  CHECK(*ParseNumber("1.234,5") == Approx(1234.5));  // period thousands, decimal comma
  CHECK(*ParseNumber("3,5") == Approx(3.5));         // lone decimal comma
  CHECK(*ParseNumber("-2.5") == -2.5);
  CHECK(*ParseNumber(" 42 ") == 42.0);
  CHECK_FALSE(ParseNumber("n/a"));
  CHECK_FALSE(ParseNumber(""));
  CHECK_FALSE(ParseNumber("cudaFuncCachePreferNone"));
  CHECK_FALSE(ParseNumber("2022-Jul-13 15:20:53"));
  CHECK_FALSE(ParseNumber("1.2.3x"));
}

TEST_CASE("ncu units: sizes, times and rates to base units", "[ncu]") {
  CHECK(Base("5,323,503,232.00", "byte") == 5323503232.0);
  CHECK(Base("16.384000", "Kbyte") == Approx(16384));  // decimal prefixes, as ncu prints them
  CHECK(Base("2.33", "Mbyte") == Approx(2.33e6));
  CHECK(Base("1.5", "Gbyte") == Approx(1.5e9));
  CHECK(Base("0.995519", "second") == Approx(995519000));  // to ns
  CHECK(Base("995,518,880", "nsecond") == 995518880.0);
  CHECK(Base("6.46", "us") == Approx(6460));
  CHECK(Base("6.46", "usecond") == Approx(6460));
  CHECK(Base("2.5", "msecond") == Approx(2.5e6));
  CHECK(Base("773.758673", "cycle/usecond") == Approx(773758673));  // to per second
  CHECK(Base("1.228911", "cycle/nsecond") == Approx(1228911000));
  CHECK(Base("764,999,991.90", "cycle/second") == Approx(764999991.9));
  CHECK(Base("1.99", "Ghz") == Approx(1.99e9));
  CHECK(Base("360.51", "Gbyte/s") == Approx(360.51e9));
  CHECK(Base("1.024000", "Kbyte/block") == Approx(1024));
  CHECK(Base("1.28", "Kbyte/cycle") == Approx(1280));
  CHECK(Base("5,145,083,088.72", "cycle") == Approx(5145083088.72));
  CHECK(Base("838,860,800.00", "inst") == 838860800.0);
  CHECK(Base("46.46", "%") == Approx(46.46));
  CHECK(Base("30", "register/thread") == 30.0);
  CHECK(Base("512", "") == 512.0);
  CHECK(*BaseUnitFactor("Kinst") == 1e3);
}

TEST_CASE("ncu values: n/a, text and unknown units are told apart", "[ncu]") {
  CHECK(ConvertValue("n/a", "").kind == ValueKind::kNotAvailable);
  CHECK(ConvertValue("", "byte").kind == ValueKind::kNotAvailable);
  CHECK(ConvertValue("cudaFuncCachePreferNone", "").kind == ValueKind::kText);
  CHECK(ConvertValue("12", "ZB").kind == ValueKind::kUnknownUnit);
  CHECK(ConvertValue("12", "Qbyte/s").kind == ValueKind::kUnknownUnit);
  CHECK_FALSE(BaseUnitFactor("x/0y"));
}

}  // namespace
