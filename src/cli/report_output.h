// What every report-writing verb shares: the --out DIR / --format md,json options and the atomic
// write of its files (StagedOutput: all files appear, or none).
#pragma once

#include "gpuperf/result.h"

#include <CLI/CLI.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuperf::cli {

// Adds -o,--out DIR and -f,--format LIST (md, json). `files` names what is written, for the help.
void AddOutputOptions(CLI::App* sub,
                      std::string& out_dir,
                      std::vector<std::string>& formats,
                      const std::string& files);

bool WantsFormat(const std::vector<std::string>& formats, std::string_view format);

// Writes (name, content) pairs into `dir` under temporary names and renames them only when all
// succeeded. Returns the paths written.
Result<std::vector<std::string>> WriteReportFiles(
    const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace gpuperf::cli
