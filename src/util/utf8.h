// UTF-8 decoding for the writers that must not pass invalid text on (Markdown, SVG), and
// shortening that never cuts a character.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gpuperf::util {

// The code point of the valid UTF-8 sequence at the start of `text` and its length in bytes;
// length 0 when the sequence is invalid (truncated, overlong, surrogate, past U+10FFFF).
struct CodePoint {
  std::uint32_t code = 0;
  std::size_t length = 0;
};

// `text` must not be empty.
CodePoint DecodeUtf8(std::string_view text);

// Shortens `text` to at most `max_chars` characters (code points), replacing the tail with "…"
// when it is longer. Never cuts a UTF-8 sequence; an invalid byte counts as one character.
std::string Shorten(std::string_view text, std::size_t max_chars);

// `text` and " [tag]" within about `max_chars` characters, `text` shortened first so that the
// tag (itself cut to a third of `max_chars`) stays readable: "elementwise_kernel<128, …>
// [aten::mul]". Without a tag, Shorten(text, max_chars).
std::string ShortenWithTag(std::string_view text, std::string_view tag, std::size_t max_chars);

}  // namespace gpuperf::util
