// Theoretical occupancy of a kernel's launch configuration (docs/metrics.md, "Occupancy"):
// NVIDIA's occupancy calculator applied to the launch attributes a trace records (block size,
// registers per thread, shared memory per block) and the per-SM limits of the device's compute
// capability. A model (evidence "modeled"), not a measured achieved occupancy.
#pragma once

#include "gpuperf/evidence.h"

#include <cstdint>
#include <optional>
#include <string>

namespace gpuperf::report {

struct KernelOccupancy {
  // The launch configuration modelled: the most common one among the kernel's instances.
  std::int64_t threads_per_block = 0;
  std::int32_t registers_per_thread = 0;
  std::int64_t shared_memory_bytes = 0;        // static + dynamic, per block
  std::int64_t instances = 0;                  // instances with this configuration
  std::int64_t instances_with_attributes = 0;  // instances with launch attributes
  std::string compute_capability;              // "9.0"
  // The calculator's result.
  std::int32_t active_blocks_per_sm = 0;
  std::int32_t active_warps_per_sm = 0;
  std::int32_t max_warps_per_sm = 0;
  double theoretical = 0;  // active_warps_per_sm / max_warps_per_sm, 0-1
  // What bounds active_blocks_per_sm: "warps", "max_blocks", "registers", "shared_memory", or
  // "block_size" (more threads per block than the device allows).
  std::string limiter;
  EvidenceTier evidence = EvidenceTier::kModeled;
  // Achieved occupancy from hardware counters (sm__warps_active.avg.pct_of_peak_sustained_active,
  // as Nsight Compute's "Achieved Occupancy"), 0-1, averaged over the kernel's instances that
  // have it weighted by duration; evidence "measured". Absent without such counters.
  std::optional<double> achieved;
  std::int64_t achieved_instances = 0;
};

}  // namespace gpuperf::report
