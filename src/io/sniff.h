// Names what an input is when no importer accepts it, for the one-line error.
#pragma once

#include <string>
#include <string_view>

namespace gpuperf::io {

// "an empty file", "a PyTorch Execution Trace (not a timeline)", "CSV text", "binary data", ...
std::string DescribeContent(std::string_view head);

// DescribeContent, plus what to do about the inputs people most often give by mistake, named by
// content first and by the file name only for binary reports whose layout is not ours to parse:
// an Nsight Systems .nsys-rep / .qdrep, an Nsight Compute .ncu-rep, an `nsys stats` CSV.
std::string DescribeInput(std::string_view name, std::string_view head);

// The first non-whitespace byte, or '\0'. Skips a UTF-8 byte-order mark.
char FirstSignificantByte(std::string_view head);

}  // namespace gpuperf::io
