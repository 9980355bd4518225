// `--ceilings FILE|DIR` for commands that analyse a trace (`gpuperf analyze`): measured ceilings
// from `gpuperf ceilings` attached to the trace's devices before the analysis, so that the
// roofline prefers them over the datasheet (docs/metrics.md, "Measured ceilings").
#pragma once

#include "gpuperf/result.h"
#include "gpuperf/trace.h"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace gpuperf::cli {

// Adds the repeatable --ceilings FILE|DIR option.
void AddCeilingsOption(CLI::App* sub, std::vector<std::string>& paths);

// Reads every path (a cache file or a directory of them) and attaches the fitting entry to each
// device of `trace` (by UUID when the trace records one, else by exact name and compute
// capability). Prints a warning when no device gets one. Fails, with one line naming the file,
// when a file cannot be read or is not a valid cache file. Nothing to do without paths.
Status AttachCeilingsFiles(const std::vector<std::string>& paths, model::Trace& trace);

}  // namespace gpuperf::cli
