#include "util/terminal_text.h"

#include "util/utf8.h"

namespace gpuperf::util {

std::string SanitizeForTerminal(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = DecodeUtf8(text.substr(i)).length;
    const auto lead = static_cast<unsigned char>(text[i]);
    if (length == 0 || (length == 1 && (lead < 0x20 || lead == 0x7F))) {
      out += '?';
      ++i;
      continue;
    }
    // C1 controls (U+0080..U+009F) also act as escape introducers on some terminals.
    if (length == 2 && lead == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0) {
      out += '?';
    } else {
      out += text.substr(i, length);
    }
    i += length;
  }
  return out;
}

}  // namespace gpuperf::util
