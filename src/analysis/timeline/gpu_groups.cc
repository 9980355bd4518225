#include "analysis/timeline/gpu_groups.h"

#include <algorithm>

namespace gpuperf::analysis {

std::map<PidDevice, std::vector<util::Interval>> GpuOpsByPidDevice(const model::Trace& trace) {
  std::map<PidDevice, std::vector<util::Interval>> groups;
  for (const model::GpuActivity& a : trace.activities) {
    groups[{a.pid, a.device}].push_back({a.start_ns, a.end_ns});
  }
  for (auto& [key, ops] : groups) {
    auto by_start_end = [](const util::Interval& x, const util::Interval& y) {
      return x.start < y.start || (x.start == y.start && x.end < y.end);
    };
    if (!std::is_sorted(ops.begin(), ops.end(), by_start_end)) {
      std::sort(ops.begin(), ops.end(), by_start_end);
    }
  }
  return groups;
}

}  // namespace gpuperf::analysis
