// Which ceilings a report places kernels against, per device, and at what clocks
// (report.json `ceilings[]`; docs/metrics.md, "Ceilings and clocks").
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <vector>

#include "analysis/kernel/device_roofs.h"

namespace gpuperf::analysis {

// One entry per device that runs a kernel with a roofline, in device order.
std::vector<report::CeilingsUsed> CeilingsUsed(const model::Trace& trace,
                                               const DeviceRoofsTable& roofs,
                                               const std::vector<report::KernelRow>& kernels);

}  // namespace gpuperf::analysis
