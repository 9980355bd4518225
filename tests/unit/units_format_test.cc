#include "util/units_format.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

#include "util/counted.h"

namespace gpuperf::util {
namespace {

TEST_CASE("FormatDuration picks the largest unit with three significant digits") {
  CHECK(FormatDuration(0) == "0 ns");
  CHECK(FormatDuration(812) == "812 ns");
  CHECK(FormatDuration(999) == "999 ns");
  CHECK(FormatDuration(999.6) == "1.00 µs");  // would print "1000 ns"
  CHECK(FormatDuration(1'000) == "1.00 µs");
  CHECK(FormatDuration(12'345) == "12.3 µs");
  CHECK(FormatDuration(999'499) == "999 µs");
  CHECK(FormatDuration(999'500) == "1.00 ms");
  CHECK(FormatDuration(4'560'000) == "4.56 ms");
  CHECK(FormatDuration(1'230'000'000) == "1.23 s");
  CHECK(FormatDuration(3'600e9) == "3600 s");
  CHECK(FormatDuration(149'000.5) == "149 µs");
  CHECK(FormatDuration(std::numeric_limits<double>::quiet_NaN()) == "n/a");
  CHECK(FormatDuration(std::numeric_limits<double>::infinity()) == "n/a");
}

TEST_CASE("FormatBytes uses decimal units, as the bandwidths do") {
  CHECK(FormatBytes(0) == "0 B");
  CHECK(FormatBytes(512) == "512 B");
  CHECK(FormatBytes(1536) == "1.54 kB");
  CHECK(FormatBytes(3 * 1024 * 1024) == "3.15 MB");
  CHECK(FormatBytes(999'499) == "999 kB");
  CHECK(FormatBytes(999'500) == "1.00 MB");
  CHECK(FormatBytes(80e9) == "80.0 GB");
}

TEST_CASE("FormatPercent shows one decimal and marks tiny shares") {
  CHECK(FormatPercent(12.345) == "12.3%");
  CHECK(FormatPercent(100) == "100.0%");
  CHECK(FormatPercent(0) == "0.0%");
  CHECK(FormatPercent(0.01) == "<0.1%");
}

TEST_CASE("FormatCount groups thousands, including the extremes") {
  CHECK(FormatCount(0) == "0");
  CHECK(FormatCount(999) == "999");
  CHECK(FormatCount(1'000) == "1,000");
  CHECK(FormatCount(1'234'567) == "1,234,567");
  CHECK(FormatCount(-1'234) == "-1,234");
  CHECK(FormatCount(std::numeric_limits<std::int64_t>::min()) == "-9,223,372,036,854,775,808");
}

TEST_CASE("FormatRatio has two decimals") {
  CHECK(FormatRatio(0.0271) == "0.03");
  CHECK(FormatRatio(12.5) == "12.50");
}

}  // namespace
}  // namespace gpuperf::util

#include "report/evidence_cells.h"

namespace gpuperf::report {

TEST_CASE("evidence tables show human units and times from the first GPU activity") {
  CHECK(EvidenceColumn({"Duration (ns)", ColumnUnit::kDurationNs}) == "Duration");
  CHECK(EvidenceColumn({"Start (ns)", ColumnUnit::kStartNs}) == "Start (from first GPU activity)");
  CHECK(EvidenceColumn({"PID"}) == "PID");
  CHECK(EvidenceColumn({"Bytes", ColumnUnit::kBytes}) == "Bytes");
  CHECK(EvidenceCell(ColumnUnit::kDurationNs, "5000", 0) == "5.00 µs");
  CHECK(EvidenceCell(ColumnUnit::kStartNs, "1661203462672529000", 1661203462600000000) ==
        "+72.5 ms");
  CHECK(EvidenceCell(ColumnUnit::kStartNs, "1000", 3000) == "−2.00 µs");
  CHECK(EvidenceCell(ColumnUnit::kStartNs, "n/a", 0) == "n/a");
  CHECK(EvidenceCell(ColumnUnit::kText, "1234", 0) == "1234");
  CHECK(EvidenceCell(ColumnUnit::kBytes, "262144000", 0) == "262 MB");
  CHECK(EvidenceCell(ColumnUnit::kDurationNs, "3091.2", 0) == "3.09 µs");
  // The unit decides, not the title: a text column titled in ns stays as it is.
  CHECK(EvidenceCell(ColumnUnit::kText, "5000", 0) == "5000");
}

}  // namespace gpuperf::report

TEST_CASE("Counted puts the noun in the count's number") {
  using gpuperf::util::Counted;
  CHECK(Counted(1, "instance", "instances") == "1 instance");
  CHECK(Counted(0, "copy", "copies") == "0 copies");
  CHECK(Counted(12, "copy", "copies") == "12 copies");
}
