// Text and numbers for SVG output (roofline.svg): XML escaping of trace strings and fixed,
// locale-free number formatting.
#pragma once

#include <string>
#include <string_view>

namespace gpuperf::report::svg {

// Returns `text` as XML character data, safe in an element or a quoted attribute:
//  - & < > " ' become &amp; &lt; &gt; &quot; &apos;
//  - control characters (C0 including tab and newline, DEL, C1) and bytes that are not valid
//    UTF-8 become '?', and so do U+FFFE / U+FFFF, which XML forbids.
// Example: "a<b>\x01\xff" -> "a&lt;b&gt;??".
std::string EscapeXml(std::string_view text);

// Three significant digits with a decimal SI prefix: (1.95e13, "FLOP/s") -> "19.5 TFLOP/s",
// (2.039e12, "B/s") -> "2.04 TB/s", (812, "B/s") -> "812 B/s".
std::string FormatSi(double value, std::string_view unit);

// The tick label of 10^exponent: plain decimals from 0.001 to 100 ("0.01", "1", "100"), an SI
// prefix above ("1 k", "10 T", "1 P"), and "1e-5" style below 0.001.
std::string FormatDecade(int exponent);

// A coordinate with one decimal: 656.789 -> "656.8".
std::string Px(double value);

}  // namespace gpuperf::report::svg
