#include "report/evidence_cells.h"

#include <charconv>

#include "util/units_format.h"

namespace gpuperf::report {
namespace {

// A title without the unit report.md states by formatting: "Duration (ns)" -> "Duration".
std::string_view WithoutNsSuffix(std::string_view title) {
  constexpr std::string_view kNsSuffix = " (ns)";
  if (title.size() > kNsSuffix.size() && title.ends_with(kNsSuffix))
    title.remove_suffix(kNsSuffix.size());
  return title;
}

std::string Bytes(std::string_view cell) {
  std::int64_t bytes = 0;
  auto [end, error] = std::from_chars(cell.data(), cell.data() + cell.size(), bytes);
  return error == std::errc() && end == cell.data() + cell.size()
             ? util::FormatBytes(static_cast<double>(bytes))
             : std::string(cell);
}

// Durations may be averages: "3091.2".
std::string Duration(std::string_view cell) {
  const char* last = cell.data() + cell.size();
  double value = 0;
  auto [end, error] = std::from_chars(cell.data(), last, value);
  return error == std::errc() && end == last ? util::FormatDuration(value) : std::string(cell);
}

// Timestamps are integers; exact, never through a double.
std::string Start(std::string_view cell, std::int64_t origin_ns) {
  const char* last = cell.data() + cell.size();
  std::int64_t ns = 0;
  auto [end, error] = std::from_chars(cell.data(), last, ns);
  if (error != std::errc() || end != last)
    return std::string(cell);
  const std::int64_t offset = ns - origin_ns;
  return (offset < 0 ? "−" : "+") +
         util::FormatDuration(static_cast<double>(offset < 0 ? -offset : offset));
}

}  // namespace

std::string EvidenceColumn(const FindingColumn& column) {
  switch (column.unit) {
    case ColumnUnit::kStartNs:
      return std::string(WithoutNsSuffix(column.title)) + " (from first GPU activity)";
    case ColumnUnit::kDurationNs:
      return std::string(WithoutNsSuffix(column.title));
    case ColumnUnit::kText:
    case ColumnUnit::kBytes:
      break;
  }
  return column.title;
}

std::string EvidenceCell(ColumnUnit unit, std::string_view cell, std::int64_t origin_ns) {
  switch (unit) {
    case ColumnUnit::kBytes:
      return Bytes(cell);
    case ColumnUnit::kDurationNs:
      return Duration(cell);
    case ColumnUnit::kStartNs:
      return Start(cell, origin_ns);
    case ColumnUnit::kText:
      break;
  }
  return std::string(cell);
}

}  // namespace gpuperf::report
