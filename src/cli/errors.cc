#include "cli/errors.h"

#include <cstdio>
#include <string>

#include "util/terminal_text.h"

namespace gpuperf::cli {

namespace {

void PrintLine(const char* level, std::string_view message) {
  std::string line(message);
  for (char& c : line) {
    if (c == '\n' || c == '\r')
      c = ' ';
  }
  std::fprintf(stderr, "gpuperf: %s: %s\n", level, util::SanitizeForTerminal(line).c_str());
}

}  // namespace

void PrintError(std::string_view message) {
  PrintLine("error", message);
}

void PrintWarning(std::string_view message) {
  PrintLine("warning", message);
}

}  // namespace gpuperf::cli
