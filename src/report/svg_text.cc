#include "report/svg_text.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <iterator>

#include "util/utf8.h"

namespace gpuperf::report::svg {
namespace {

// Characters XML 1.0 forbids (C0 but tab/LF/CR, U+FFFE, U+FFFF) or that render as nothing
// useful in a label (tab, LF, CR, DEL, C1 controls).
bool Unwanted(std::uint32_t code) {
  return code < 0x20 || (code >= 0x7F && code <= 0x9F) || code == 0xFFFE || code == 0xFFFF;
}

}  // namespace

std::string EscapeXml(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (std::size_t i = 0; i < text.size();) {
    const util::CodePoint point = util::DecodeUtf8(text.substr(i));
    if (point.length == 0 || Unwanted(point.code)) {
      out += '?';
      i += point.length == 0 ? 1 : point.length;
      continue;
    }
    switch (point.code) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += text.substr(i, point.length);
    }
    i += point.length;
  }
  return out;
}

std::string FormatSi(double value, std::string_view unit) {
  static constexpr const char* kPrefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  std::size_t prefix = 0;
  double scaled = std::fabs(value);
  while (scaled >= 999.5 && prefix + 1 < std::size(kPrefixes)) {
    scaled /= 1000;
    ++prefix;
  }
  const int decimals = scaled >= 99.95 ? 0 : scaled >= 9.995 ? 1 : 2;
  return fmt::format(
      "{:.{}f} {}{}", value < 0 ? -scaled : scaled, decimals, kPrefixes[prefix], unit);
}

std::string FormatDecade(int exponent) {
  static constexpr const char* kPrefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  if (exponent < -3 || exponent >= 3 * static_cast<int>(std::size(kPrefixes)))
    return fmt::format("1e{}", exponent);
  if (exponent < 0)
    return "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + "1";
  const std::string mantissa = "1" + std::string(static_cast<std::size_t>(exponent % 3), '0');
  if (exponent < 3)
    return mantissa;
  return mantissa + " " + kPrefixes[exponent / 3];
}

std::string Px(double value) {
  std::string text = fmt::format("{:.1f}", value);
  return text == "-0.0" ? "0.0" : text;
}

}  // namespace gpuperf::report::svg
