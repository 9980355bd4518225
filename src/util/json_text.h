// Byte-level helpers of the JSON reader: byte classes, number grammar, UTF-8 and quoting.
// Internal to util/json_reader.cc; kept apart so that the reader reads as a state machine.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace gpuperf::util::json_text {

// Byte classes, looked up once per byte in the hot loops.
inline constexpr std::uint8_t kSpace = 1;
inline constexpr std::uint8_t kNumberByte = 2;  // may continue a number literal
inline constexpr std::uint8_t kStringStop = 4;  // '"', '\\' or a control character
inline constexpr std::array<std::uint8_t, 256> kClass = [] {
  std::array<std::uint8_t, 256> table{};
  for (char c : {' ', '\n', '\r', '\t'})
    table[static_cast<unsigned char>(c)] |= kSpace;
  for (char c : std::string_view("0123456789+-.eE")) {
    table[static_cast<unsigned char>(c)] |= kNumberByte;
  }
  for (int c = 0; c < 0x20; ++c)
    table[c] |= kStringStop;
  table['"'] |= kStringStop;
  table['\\'] |= kStringStop;
  return table;
}();

inline bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

inline std::uint8_t ClassOf(char c) {
  return kClass[static_cast<unsigned char>(c)];
}

// True when one of the 8 bytes at p is '"', '\\' or below 0x20 (SWAR: long names skip the
// byte loop).
inline bool HasStringStop(const char* p) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHigh = 0x8080808080808080ULL;
  std::uint64_t x;
  std::memcpy(&x, p, sizeof(x));
  std::uint64_t quote = x ^ (kOnes * '"');
  std::uint64_t slash = x ^ (kOnes * '\\');
  std::uint64_t found =
      ((quote - kOnes) & ~quote) | ((slash - kOnes) & ~slash) | ((x - kOnes * 0x20) & ~x);
  return (found & kHigh) != 0;
}

// A byte as it should appear in a message: 'x' when printable, "byte 0x1f" otherwise.
std::string Describe(int c);

// Whether `text` nests arrays and objects deeper than `max_depth` (brackets inside strings do
// not count). A cheap guard before a DOM parser that recurses when it destroys the document.
bool JsonNestingDeeperThan(std::string_view text, std::size_t max_depth);
// RFC 8259 number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool IsJsonNumber(std::string_view s);
// The value of a hex digit, -1 for other bytes.
int HexValue(char c);
void AppendUtf8(std::uint32_t code_point, std::string* out);
// `s` as a JSON string literal with the escapes JSON requires.
void AppendQuoted(std::string_view s, std::string* out);

}  // namespace gpuperf::util::json_text
