// `--gpu NAME` for `gpuperf analyze`: names the GPU a trace ran on when the trace does not (a
// standalone Nsight Compute CSV records only the compute capability), so that the roofline uses
// that datasheet entry instead of the range of the compute capability's candidates
// (docs/metrics.md, "Roofline").
#pragma once

#include "gpuperf/result.h"
#include "gpuperf/trace.h"

#include <CLI/CLI.hpp>

#include <string>

#include "model/ceilings.h"

namespace gpuperf::cli {

// Adds the --gpu NAME option.
void AddGpuOption(CLI::App* sub, std::string& name);

// The datasheet entry NAME selects: its key (any case: "a100 sxm4 40gb"), else a device name
// that fits exactly one entry ("NVIDIA A100-SXM4-40GB"). An error lists the known keys.
Result<const model::DeviceCeilings*> ResolveGpuName(const std::string& name);

// Names every kernel device of `trace` that has no name after `entry` (a device without a
// record gets one). Refuses, naming the device, a device whose compute capability differs from
// the entry's or whose recorded name fits another entry. Notes what it did in the diagnostics.
// Nothing to do when `name` is empty.
Status ApplyGpuName(const std::string& name, model::Trace& trace);

}  // namespace gpuperf::cli
