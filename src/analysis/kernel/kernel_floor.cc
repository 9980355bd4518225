#include "analysis/kernel/kernel_floor.h"

#include <algorithm>
#include <optional>

namespace gpuperf::analysis {
namespace {

// The busiest unit of Nsight Compute's Speed of Light, as a fraction of its peak (0 if none).
double BusiestUnit(const report::SpeedOfLight& sol) {
  double top = 0;
  for (const std::optional<double>& unit : {sol.compute, sol.memory, sol.dram, sol.l1, sol.l2})
    top = std::max(top, unit.value_or(0.0));
  return std::min(top, 1.0);
}

}  // namespace

std::map<std::string, KernelFloor> RooflineFloors(const std::vector<report::KernelRow>& kernels) {
  std::map<std::string, KernelFloor> floors;
  for (const report::KernelRow& row : kernels) {
    bool has_roofline_floor = row.roofline && row.roofline->floor_ns && row.roofline->instances > 0;
    if (!has_roofline_floor && row.speed_of_light && row.duration_ns.total > 0) {
      if (double top = BusiestUnit(*row.speed_of_light); top > 0)
        floors[row.name] = {
            static_cast<std::int64_t>(static_cast<double>(row.duration_ns.total) * top),
            report::EvidenceTier::kMeasured};
    }
    if (!has_roofline_floor)
      continue;
    double scale =
        static_cast<double>(row.duration_ns.count) / static_cast<double>(row.roofline->instances);
    floors[row.name] = {
        static_cast<std::int64_t>(static_cast<double>(*row.roofline->floor_ns) * scale),
        row.roofline->evidence};
  }
  return floors;
}

}  // namespace gpuperf::analysis
