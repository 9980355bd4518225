#include "cli/gpu_option.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

namespace gpuperf::cli {
namespace {

bool SameText(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string KnownKeys() {
  std::string keys;
  for (const model::DeviceCeilings& entry : model::AllCeilings())
    keys += (keys.empty() ? "" : ", ") + std::string(entry.key);
  return keys;
}

// Checks one device against the entry and names it; an error text, or "" when it fits.
std::string NameDevice(model::Device& d, const model::DeviceCeilings& entry, bool& named) {
  if (d.compute_major > 0 && entry.compute_major > 0 &&
      (d.compute_major != entry.compute_major || d.compute_minor != entry.compute_minor)) {
    return fmt::format("--gpu \"{}\" is compute capability {}.{}, the trace's device {} is {}.{}",
                       entry.key,
                       entry.compute_major,
                       entry.compute_minor,
                       d.id,
                       d.compute_major,
                       d.compute_minor);
  }
  if (!d.name.empty()) {
    model::CeilingMatch recorded = model::FindCeilings(d.name, d.compute_major, d.compute_minor);
    if (recorded.entry && recorded.entry != &entry) {
      return fmt::format("--gpu \"{}\": the trace names device {} \"{}\" ({})",
                         entry.key,
                         d.id,
                         d.name,
                         recorded.entry->key);
    }
    return "";  // the recorded name stays: it is the better evidence
  }
  d.name = std::string(entry.key);
  if (d.compute_major == 0) {
    d.compute_major = entry.compute_major;
    d.compute_minor = entry.compute_minor;
  }
  if (d.sm_count <= 0 && entry.sm_count)
    d.sm_count = *entry.sm_count;
  named = true;
  return "";
}

}  // namespace

void AddGpuOption(CLI::App* sub, std::string& name) {
  sub->add_option("--gpu",
                  name,
                  "The GPU the trace ran on, when the trace does not name it (a standalone "
                  "Nsight Compute CSV): a datasheet entry such as \"A100 SXM4 40GB\"")
      ->type_name("NAME");
}

Result<const model::DeviceCeilings*> ResolveGpuName(const std::string& name) {
  for (const model::DeviceCeilings& entry : model::AllCeilings()) {
    if (SameText(entry.key, name))
      return &entry;
  }
  model::CeilingMatch match = model::FindCeilings(name);
  if (match.entry)
    return match.entry;
  return Error{fmt::format(
      "--gpu \"{}\": not a GPU gpuperf knows ({}); known: {}", name, match.reason, KnownKeys())};
}

Status ApplyGpuName(const std::string& name, model::Trace& trace) {
  if (name.empty())
    return Status::Ok();
  auto entry = ResolveGpuName(name);
  if (!entry.ok())
    return entry.error();
  std::set<std::int32_t> kernel_devices;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind == model::ActivityKind::kKernel)
      kernel_devices.insert(a.device);
  }
  for (std::int32_t id : kernel_devices) {
    if (!trace.FindDevice(id)) {
      model::Device d;
      d.id = id;
      trace.devices.push_back(std::move(d));
    }
  }
  std::string named_ids;
  for (model::Device& d : trace.devices) {
    if (!kernel_devices.count(d.id))
      continue;
    bool named = false;
    if (std::string problem = NameDevice(d, **entry, named); !problem.empty())
      return Error{problem};
    if (named)
      named_ids += (named_ids.empty() ? "" : ", ") + std::to_string(d.id);
  }
  if (!named_ids.empty()) {
    trace.diagnostics.notes.push_back(fmt::format(
        "--gpu: device {} named \"{}\" by the user (the trace does not name it); its datasheet "
        "ceilings are used.",
        named_ids,
        (*entry)->key));
  }
  return Status::Ok();
}

}  // namespace gpuperf::cli
