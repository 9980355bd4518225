#include "util/units_format.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace gpuperf::util {
namespace {

// printf's fixed notation (util stays free of fmt): Fixed(1.234, 2) -> "1.23".
std::string Fixed(double value, int decimals) {
  char buffer[64];
  int n = std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return n > 0 && static_cast<std::size_t>(n) < sizeof buffer
             ? std::string(buffer, static_cast<std::size_t>(n))
             : std::string("n/a");
}

// Three significant digits: 1.23, 12.3, 123.
std::string ThreeDigits(double value) {
  double magnitude = std::fabs(value);
  if (magnitude >= 99.95)
    return Fixed(value, 0);
  if (magnitude >= 9.995)
    return Fixed(value, 1);
  return Fixed(value, 2);
}

bool Unusable(double value) {
  return !std::isfinite(value);
}

}  // namespace

std::string FormatDuration(double ns) {
  if (Unusable(ns))
    return "n/a";
  double magnitude = std::fabs(ns);
  // Thresholds sit where rounding to three digits would print "1000 x".
  if (magnitude < 999.5)
    return Fixed(ns, 0) + " ns";
  if (magnitude < 999'500.0)
    return ThreeDigits(ns / 1e3) + " µs";
  if (magnitude < 999'500'000.0)
    return ThreeDigits(ns / 1e6) + " ms";
  return ThreeDigits(ns / 1e9) + " s";
}

std::string FormatBytes(double bytes) {
  if (Unusable(bytes))
    return "n/a";
  // Decimal units, the same system as the bandwidths (GB/s, TB/s) and nsys's MB.
  static constexpr const char* kUnits[] = {"B", "kB", "MB", "GB", "TB", "PB"};
  double value = bytes;
  std::size_t unit = 0;
  while (std::fabs(value) >= 999.5 && unit + 1 < std::size(kUnits)) {
    value /= 1000.0;
    ++unit;
  }
  if (unit == 0)
    return Fixed(value, 0) + " B";
  return ThreeDigits(value) + " " + kUnits[unit];
}

std::string FormatPercent(double percent) {
  if (Unusable(percent))
    return "n/a";
  if (percent > 0 && percent < 0.05)
    return "<0.1%";
  return Fixed(percent, 1) + "%";
}

std::string FormatCount(std::int64_t value) {
  // -(value + 1) + 1 avoids overflowing on INT64_MIN.
  std::uint64_t magnitude =
      value < 0 ? static_cast<std::uint64_t>(-(value + 1)) + 1 : static_cast<std::uint64_t>(value);
  std::string digits = std::to_string(magnitude);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0)
      out += ',';
    out += digits[i];
  }
  return value < 0 ? "-" + out : out;
}

std::string FormatRatio(double ratio) {
  if (Unusable(ratio))
    return "n/a";
  return Fixed(ratio, 2);
}

}  // namespace gpuperf::util
