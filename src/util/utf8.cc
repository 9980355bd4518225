#include "util/utf8.h"

#include <string>

namespace gpuperf::util {

CodePoint DecodeUtf8(std::string_view text) {
  auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(text[i]); };
  const std::uint8_t lead = byte(0);
  if (lead < 0x80)
    return {lead, 1};
  std::size_t length = 0;
  std::uint32_t min_code = 0;
  std::uint32_t code = 0;
  if ((lead & 0xE0) == 0xC0) {
    length = 2, min_code = 0x80, code = lead & 0x1Fu;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, min_code = 0x800, code = lead & 0x0Fu;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, min_code = 0x10000, code = lead & 0x07u;
  } else {
    return {};
  }
  if (text.size() < length)
    return {};
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80)
      return {};
    code = (code << 6) | (byte(i) & 0x3Fu);
  }
  if (code < min_code || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
    return {};
  return {code, length};
}

std::string Shorten(std::string_view text, std::size_t max_chars) {
  if (max_chars == 0)
    return {};
  // Walk code points; an invalid byte counts as one character.
  std::size_t chars = 0;
  std::size_t cut = std::string_view::npos;  // byte offset after max_chars - 1 characters
  for (std::size_t i = 0; i < text.size(); ++chars) {
    if (chars == max_chars - 1)
      cut = i;
    if (chars == max_chars)
      return std::string(text.substr(0, cut)) + "\xE2\x80\xA6";  // U+2026, the ellipsis
    std::size_t length = DecodeUtf8(text.substr(i)).length;
    i += length == 0 ? 1 : length;
  }
  return std::string(text);
}

std::string ShortenWithTag(std::string_view text, std::string_view tag, std::size_t max_chars) {
  if (tag.empty())
    return Shorten(text, max_chars);
  std::string suffix = " [" + Shorten(tag, max_chars / 3) + "]";
  std::size_t room = max_chars > suffix.size() + 8 ? max_chars - suffix.size() : 8;
  return Shorten(text, room) + suffix;
}

}  // namespace gpuperf::util
