#include "cli/ceilings_option.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <filesystem>

#include "cli/errors.h"
#include "io/ceilings/ceilings_cache.h"
#include "model/measured_ceilings.h"

namespace gpuperf::cli {
namespace {

namespace fs = std::filesystem;

// A directory that `gpuperf ceilings` never wrote to (missing, or without *.json): the
// documented case of "measure once on the GPU, pass the cache everywhere", so a warning and the
// datasheet, never a failed analysis. A file that is there but unreadable still fails.
bool NeverMeasured(const std::string& path) {
  std::error_code error;
  if (!fs::exists(path, error))  // a missing directory; a missing FILE.json stays a typo (exit 1)
    return fs::path(path).extension() != ".json";
  if (!fs::is_directory(path, error))
    return false;
  for (const fs::directory_entry& entry : fs::directory_iterator(path, error)) {
    if (entry.path().extension() == ".json")
      return false;
  }
  return !error;
}

}  // namespace

void AddCeilingsOption(CLI::App* sub, std::vector<std::string>& paths) {
  sub->add_option("--ceilings",
                  paths,
                  "Measured ceilings (a gpuperf ceilings cache file, or its directory): used "
                  "instead of the datasheet for the GPU they were measured on; repeatable")
      ->type_name("FILE|DIR")
      ->allow_extra_args(false);
}

Status AttachCeilingsFiles(const std::vector<std::string>& given, model::Trace& trace) {
  std::vector<std::string> paths;
  for (const std::string& path : given) {
    if (!NeverMeasured(path)) {
      paths.push_back(path);
      continue;
    }
    PrintWarning("--ceilings " + path +
                 ": no measured ceilings there (run `gpuperf ceilings` on the GPU machine "
                 "first); the datasheet is used");
  }
  if (paths.empty())
    return Status::Ok();
  auto entries = io::ceilings::ReadCeilingsPaths(paths);
  if (!entries.ok())
    return entries.error();
  const std::size_t attached = model::AttachMeasuredCeilings(trace, *entries);
  spdlog::debug("--ceilings: {} measured entries, {} of {} devices matched",
                entries->size(),
                attached,
                trace.devices.size());
  if (attached == 0) {
    std::string devices;
    for (const model::Device& d : trace.devices) {
      devices += fmt::format("{}{} {}.{}{}",
                             devices.empty() ? "" : ", ",
                             d.name.empty() ? "(unnamed)" : d.name,
                             d.compute_major,
                             d.compute_minor,
                             d.uuid.empty() ? "" : " " + d.uuid);
    }
    PrintWarning(fmt::format(
        "--ceilings: none of the {} measured entries fits the trace's devices ({}); the "
        "datasheet is used",
        entries->size(),
        devices.empty() ? "none recorded" : devices));
  }
  return Status::Ok();
}

}  // namespace gpuperf::cli
