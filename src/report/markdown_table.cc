#include "report/markdown_table.h"

#include <utility>

#include "report/markdown_escape.h"

namespace gpuperf::report {
namespace {

void AppendRow(std::string& out, const std::vector<std::string>& cells) {
  out += '|';
  for (const auto& cell : cells) {
    out += ' ';
    out += EscapeMarkdown(cell);
    out += " |";
  }
  out += '\n';
}

}  // namespace

MarkdownTable::MarkdownTable(std::vector<Column> columns) : columns_(std::move(columns)) {}

void MarkdownTable::AddRow(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
}

std::string MarkdownTable::Render() const {
  std::string out;
  std::vector<std::string> titles;
  titles.reserve(columns_.size());
  for (const auto& column : columns_)
    titles.push_back(column.title);
  AppendRow(out, titles);
  out += '|';
  for (const auto& column : columns_)
    out += column.align == Align::kRight ? " ---: |" : " --- |";
  out += '\n';
  for (const auto& row : rows_)
    AppendRow(out, row);
  return out;
}

}  // namespace gpuperf::report
