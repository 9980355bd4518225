// Markdown emphasis removed for the terminal: `compare` and the headline reuse sentences written
// for report.md, and a terminal shows "**slower**" literally.
#pragma once

#include <string>
#include <string_view>

namespace gpuperf::report {

// Drops ** and __ emphasis and `code` backticks, and unescapes \* \_ \| \` \\ \[ \] \< \>;
// everything else is kept, then stripped of control characters (SanitizeForTerminal).
std::string PlainText(std::string_view markdown);

}  // namespace gpuperf::report
