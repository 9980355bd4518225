// report.md as GitHub shows it in a pull request: long sections folded under <details>, and the
// whole under a character budget whatever the trace (a PR comment holds at most 65,536
// characters). Works on the rendered Markdown, so the section writers stay as they are.
#pragma once

#include "gpuperf/report.h"

#include <cstddef>
#include <string>

#include "report/markdown_writer.h"

namespace gpuperf::report {

inline constexpr std::size_t kMarkdownBudgetChars = 60'000;

// Wraps the body of every level-2 section after the first `open_sections` in
// <details><summary>TITLE</summary> … </details> when it is longer than `max_open_lines` lines.
std::string FoldLongSections(const std::string& markdown,
                             std::size_t open_sections = 2,
                             std::size_t max_open_lines = 30);

// ToMarkdown, folded, with fewer table rows and shorter names until it fits `max_chars`
// (a note says so); as a last resort cut at a section boundary with a note pointing at
// report.json. The result never exceeds max_chars.
std::string ToMarkdownWithin(const AnalysisReport& report,
                             MarkdownOptions options,
                             std::size_t max_chars = kMarkdownBudgetChars);

}  // namespace gpuperf::report
