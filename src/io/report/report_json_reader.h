// Reads back a report.json that gpuperf wrote (docs/report-schema.md), so that `compare` and
// `predict` can take reports as well as traces. Only schema major version 1 is accepted.
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/result.h"

#include <optional>
#include <string>
#include <string_view>

namespace gpuperf::io {

// True when `head` (the first bytes of a file) looks like a gpuperf report.json.
bool LooksLikeGpuperfReport(std::string_view head);

// The parts of the report that comparisons use: source, timeline, kernels (summaries only: a
// report keeps no instance durations), audit, ranges and predictions. Errors name the file.
Result<report::AnalysisReport> ReadReportJson(const std::string& path);

// The same for the text of a report.json (tests, the fuzz target); `path` names it in errors.
Result<report::AnalysisReport> ParseReportJson(std::string_view text, const std::string& path);

// An input that may be a gpuperf report or a trace (`gpuperf predict`): content decides. A
// directory stands for its report.json. `path` is the file read; `report` is set when it is a
// gpuperf report.json, read back; otherwise `path` is a trace to import. Errors name the file.
struct ReportOrTrace {
  std::string path;
  std::optional<report::AnalysisReport> report;
};
Result<ReportOrTrace> ReadReportOrTracePath(const std::string& path);

}  // namespace gpuperf::io
