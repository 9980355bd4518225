#include "report/markdown_fit.h"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>
#include <vector>

namespace gpuperf::report {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

bool IsSectionHeading(const std::string& line, bool in_fence) {
  return !in_fence && line.rfind("## ", 0) == 0;
}

// The heading's text without Markdown emphasis, for the <summary> (HTML, no Markdown there).
std::string SummaryText(const std::string& heading) {
  std::string text;
  for (char c : heading.substr(3)) {
    if (c == '<')
      text += "&lt;";
    else if (c == '>')
      text += "&gt;";
    else if (c == '&')
      text += "&amp;";
    else if (c != '*' && c != '`')
      text += c;
  }
  return text;
}

void AppendSection(std::string& out,
                   const std::string& heading,
                   const std::vector<std::string>& body,
                   bool fold) {
  std::size_t end = body.size();
  while (end > 0 && body[end - 1].empty())
    --end;
  out += heading + "\n";
  if (fold)
    out += "\n<details><summary>" + SummaryText(heading) + " (" + std::to_string(end) +
           " lines)</summary>\n";
  for (std::size_t i = 0; i < end; ++i)
    out += body[i] + "\n";
  if (fold)
    out += "\n</details>\n";
  out += "\n";
}

std::size_t Count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

}  // namespace

std::string FoldLongSections(const std::string& markdown,
                             std::size_t open_sections,
                             std::size_t max_open_lines) {
  std::string out;
  std::string heading;
  std::vector<std::string> body;
  std::size_t sections = 0;
  bool in_fence = false;
  auto flush = [&] {
    if (heading.empty()) {
      for (const std::string& line : body)
        out += line + "\n";
    } else {
      AppendSection(out, heading, body, sections > open_sections && body.size() > max_open_lines);
    }
    body.clear();
  };
  for (const std::string& line : Lines(markdown)) {
    if (IsSectionHeading(line, in_fence)) {
      flush();
      heading = line;
      ++sections;
      continue;
    }
    if (line.rfind("```", 0) == 0)
      in_fence = !in_fence;
    body.push_back(line);
  }
  flush();
  return out;
}

std::string ToMarkdownWithin(const AnalysisReport& report,
                             MarkdownOptions options,
                             std::size_t max_chars) {
  const std::size_t asked_rows = options.top_rows;
  std::string md = FoldLongSections(ToMarkdown(report, options));
  while (md.size() > max_chars && (options.top_rows > 3 || options.name_chars > 48)) {
    options.top_rows = std::max<std::size_t>(3, options.top_rows / 2);
    options.name_chars = std::max<std::size_t>(48, options.name_chars * 3 / 4);
    md = FoldLongSections(ToMarkdown(report, options));
  }
  std::string note;
  if (options.top_rows < asked_rows) {
    note = fmt::format(
        "\n_To stay under {} characters (a pull-request comment holds 65,536), tables show {} "
        "rows and names are shortened to {} characters; report.json has every row and full "
        "names._\n",
        max_chars,
        options.top_rows,
        options.name_chars);
  }
  if (md.size() + note.size() > max_chars) {
    const std::string cut_note = fmt::format(
        "\n_report.md was cut here to stay under {} characters; report.json has the rest._\n",
        max_chars);
    const std::size_t room = max_chars - note.size() - cut_note.size() - 16;  // + </details>
    std::size_t cut = md.rfind("\n## ", room);
    if (cut == std::string::npos || cut == 0)
      cut = md.rfind('\n', room);
    md = md.substr(0, cut == std::string::npos ? room : cut + 1);
    // A cut inside <details> (no section boundary in reach) would leave it open.
    if (Count(md, "<details>") > Count(md, "</details>"))
      md += "\n</details>\n";
    md += cut_note;
  }
  return md + note;
}

}  // namespace gpuperf::report
