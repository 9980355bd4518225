// Nsight Compute metric values as the CSV prints them: numbers with thousands separators in a
// unit that ncu scaled for display ("5,323,503,232.00" byte, "6.46" us, "773.76" cycle/usecond).
// Everything is converted to base units: bytes, nanoseconds, counts, per second, percent.
#pragma once

#include <optional>
#include <string_view>

namespace gpuperf::io::ncu {

// A number as ncu prints it: "1,234.5" (comma thousands), "1.234,5" and "1.234.567" (period
// thousands, a locale variant), "0.995519". nullopt for anything else ("n/a", text).
std::optional<double> ParseNumber(std::string_view text);

// The factor that takes a value in `unit` to base units, or nullopt for a unit we do not know.
//  - sizes with decimal prefixes: byte, Kbyte (1e3), Mbyte, Gbyte, Tbyte;
//  - time to nanoseconds: nsecond/ns, usecond/us, msecond/ms, second/s;
//  - frequencies to per second: hz, khz, mhz, ghz (any case);
//  - counts (cycle, inst, warp, sector, ...) and %: 1; prefixed counts (Kinst) scale like sizes;
//  - "x/y": x's factor divided by y's, where a time in the denominator is taken in seconds
//    (cycle/usecond -> cycle per second, Gbyte/second -> byte per second).
std::optional<double> BaseUnitFactor(std::string_view unit);

// Whether a value of `metric` (a raw name, or "label:Section/Name") has a dimension that ncu
// scales for display (durations, bytes, rates, percentages): such a value without a unit is
// never taken as base units. Counts (instructions, ops, cycles, ratios) need none: gpuperf's own
// counter pass writes them without one, as ncu does for ratios.
bool MetricNeedsUnit(std::string_view metric);

enum class ValueKind { kNumber, kNotAvailable, kText, kUnknownUnit };

struct MetricValue {
  ValueKind kind = ValueKind::kText;
  double value = 0;  // in base units when kind == kNumber
};

// Parses `text` in `unit` and converts it. "n/a" and empty text are kNotAvailable; a value that is
// not a number is kText (launch__func_cache_config, a timestamp); a number in a unit that
// BaseUnitFactor does not know is kUnknownUnit.
MetricValue ConvertValue(std::string_view text, std::string_view unit);

}  // namespace gpuperf::io::ncu
