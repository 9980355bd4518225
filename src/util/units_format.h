// Human-readable numbers for Markdown and the terminal. JSON keeps the raw integers; these
// strings are for people and are never parsed back.
#pragma once

#include <cstdint>
#include <string>

namespace gpuperf::util {

// Durations with three significant digits in the largest fitting unit:
// 812 -> "812 ns", 12'345 -> "12.3 µs", 4'560'000 -> "4.56 ms", 1'230'000'000 -> "1.23 s".
// Fractional nanoseconds (averages) are rounded to whole nanoseconds below 1 µs.
std::string FormatDuration(double ns);

// Sizes in decimal units, as bandwidths are (GB/s): 512 -> "512 B", 1536 -> "1.54 kB",
// 3'145'728 -> "3.15 MB".
std::string FormatBytes(double bytes);

// Percentages with one decimal: 12.345 -> "12.3%"; values below 0.05 but above 0 -> "<0.1%".
std::string FormatPercent(double percent);

// Integers with thousands separators: 1234567 -> "1,234,567".
std::string FormatCount(std::int64_t value);

// A ratio with two decimals: 1.234 -> "1.23".
std::string FormatRatio(double ratio);

}  // namespace gpuperf::util
