#include "cli/report_output.h"

#include <algorithm>

#include "cli/staged_output.h"

namespace gpuperf::cli {

void AddOutputOptions(CLI::App* sub,
                      std::string& out_dir,
                      std::vector<std::string>& formats,
                      const std::string& files) {
  sub->add_option("-o,--out", out_dir, "Output directory for " + files)
      ->type_name("DIR")
      ->capture_default_str();
  sub->add_option("-f,--format", formats, "Comma-separated output formats: md, json")
      ->delimiter(',')
      ->check(CLI::IsMember({"md", "json"}))
      ->type_name("LIST")
      ->expected(1)
      ->capture_default_str();
}

bool WantsFormat(const std::vector<std::string>& formats, std::string_view format) {
  return std::find(formats.begin(), formats.end(), format) != formats.end();
}

Result<std::vector<std::string>> WriteReportFiles(
    const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files) {
  StagedOutput output(dir);
  if (Status status = output.Prepare(); !status.ok())
    return status.error();
  for (const auto& [name, content] : files) {
    if (Status status = output.Stage(name, content); !status.ok())
      return status.error();
  }
  if (Status status = output.Commit(); !status.ok())
    return status.error();
  return output.written();
}

}  // namespace gpuperf::cli
