// Rooflines from the user model file (`gpuperf analyze --model`, docs/metrics.md "User model
// file"): kernel names matched to the file's patterns, FLOPs and bytes from its formulas per
// launch, against the ceilings of the kernel's device, with evidence "modeled".
#pragma once

#include "gpuperf/kernel_model.h"
#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <string>
#include <vector>

#include "analysis/kernel/device_roofs.h"

namespace gpuperf::analysis {

// Fills KernelRow::roofline for every kernel name without one yet (counters win) that a pattern
// of `file` matches, over the launches whose formulas evaluate, against its device's `roofs`;
// launches that fail are left out and named in the note. Appends one note to `notes`: what the file
// modelled, what failed, the ceilings. Runs before the shape models: the user's explicit model
// beats them.
void AttachUserModelRooflines(const model::Trace& trace,
                              const model::KernelModelFile& file,
                              const DeviceRoofsTable& roofs,
                              std::vector<report::KernelRow>& kernels,
                              std::vector<std::string>& notes);

}  // namespace gpuperf::analysis
