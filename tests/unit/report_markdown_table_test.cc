#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "report/markdown_table.h"
#include "report_fixture.h"

namespace gpuperf::report {
namespace {

// Pipes that are column separators: not preceded by an odd run of backslashes.
std::size_t SeparatorCount(const std::string& line) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] != '|')
      continue;
    std::size_t backslashes = 0;
    while (backslashes < i && line[i - 1 - backslashes] == '\\')
      ++backslashes;
    if (backslashes % 2 == 0)
      ++count;
  }
  return count;
}

TEST_CASE("MarkdownTable renders header, alignment row and cells") {
  MarkdownTable table({{"name"}, {"time", Align::kRight}});
  table.AddRow({"gemm", "1.00 ms"});
  table.AddRow({"short"});  // missing cell left empty
  CHECK(table.Render() ==
        "| name | time |\n"
        "| --- | ---: |\n"
        "| gemm | 1.00 ms |\n"
        "| short |  |\n");
  CHECK(table.rows() == 2);
}

TEST_CASE("MarkdownTable keeps its shape whatever the cells contain") {
  MarkdownTable table({{"a"}, {"b"}, {"c"}});
  table.AddRow({testing::kHostileName, testing::kLinkName, "x\\|y", "dropped extra cell"});
  std::istringstream lines(table.Render());
  std::string line;
  std::size_t count = 0;
  while (std::getline(lines, line)) {
    ++count;
    CHECK(SeparatorCount(line) == 4);
    CHECK(line.find('<') == std::string::npos);
  }
  CHECK(count == 3);  // header, alignment, one row: the newline in the name did not split it
}

}  // namespace
}  // namespace gpuperf::report
