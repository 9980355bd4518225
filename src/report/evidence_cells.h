// A finding's evidence table as people read it (report.md only; report.json keeps the raw
// cells), by each column's unit (report::ColumnUnit), which the rule that built the table set:
// durations in human units, timestamps relative to the GPU timeline's first activity, sizes in
// decimal units.
#pragma once

#include "gpuperf/report.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace gpuperf::report {

// The header report.md shows: "Duration (ns)" -> "Duration"; "Start (ns)" -> "Start (from first
// GPU activity)"; a text or bytes column's title unchanged.
std::string EvidenceColumn(const FindingColumn& column);

// "1661203462672529000" in a kStartNs column with origin 1661203462600000000 -> "+72.5 ms";
// "5000" in a kDurationNs column -> "5.00 µs"; "262144000" in a kBytes column -> "262 MB"; text
// columns, or cells that are not numbers, unchanged.
std::string EvidenceCell(ColumnUnit unit, std::string_view cell, std::int64_t origin_ns);

}  // namespace gpuperf::report
