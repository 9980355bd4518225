#include "io/ncu/ncu_values.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>

#include "util/text.h"

namespace gpuperf::io::ncu {
namespace {

// Seconds per unit of a time word, or nullopt.
std::optional<double> Seconds(std::string_view word) {
  if (word == "nsecond" || word == "ns")
    return 1e-9;
  if (word == "usecond" || word == "us")
    return 1e-6;
  if (word == "msecond" || word == "ms")
    return 1e-3;
  if (word == "second" || word == "s" || word == "sec")
    return 1.0;
  return std::nullopt;
}

std::optional<double> Hertz(std::string_view word) {
  std::string lower = util::ToLower(word);
  if (lower == "hz")
    return 1.0;
  if (lower == "khz")
    return 1e3;
  if (lower == "mhz")
    return 1e6;
  if (lower == "ghz")
    return 1e9;
  return std::nullopt;
}

bool AllLower(std::string_view word) {
  return !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) != 0;
  });
}

// A count or size word: "byte", "cycle", "inst" (1) or with a decimal prefix: "Kbyte", "Minst".
std::optional<double> CountFactor(std::string_view word) {
  if (AllLower(word))
    return 1.0;
  if (word.size() >= 2 && AllLower(word.substr(1))) {
    switch (word[0]) {
      case 'K':
        return 1e3;
      case 'M':
        return 1e6;
      case 'G':
        return 1e9;
      case 'T':
        return 1e12;
      default:
        break;
    }
  }
  return std::nullopt;
}

std::optional<double> NumeratorFactor(std::string_view word) {
  if (auto seconds = Seconds(word))
    return *seconds * 1e9;  // to nanoseconds
  if (auto hertz = Hertz(word))
    return *hertz;  // to per second
  return CountFactor(word);
}

std::optional<double> DenominatorFactor(std::string_view word) {
  if (auto seconds = Seconds(word))
    return *seconds;  // per second
  return CountFactor(word);
}

}  // namespace

std::optional<double> ParseNumber(std::string_view text) {
  text = util::Trim(text);
  if (text.empty())
    return std::nullopt;
  std::size_t dots = 0, commas = 0, digits = 0;
  for (char c : text) {
    if (c == '.') {
      ++dots;
    } else if (c == ',') {
      ++commas;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      ++digits;
    } else if (c != '-' && c != '+' && c != 'e' && c != 'E') {
      return std::nullopt;
    }
  }
  if (digits == 0)
    return std::nullopt;
  std::string clean;
  clean.reserve(text.size());
  // Which separator groups thousands: periods when there are several or when a comma follows the
  // period ("1.234,5"); a lone comma with other than three digits after it is a decimal comma.
  bool period_thousands = dots > 1 || (dots == 1 && commas > 0 && text.rfind(',') > text.find('.'));
  bool decimal_comma = period_thousands;
  if (dots == 0 && commas == 1) {
    std::size_t after = text.size() - text.find(',') - 1;
    decimal_comma = after != 3;
  }
  for (char c : text) {
    if (c == '.') {
      if (!period_thousands)
        clean += '.';
    } else if (c == ',') {
      if (decimal_comma)
        clean += '.';
    } else {
      clean += c;
    }
  }
  std::string_view view = clean;
  if (!view.empty() && view.front() == '+')
    view.remove_prefix(1);
  double value = 0;
  auto [end, error] = std::from_chars(view.data(), view.data() + view.size(), value);
  if (error != std::errc() || end != view.data() + view.size())
    return std::nullopt;
  return value;
}

std::optional<double> BaseUnitFactor(std::string_view unit) {
  unit = util::Trim(unit);
  if (unit.empty() || unit == "%")
    return 1.0;
  std::size_t slash = unit.find('/');
  if (slash == std::string_view::npos)
    return NumeratorFactor(unit);
  auto numerator = NumeratorFactor(util::Trim(unit.substr(0, slash)));
  auto denominator = DenominatorFactor(util::Trim(unit.substr(slash + 1)));
  if (!numerator || !denominator || *denominator == 0)
    return std::nullopt;
  return *numerator / *denominator;
}

MetricValue ConvertValue(std::string_view text, std::string_view unit) {
  std::string_view trimmed = util::Trim(text);
  if (trimmed.empty() || trimmed == "n/a" || trimmed == "N/A")
    return {ValueKind::kNotAvailable, 0};
  auto number = ParseNumber(trimmed);
  if (!number)
    return {ValueKind::kText, 0};
  auto factor = BaseUnitFactor(unit);
  if (!factor)
    return {ValueKind::kUnknownUnit, *number};
  return {ValueKind::kNumber, *number * *factor};
}

bool MetricNeedsUnit(std::string_view metric) {
  const std::string lower = util::ToLower(metric);
  for (std::string_view word :
       {"duration", "bytes", "per_second", "pct", "throughput", "frequency"}) {
    if (lower.find(word) != std::string::npos)
      return true;
  }
  return false;
}

}  // namespace gpuperf::io::ncu
