#include <catch2/catch.hpp>

#include <string>

#include "report/markdown_escape.h"
#include "report_fixture.h"

namespace gpuperf::report {
namespace {

// True when every Markdown-active character in `escaped` is neutralised: no raw HTML brackets,
// no line breaks, and each punctuation mark preceded by an odd run of backslashes.
bool IsInert(const std::string& escaped) {
  for (std::size_t i = 0; i < escaped.size(); ++i) {
    char c = escaped[i];
    if (c == '<' || c == '>' || c == '\n' || c == '\r')
      return false;
    if (std::string("|`*_[]~#").find(c) == std::string::npos)
      continue;
    std::size_t backslashes = 0;
    while (backslashes < i && escaped[i - 1 - backslashes] == '\\')
      ++backslashes;
    if (backslashes % 2 == 0)
      return false;
  }
  return true;
}

TEST_CASE("EscapeMarkdown neutralises a table-breaking, HTML-injecting name") {
  std::string escaped = EscapeMarkdown(testing::kHostileName);
  CHECK(escaped == "a\\|b\\`&lt;script&gt;alert(1)&lt;/script&gt;\\n\\# x");
  CHECK(IsInert(escaped));
}

TEST_CASE("EscapeMarkdown neutralises a javascript link") {
  std::string escaped = EscapeMarkdown(testing::kLinkName);
  CHECK(escaped == "\\[x\\](javascript:alert(1))");
  CHECK(IsInert(escaped));
}

TEST_CASE("EscapeMarkdown keeps ordinary names and UTF-8 readable") {
  CHECK(EscapeMarkdown("volta_sgemm_128x64_nn") == "volta\\_sgemm\\_128x64\\_nn");
  CHECK(EscapeMarkdown("void at::native::f<float, 4>(int)") ==
        "void at::native::f&lt;float, 4&gt;(int)");
  CHECK(EscapeMarkdown("12 µs, 日本") == "12 µs, 日本");
  CHECK(EscapeMarkdown("") == "");
}

TEST_CASE("EscapeMarkdown escapes backslashes so an escape cannot be undone") {
  // "\|" in a name would otherwise render as a literal pipe after our escape of '|' ...
  // and "\\|" (escaped backslash then pipe) must not leave a bare pipe.
  std::string escaped = EscapeMarkdown("x\\|y");
  CHECK(escaped == "x\\\\\\|y");
  CHECK(IsInert(escaped));
}

TEST_CASE("EscapeMarkdown makes control characters and invalid UTF-8 visible") {
  CHECK(EscapeMarkdown("a\tb\r\nc") == "a\\tb\\r\\nc");
  CHECK(EscapeMarkdown("\x1b[31mred") == "\\x1B\\[31mred");
  CHECK(EscapeMarkdown(std::string("a\xff"
                                   "b")) ==
        "a\xEF\xBF\xBD"
        "b");
  CHECK(EscapeMarkdown(std::string("\xC0\xAF")) == "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong '/'
  CHECK(EscapeMarkdown(std::string("\xE2\x82")) == "\xEF\xBF\xBD\xEF\xBF\xBD");  // truncated
}

TEST_CASE("Shorten cuts long names to a fixed number of characters with an ellipsis") {
  std::string templ = "void cutlass::Kernel<" + std::string(2048, 'T') + ">(Params)";
  std::string shortened = Shorten(templ, 120);
  CHECK(shortened.size() == 119 + std::string("…").size());
  CHECK(shortened.substr(0, 21) == "void cutlass::Kernel<");
  CHECK(shortened.substr(119) == "…");
  CHECK(Shorten("short", 120) == "short");
  CHECK(Shorten("exact", 5) == "exact");
  CHECK(Shorten("exactly", 5) == "exac…");
  CHECK(Shorten("anything", 0).empty());
}

TEST_CASE("Shorten never cuts inside a UTF-8 sequence") {
  CHECK(Shorten("µµµµ", 3) == "µµ…");
  CHECK(Shorten("日本語テキスト", 4) == "日本語…");
}

TEST_CASE("SanitizeForTerminal strips escape sequences") {
  CHECK(SanitizeForTerminal("\x1b]0;pwned\x07kernel") == "?]0;pwned?kernel");
  CHECK(SanitizeForTerminal("line\nbreak") == "line?break");
  CHECK(SanitizeForTerminal("\xC2\x9B"
                            "31m") == "?31m");  // C1 CSI
  CHECK(SanitizeForTerminal("µs ok") == "µs ok");
}

}  // namespace
}  // namespace gpuperf::report
