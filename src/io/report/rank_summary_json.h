// summary.json: one rank's ranks::RankSummary, written by `gpuperf analyze --summary` on each
// rank of a large job and merged by `gpuperf ranks` (docs/ranks.md).
#pragma once

#include "gpuperf/ranks.h"
#include "gpuperf/result.h"

#include <optional>
#include <string>
#include <string_view>

namespace gpuperf::io {

std::string RankSummaryToJson(const ranks::RankSummary& summary);

// True when `head` looks like a summary.json.
bool LooksLikeRankSummary(std::string_view head);

Result<ranks::RankSummary> ReadRankSummary(const std::string& path);

// The same for the text of a summary.json (tests, the fuzz target); `path` names it in errors.
Result<ranks::RankSummary> ParseRankSummary(std::string_view text, const std::string& path);

// An input of `gpuperf ranks` that may be a rank summary.json or a trace: its first 4 KiB
// decide. `summary` is set when it is a summary.json, read back; otherwise `path` is a trace to
// import. Errors name the file.
struct RankSummaryOrTrace {
  std::string path;
  std::optional<ranks::RankSummary> summary;
};
Result<RankSummaryOrTrace> ReadRankSummaryOrTracePath(const std::string& path);

}  // namespace gpuperf::io
