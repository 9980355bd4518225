// Escaping of text taken from a trace before it goes into Markdown. A kernel name is attacker
// controlled as far as the report is concerned: it must not break a table, start a heading,
// open a link or inject HTML when the report is rendered in a pull request.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "util/utf8.h"

namespace gpuperf::report {

// Returns `text` as literal GitHub-flavoured Markdown inline text, safe inside a table cell:
//  - `&`, `<`, `>` become HTML entities (no raw HTML, no <autolinks>);
//  - the ':' of "://", the '.' of "www." and '@' are backslash-escaped (no extended autolinks:
//    "https://x.y" -> "https\://x.y");
//  - Markdown punctuation that can start markup (\ ` * _ [ ] | ~ #) is backslash-escaped;
//  - newline, CR, tab and other control characters become visible escapes (\n, \r, \t, \xNN);
//  - bytes that are not valid UTF-8 become U+FFFD.
// Example: "a|b`<x>\n# y" -> "a\|b\`&lt;x&gt;\n\# y".
std::string EscapeMarkdown(std::string_view text);

// util::Shorten, applied before EscapeMarkdown.
using util::Shorten;

// util::SanitizeForTerminal: control characters (C0, DEL, C1) and invalid UTF-8 become '?' so
// that a name printed to a terminal cannot carry escape sequences.
std::string SanitizeForTerminal(std::string_view text);

}  // namespace gpuperf::report
