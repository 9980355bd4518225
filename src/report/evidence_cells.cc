#include "report/evidence_cells.h"

#include <charconv>

#include "util/units_format.h"

namespace gpuperf::report {
namespace {

constexpr std::string_view kNsSuffix = " (ns)";

bool EndsWithNs(std::string_view title) {
  return title.size() > kNsSuffix.size() &&
         title.substr(title.size() - kNsSuffix.size()) == kNsSuffix;
}

bool IsStart(std::string_view title) {
  return title == "Start (ns)";
}

}  // namespace

std::string EvidenceColumn(std::string_view title) {
  if (IsStart(title))
    return "Start (from first GPU activity)";
  if (EndsWithNs(title))
    return std::string(title.substr(0, title.size() - kNsSuffix.size()));
  return std::string(title);
}

std::string EvidenceCell(std::string_view title, std::string_view cell, std::int64_t origin_ns) {
  if (title == "Bytes") {  // the sizes of nsys's copy tables
    std::int64_t bytes = 0;
    auto [end, error] = std::from_chars(cell.data(), cell.data() + cell.size(), bytes);
    return error == std::errc() && end == cell.data() + cell.size()
               ? util::FormatBytes(static_cast<double>(bytes))
               : std::string(cell);
  }
  if (!EndsWithNs(title))
    return std::string(cell);
  const char* last = cell.data() + cell.size();
  if (!IsStart(title)) {  // durations may be averages: "3091.2"
    double value = 0;
    auto [end, error] = std::from_chars(cell.data(), last, value);
    return error == std::errc() && end == last ? util::FormatDuration(value) : std::string(cell);
  }
  std::int64_t ns = 0;  // timestamps are integers; exact, never through a double
  auto [end, error] = std::from_chars(cell.data(), last, ns);
  if (error != std::errc() || end != last)
    return std::string(cell);
  const std::int64_t offset = ns - origin_ns;
  return (offset < 0 ? "−" : "+") +
         util::FormatDuration(static_cast<double>(offset < 0 ? -offset : offset));
}

}  // namespace gpuperf::report
