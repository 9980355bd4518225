// `--step-range REGEX` for the commands that analyse a trace (`gpuperf analyze`, and `gpuperf
// baseline` for its analysed run): the ranges that mark a program's steps, which bound the
// steady-state window and make the step table (docs/metrics.md, "Start-up before the first step").
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace gpuperf::cli {

// Adds --step-range, checked by the one guard for user regexes (util::UserRegex) at parse time.
void AddStepRangeOption(CLI::App* sub, std::string& pattern);

}  // namespace gpuperf::cli
