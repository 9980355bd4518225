// The short summary `gpuperf analyze` prints on stdout: the headline, the top kernels, the top
// findings and where the report files are. The full report is in report.md / report.json.
#pragma once

#include "gpuperf/report.h"

#include <cstddef>
#include <string>
#include <vector>

namespace gpuperf::report {

struct TerminalOptions {
  std::size_t top_rows = 20;         // kernels and findings listed
  std::size_t name_chars = 80;       // longer names are shortened with "…"
  std::size_t width = 80;            // columns: text is wrapped and names shortened to fit
  bool color = false;                // ANSI colour; the caller enables it only for a TTY
  std::vector<std::string> written;  // paths of the files written, in order
};

// Renders the summary; every name from the trace is stripped of control characters.
std::string ToTerminalSummary(const AnalysisReport& report, const TerminalOptions& options);

}  // namespace gpuperf::report
