// Reading traces: the public entry point of the io layer.
#pragma once

#include "gpuperf/result.h"
#include "gpuperf/trace.h"

#include <string>
#include <string_view>

namespace gpuperf::io {

// Detects the format from the content and imports the file. Errors are one line that starts with
// the path and says what is wrong ("x.json: not a trace gpuperf reads: ...").
Result<model::Trace> ImportTraceFile(const std::string& path);

// The same for bytes in memory (tests and fuzzers). `name` stands in for the path in messages.
Result<model::Trace> ImportTraceMemory(std::string_view data, const std::string& name);

}  // namespace gpuperf::io
