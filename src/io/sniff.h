// Names what an input is when no importer accepts it, for the one-line error.
#pragma once

#include <string>
#include <string_view>

namespace gpuperf::io {

// "an empty file", "a PyTorch Execution Trace (not a timeline)", "CSV text", "binary data", ...
std::string DescribeContent(std::string_view head);

// The first non-whitespace byte, or '\0'. Skips a UTF-8 byte-order mark.
char FirstSignificantByte(std::string_view head);

}  // namespace gpuperf::io
