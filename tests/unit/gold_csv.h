// Reads the peer tools' CSV outputs under $GPUPERF_CORPUS/gold at test time, so the gold numbers
// are never copied into the repository.
#pragma once

#include <fmt/format.h>

#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace gpuperf::testing {

using CsvRow = std::map<std::string, std::string>;

// RFC 4180 fields: commas inside double quotes, "" for a quote.
inline std::vector<std::string> SplitCsvLine(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

// Rows keyed by header; an empty file gives no rows.
inline std::vector<CsvRow> ReadCsv(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::vector<CsvRow> rows;
  if (!std::getline(in, line))
    return rows;
  std::vector<std::string> header = SplitCsvLine(line);
  while (std::getline(in, line)) {
    if (line.empty())
      continue;
    std::vector<std::string> fields = SplitCsvLine(line);
    CsvRow row;
    for (std::size_t i = 0; i < header.size() && i < fields.size(); ++i)
      row[header[i]] = fields[i];
    rows.push_back(std::move(row));
  }
  return rows;
}

// A value at the gold's printed precision: "17714696.0", "262.144".
inline std::string Fixed(double value, int decimals) {
  return fmt::format("{:.{}f}", value, decimals);
}

}  // namespace gpuperf::testing
