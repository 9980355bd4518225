// The one sanitiser for text that reaches a terminal (stdout summaries, every stderr line, debug
// logs): a file or kernel name may hold escape sequences (OSC 52 writes the clipboard, CSI 2J
// clears the screen) that must never reach the terminal raw.
#pragma once

#include <string>
#include <string_view>

namespace gpuperf::util {

// Replaces control characters (C0, DEL, the C1 range U+0080..U+009F) and invalid UTF-8 with '?'.
// Example: "x\x1b[31mRED" -> "x?[31mRED".
std::string SanitizeForTerminal(std::string_view text);

}  // namespace gpuperf::util
