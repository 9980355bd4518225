// Who wrote a report. The CLI knows the version (a compile definition of the cli layer); the
// writers only print what they are given.
#pragma once

#include <string>

namespace gpuperf::report {

struct ToolInfo {
  std::string name = "gpuperf";
  std::string version;  // empty when unknown (unit tests)
};

}  // namespace gpuperf::report
