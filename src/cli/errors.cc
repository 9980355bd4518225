#include "cli/errors.h"

#include <cstdio>
#include <string>

namespace gpuperf::cli {

namespace {

void PrintLine(const char* level, std::string_view message) {
  std::string line(message);
  for (char& c : line) {
    if (c == '\n' || c == '\r')
      c = ' ';
  }
  std::fprintf(stderr, "gpuperf: %s: %s\n", level, line.c_str());
}

}  // namespace

void PrintError(std::string_view message) {
  PrintLine("error", message);
}

void PrintWarning(std::string_view message) {
  PrintLine("warning", message);
}

}  // namespace gpuperf::cli
