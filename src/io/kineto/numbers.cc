#include "io/kineto/numbers.h"

#include <limits>

namespace gpuperf::io::kineto {
namespace {

// A decimal literal as significant digits d1 d2 ... and an exponent: value = 0.d1d2... × 10^point.
struct Decimal {
  bool negative = false;
  char digits[40] = {};
  int count = 0;                 // significant digits kept (more than 40 cannot fit int64 anyway)
  bool dropped_nonzero = false;  // digits beyond `digits` that were not 0
  long point = 0;
};

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

void Push(Decimal* d, char c) {
  if (d->count < static_cast<int>(sizeof(d->digits))) {
    d->digits[d->count++] = c;
  } else if (c != '0') {
    d->dropped_nonzero = true;
  }
}

std::optional<Decimal> Decompose(std::string_view s) {
  Decimal d;
  std::size_t i = 0;
  if (i < s.size() && s[i] == '-') {
    d.negative = true;
    ++i;
  }
  std::size_t int_start = i;
  for (; i < s.size() && IsDigit(s[i]); ++i) {
    if (d.count == 0 && s[i] == '0')
      continue;  // leading zero
    Push(&d, s[i]);
    ++d.point;
  }
  if (i == int_start)
    return std::nullopt;
  if (i < s.size() && s[i] == '.') {
    std::size_t frac_start = ++i;
    for (; i < s.size() && IsDigit(s[i]); ++i) {
      if (d.count == 0 && s[i] == '0') {
        --d.point;  // 0.00x: the zeros move the point
        continue;
      }
      Push(&d, s[i]);
    }
    if (i == frac_start)
      return std::nullopt;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    bool negative_exponent = i < s.size() && s[i] == '-';
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
      ++i;
    std::size_t exp_start = i;
    long exponent = 0;
    for (; i < s.size() && IsDigit(s[i]); ++i) {
      if (exponent < 100000)
        exponent = exponent * 10 + (s[i] - '0');  // saturates
    }
    if (i == exp_start)
      return std::nullopt;
    d.point += negative_exponent ? -exponent : exponent;
  }
  if (i != s.size())
    return std::nullopt;
  return d;
}

// The value × 10^scale, rounded to the nearest integer (halves away from zero). With
// `exact`, a value that is not an integer after scaling is rejected instead.
std::optional<std::int64_t> ToScaledInt(const Decimal& d, long scale, bool exact) {
  if (d.count == 0)
    return 0;
  long whole = d.point + scale;  // how many significant digits lie before the point
  if (whole > 19)
    return std::nullopt;
  std::uint64_t magnitude = 0;
  for (long k = 0; k < whole; ++k) {
    magnitude = magnitude * 10 + (k < d.count ? static_cast<unsigned>(d.digits[k] - '0') : 0);
  }
  bool rest_nonzero = d.dropped_nonzero;
  for (long k = whole < 0 ? 0 : whole; k < d.count; ++k)
    rest_nonzero |= d.digits[k] != '0';
  if (rest_nonzero) {
    if (exact)
      return std::nullopt;  // "42.5" is not an integer; "42.0" is
    if (whole >= 0 && whole < d.count && d.digits[whole] >= '5')
      ++magnitude;
  }
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (magnitude > kMax + (d.negative ? 1 : 0))
    return std::nullopt;
  if (!d.negative)
    return static_cast<std::int64_t>(magnitude);
  return magnitude == kMax + 1 ? std::numeric_limits<std::int64_t>::min()
                               : -static_cast<std::int64_t>(magnitude);
}

// The common shapes, "-?D{1,15}" optionally followed by ".F{1,3}", without the general path.
// Returns false when the literal has another shape. Example: "12.5" -> 12 and 500 (× 10^-3).
bool ParseSimple(std::string_view s, std::int64_t* whole, std::int64_t* thousandths) {
  std::size_t i = s.size() > 0 && s[0] == '-' ? 1 : 0;
  std::size_t int_start = i;
  std::int64_t value = 0;
  for (; i < s.size() && IsDigit(s[i]) && i - int_start < 16; ++i) {
    value = value * 10 + (s[i] - '0');  // at most 16 digits: no overflow
  }
  std::size_t int_digits = i - int_start;
  if (int_digits == 0 || int_digits > 15 || (int_digits > 1 && s[int_start] == '0'))
    return false;
  std::int64_t fraction = 0;
  if (i < s.size() && s[i] == '.') {
    std::size_t frac_start = ++i;
    for (; i < s.size() && IsDigit(s[i]) && i - frac_start < 3; ++i) {
      fraction = fraction * 10 + (s[i] - '0');
    }
    std::size_t frac_digits = i - frac_start;
    if (frac_digits == 0)
      return false;
    for (std::size_t k = frac_digits; k < 3; ++k)
      fraction *= 10;
  }
  if (i != s.size())
    return false;
  bool negative = int_start == 1;
  *whole = negative ? -value : value;
  *thousandths = negative ? -fraction : fraction;
  return true;
}

}  // namespace

std::optional<std::int64_t> ParseMicrosAsNs(std::string_view literal) {
  std::int64_t whole = 0;
  std::int64_t thousandths = 0;
  if (ParseSimple(literal, &whole, &thousandths))
    return whole * 1000 + thousandths;
  auto d = Decompose(literal);
  if (!d)
    return std::nullopt;
  return ToScaledInt(*d, 3, /*exact=*/false);
}

std::optional<std::int64_t> ParseInt64(std::string_view literal) {
  std::int64_t whole = 0;
  std::int64_t thousandths = 0;
  if (ParseSimple(literal, &whole, &thousandths)) {
    if (thousandths != 0)
      return std::nullopt;
    return whole;
  }
  auto d = Decompose(literal);
  if (!d)
    return std::nullopt;
  return ToScaledInt(*d, 0, /*exact=*/true);
}

std::optional<std::int64_t> ParseEmbeddedInt(std::string_view text) {
  constexpr std::string_view kStream = "stream ";
  if (text.size() > kStream.size() &&
      (text.substr(0, kStream.size()) == kStream || text.substr(0, kStream.size()) == "Stream ")) {
    text.remove_prefix(kStream.size());
    std::size_t digits = 0;
    while (digits < text.size() && IsDigit(text[digits]))
      ++digits;
    text = text.substr(0, digits);  // "stream 7 (sync)" -> "7"
  }
  if (text.empty())
    return std::nullopt;
  return ParseInt64(text);
}

}  // namespace gpuperf::io::kineto
