// The options that bound what reading an input may cost, shared by every verb that reads traces
// (analyze, compare, predict, ranks): --max-decompressed-mib (io/input_limits.h) and
// --max-records (model/record_limit.h).
#pragma once

#include <CLI/CLI.hpp>

namespace gpuperf::cli {

// Adds the options to `sub`; a given value goes to io::ProcessInputLimits() when parsed.
void AddInputLimitOptions(CLI::App* sub);

}  // namespace gpuperf::cli
