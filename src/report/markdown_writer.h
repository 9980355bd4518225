// report.md: the report a reviewer reads in a pull request. Order follows the diagnosis-report
// discipline: the decision (headline) first, then where the time goes, the findings that
// explain it, the supporting tables, and finally source and method.
#pragma once

#include "gpuperf/report.h"

#include <cstddef>
#include <string>

#include "report/tool_info.h"

namespace gpuperf::report {

struct MarkdownOptions {
  std::size_t top_rows = 20;     // rows per table (kernels, API, finding evidence, ...)
  std::size_t name_chars = 120;  // longer names are shortened with "…" (report.json has them whole)
  ToolInfo tool;
};

// Renders the whole report. Every string taken from the trace is escaped.
std::string ToMarkdown(const AnalysisReport& report, const MarkdownOptions& options = {});

}  // namespace gpuperf::report
