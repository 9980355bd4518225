// GPU operations grouped per (pid, device), as nsys' gap and utilization rules group them.
#pragma once

#include "gpuperf/trace.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "util/intervals.h"

namespace gpuperf::analysis {

using PidDevice = std::pair<std::int64_t, std::int32_t>;

// Raw (unmerged) intervals of kernels, copies and memsets, sorted by start.
std::map<PidDevice, std::vector<util::Interval>> GpuOpsByPidDevice(const model::Trace& trace);

}  // namespace gpuperf::analysis
