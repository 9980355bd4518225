#include "report/markdown_escape.h"

#include <cstdint>

#include "util/terminal_text.h"
#include "util/utf8.h"

namespace gpuperf::report {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the valid UTF-8 sequence at the start of `text`, or 0 when it is invalid.
std::size_t Utf8SequenceLength(std::string_view text) {
  return util::DecodeUtf8(text).length;
}

void AppendControl(std::string& out, unsigned char c) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  switch (c) {
    case '\n':
      out += "\\n";
      return;
    case '\r':
      out += "\\r";
      return;
    case '\t':
      out += "\\t";
      return;
    default:
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
  }
}

bool IsControl(unsigned char c) {
  return c < 0x20 || c == 0x7F;
}

// GitHub turns "http://x", "www.x" and "a@b.c" into links without any markup (extended
// autolinks). A backslash before the ':' of "://", the '.' after "www" and every '@' breaks the
// pattern and renders as the plain character.
bool StartsAutolink(std::string_view text, std::size_t i) {
  const char c = text[i];
  if (c == '@')
    return true;
  if (c == ':')
    return text.substr(i + 1, 2) == "//";
  if (c == '.' && i >= 3) {
    for (std::size_t k = i - 3; k < i; ++k) {
      if (text[k] != 'w' && text[k] != 'W')
        return false;
    }
    return true;
  }
  return false;
}

}  // namespace

std::string EscapeMarkdown(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 4);
  for (std::size_t i = 0; i < text.size();) {
    std::size_t length = Utf8SequenceLength(text.substr(i));
    if (length == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    if (length > 1) {
      out += text.substr(i, length);
      i += length;
      continue;
    }
    if (StartsAutolink(text, i))
      out += '\\';
    auto c = static_cast<unsigned char>(text[i++]);
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '\\':
      case '`':
      case '*':
      case '_':
      case '[':
      case ']':
      case '|':
      case '~':
      case '#':
        out += '\\';
        out += static_cast<char>(c);
        break;
      default:
        if (IsControl(c)) {
          AppendControl(out, c);
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out;
}

std::string SanitizeForTerminal(std::string_view text) {
  return util::SanitizeForTerminal(text);
}

}  // namespace gpuperf::report
