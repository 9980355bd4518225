// A device-id remap the trace does not spell out: HIP_VISIBLE_DEVICES / CUDA_VISIBLE_DEVICES make
// the profiler describe the one visible GPU as device 0 while kernels carry the physical id (an
// MI300 trace: kernels on device 2, one deviceProperties entry with id 0). When that is the only
// reading, the description takes the id the work uses so that ceilings, occupancy and
// rooflines find it.
#pragma once

#include "gpuperf/trace.h"

namespace gpuperf::analysis {

// Unambiguous only when the trace describes exactly one device and all GPU activities run on
// exactly one id that no description has. Records what it did in trace.diagnostics (count
// "analysis.device_remapped" and a note); returns whether it remapped.
bool ResolveDeviceRemap(model::Trace& trace);

}  // namespace gpuperf::analysis
