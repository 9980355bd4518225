// UTF-8 decoding for the writers that must not pass invalid text on (Markdown, SVG).
#pragma once

#include <cstddef>
#include <cstdint>
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

}  // namespace gpuperf::util
