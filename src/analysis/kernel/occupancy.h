// Theoretical occupancy per kernel name from its launch attributes and its device's per-SM limits
// (model/sm_limits.h), with the rounding rules of NVIDIA's occupancy calculator (cuda_occupancy.h).
// Formulas: docs/metrics.md, "Occupancy".
#pragma once

#include "gpuperf/occupancy.h"
#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <cstdint>
#include <vector>

#include "model/sm_limits.h"

namespace gpuperf::analysis {

// The calculator for one launch configuration. `threads_per_block` > 0. Fills the result fields
// of KernelOccupancy (active blocks and warps, max warps, theoretical, limiter) and the
// configuration; instances and compute_capability are left to the caller.
report::KernelOccupancy ComputeOccupancy(const model::SmLimits& limits,
                                         std::int64_t threads_per_block,
                                         std::int32_t registers_per_thread,
                                         std::int64_t shared_memory_bytes);

// Sets KernelRow::occupancy for every kernel name whose instances record launch attributes
// (non-zero block and registers per thread) on a device of known compute capability. When
// instances differ, the most common configuration (then the smallest) is modelled.
void AttachOccupancy(const model::Trace& trace, std::vector<report::KernelRow>& kernels);

}  // namespace gpuperf::analysis
