#include "cli/report_output.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>

#include "cli/staged_output.h"

namespace gpuperf::cli {

void AddOutputOptions(CLI::App* sub,
                      std::string& out_dir,
                      std::vector<std::string>& formats,
                      const std::string& files,
                      const std::vector<std::string>& allowed) {
  sub->add_option("-o,--out", out_dir, "Output directory for " + files)
      ->type_name("DIR")
      ->capture_default_str();
  std::string names;
  for (const std::string& name : allowed)
    names += (names.empty() ? "" : ", ") + name;
  // One argument per --format, split at commas: `--format json,md` is two formats, and the
  // trace that follows `--format md` is never taken for a third.
  sub->add_option("-f,--format", formats, "Comma-separated output formats: " + names)
      ->delimiter(',')
      ->check(CLI::IsMember(allowed))
      ->type_name("LIST")
      ->allow_extra_args(false)
      ->capture_default_str();
}

std::string MakeRunId() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char time[32] = {};
  std::strftime(time, sizeof time, "%Y%m%dT%H%M%SZ", &utc);
  std::random_device random;
  char suffix[16] = {};
  std::snprintf(suffix, sizeof suffix, "%08x", static_cast<unsigned>(random()));
  return std::string(time) + "-" + std::to_string(getpid()) + "-" + suffix;
}

std::string StampRunId(const std::string& name, std::string content, const std::string& run_id) {
  auto ends_with = [&](std::string_view suffix) {
    return name.size() >= suffix.size() &&
           name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends_with(".json")) {
    // The first key of the top-level object; the writers' layout is two-space indented.
    if (content.rfind("{\n", 0) == 0)
      content.insert(2, "  \"run_id\": \"" + run_id + "\",\n");
  } else if (ends_with(".md")) {
    content += "\nRun id: `" + run_id + "` (the same in every file of this report directory).\n";
  } else if (ends_with(".svg")) {
    const std::size_t line_end = content.find('\n');  // after the XML declaration
    content.insert(line_end == std::string::npos ? 0 : line_end + 1,
                   "<!-- gpuperf run id: " + run_id + " -->\n");
  }
  return content;
}

bool WantsFormat(const std::vector<std::string>& formats, std::string_view format) {
  return std::find(formats.begin(), formats.end(), format) != formats.end();
}

Result<std::vector<std::string>> WriteReportFiles(
    const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files) {
  StagedOutput output(dir);
  if (Status status = output.Prepare(); !status.ok())
    return status.error();
  const std::string run_id = MakeRunId();
  for (const auto& [name, content] : files) {
    if (Status status = output.Stage(name, StampRunId(name, content, run_id)); !status.ok())
      return status.error();
  }
  if (Status status = output.Commit(); !status.ok())
    return status.error();
  return output.written();
}

}  // namespace gpuperf::cli
