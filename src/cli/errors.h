#pragma once

#include <string_view>

namespace gpuperf::cli {

// Prints "gpuperf: error: <message>" as one line on stderr (newlines in the message folded).
void PrintError(std::string_view message);

}  // namespace gpuperf::cli
