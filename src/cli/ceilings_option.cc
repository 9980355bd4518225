#include "cli/ceilings_option.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "cli/errors.h"
#include "io/ceilings/ceilings_cache.h"
#include "model/measured_ceilings.h"

namespace gpuperf::cli {

void AddCeilingsOption(CLI::App* sub, std::vector<std::string>& paths) {
  sub->add_option("--ceilings",
                  paths,
                  "Measured ceilings (a gpuperf ceilings cache file, or its directory): used "
                  "instead of the datasheet for the GPU they were measured on; repeatable")
      ->type_name("FILE|DIR")
      ->allow_extra_args(false);
}

Status AttachCeilingsFiles(const std::vector<std::string>& paths, model::Trace& trace) {
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
