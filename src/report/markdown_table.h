// A GitHub-flavoured Markdown table. Cells are raw text: the table escapes every cell (see
// EscapeMarkdown), so a name from a trace can never break the table or inject markup.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gpuperf::report {

enum class Align { kLeft, kRight };

struct Column {
  std::string title;
  Align align = Align::kLeft;
};

class MarkdownTable {
 public:
  explicit MarkdownTable(std::vector<Column> columns);

  // Adds a row; missing cells are left empty, extra cells are dropped.
  void AddRow(std::vector<std::string> cells);
  std::size_t rows() const { return rows_.size(); }

  // The table as Markdown lines, each ending in '\n'. An empty table renders header only.
  std::string Render() const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace gpuperf::report
