#pragma once

#include <string_view>

namespace gpuperf::cli {

// Prints "gpuperf: error: <message>" as one line on stderr: newlines folded, terminal escapes
// and other control characters made harmless (util::SanitizeForTerminal).
void PrintError(std::string_view message);

// Prints "gpuperf: warning: <message>" the same way, for a problem that does not stop the command.
void PrintWarning(std::string_view message);

}  // namespace gpuperf::cli
