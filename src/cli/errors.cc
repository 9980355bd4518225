#include "cli/errors.h"

#include <cstdio>
#include <string>

namespace gpuperf::cli {

void PrintError(std::string_view message) {
  std::string line(message);
  for (char& c : line) {
    if (c == '\n' || c == '\r')
      c = ' ';
  }
  std::fprintf(stderr, "gpuperf: error: %s\n", line.c_str());
}

}  // namespace gpuperf::cli
