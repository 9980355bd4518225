#pragma once

#include <string_view>

#ifndef GPUPERF_VERSION_STRING
#define GPUPERF_VERSION_STRING "0.1.0"
#endif

namespace gpuperf::cli {

// Prints "gpuperf: error: <message>" as one line on stderr (newlines in the message folded).
void PrintError(std::string_view message);

}  // namespace gpuperf::cli
