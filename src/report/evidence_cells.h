// A finding's evidence table as people read it (report.md only; report.json keeps the raw
// cells): a column "X (ns)" holds integer nanoseconds, shown in human units; a column
// "Start (ns)" holds a timestamp as the trace records it (often ns since the epoch), shown
// relative to the GPU timeline's first activity; a column "Bytes" holds a size, in decimal units.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace gpuperf::report {

// "Duration (ns)" -> "Duration"; "Start (ns)" -> "Start (from first GPU activity)".
std::string EvidenceColumn(std::string_view title);

// "1661203462672529000" under "Start (ns)" with origin 1661203462600000000 -> "+72.5 ms";
// "5000" under "Duration (ns)" -> "5.00 µs"; other columns, or cells that are not integers,
// unchanged.
std::string EvidenceCell(std::string_view title, std::string_view cell, std::int64_t origin_ns);

}  // namespace gpuperf::report
