#include "report/plain_text.h"

#include <string_view>

#include "report/markdown_escape.h"

namespace gpuperf::report {

std::string PlainText(std::string_view markdown) {
  constexpr std::string_view kEscapable = "*_|`\\[]<>#";
  std::string out;
  out.reserve(markdown.size());
  for (std::size_t i = 0; i < markdown.size(); ++i) {
    const char c = markdown[i];
    if (c == '\\' && i + 1 < markdown.size() &&
        kEscapable.find(markdown[i + 1]) != kEscapable.npos) {
      out += markdown[++i];
      continue;
    }
    if ((c == '*' || c == '_') && i + 1 < markdown.size() && markdown[i + 1] == c) {
      ++i;
      continue;
    }
    if (c == '`')
      continue;
    out += c;
  }
  return SanitizeForTerminal(out);
}

}  // namespace gpuperf::report
