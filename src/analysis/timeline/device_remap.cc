#include "analysis/timeline/device_remap.h"

#include <fmt/format.h>

#include <set>

namespace gpuperf::analysis {

bool ResolveDeviceRemap(model::Trace& trace) {
  if (trace.devices.size() != 1)
    return false;
  std::set<std::int32_t> used;
  for (const model::GpuActivity& a : trace.activities) {
    used.insert(a.device);
    if (used.size() > 1)
      return false;
  }
  if (used.empty() || *used.begin() < 0 || trace.FindDevice(*used.begin()) != nullptr)
    return false;
  model::Device& copy = trace.devices.front();
  std::int32_t described = copy.id;
  copy.id = *used.begin();
  trace.diagnostics.Count(model::Diagnostic::kAnalysisDeviceRemapped);
  trace.diagnostics.notes.push_back(fmt::format(
      "All GPU work runs on device {} while the trace describes one device, id {} ({}): read as "
      "a visible-devices remap (HIP_VISIBLE_DEVICES / CUDA_VISIBLE_DEVICES), so device {} uses "
      "that description (renumbered).",
      copy.id,
      described,
      copy.name.empty() ? "unnamed" : copy.name,
      copy.id));
  return true;
}

}  // namespace gpuperf::analysis
