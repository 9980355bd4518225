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

// Adds -o,--out DIR and -f,--format LIST (`allowed`, md and json by default). `files` names what
// is written, for the help.
void AddOutputOptions(CLI::App* sub,
                      std::string& out_dir,
                      std::vector<std::string>& formats,
                      const std::string& files,
                      const std::vector<std::string>& allowed = {"md", "json"});

bool WantsFormat(const std::vector<std::string>& formats, std::string_view format);

// A run id: UTC time, pid and 32 random bits ("20261202T004512Z-4242-9f3a01bc").
std::string MakeRunId();

// `content` of the report file `name` with the run id in it: the first key "run_id" of a .json
// object, a last line "Run id: `ID` ..." of a .md, an XML comment after the declaration of a .svg.
std::string StampRunId(const std::string& name, std::string content, const std::string& run_id);

// Writes (name, content) pairs into `dir` as one unit (cli/staged_output.h), each stamped with
// one run id. Returns the paths written.
Result<std::vector<std::string>> WriteReportFiles(
    const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace gpuperf::cli
