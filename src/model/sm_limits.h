// Per-SM resource limits by compute capability: the inputs of NVIDIA's occupancy calculator
// (cuda_occupancy.h, the CUDA Occupancy Calculator). Source: CUDA C++ Programming Guide,
// "Compute Capabilities", table "Technical Specifications per Compute Capability" (max resident
// warps / blocks per SM, 32-bit registers per SM, max registers per thread, max shared memory per
// SM), and its note on the 1 KiB of shared memory the driver reserves per block from cc 8.0
// (cudaDevAttrReservedSharedMemoryPerBlock). Allocation units are those of cuda_occupancy.h
// (registers: 256 per warp; shared memory: 256 bytes before cc 8.0, 128 bytes from 8.0).
// A compute capability not listed here has no limits: no occupancy rather than a guess.
#pragma once

#include <cstdint>
#include <span>

namespace gpuperf::model {

struct SmLimits {
  std::int32_t compute_major = 0;
  std::int32_t compute_minor = 0;
  std::int32_t warp_size = 32;
  std::int32_t max_threads_per_block = 1024;
  std::int32_t max_warps_per_sm = 0;
  std::int32_t max_blocks_per_sm = 0;
  std::int32_t registers_per_sm = 64 * 1024;     // 32-bit registers
  std::int32_t registers_per_block = 64 * 1024;  // max for one block
  std::int32_t register_allocation_unit = 256;   // registers, allocated per warp
  std::int32_t register_sub_partitions = 4;      // registers are split among 4 SM sub-partitions
  std::int32_t max_registers_per_thread = 255;
  std::int64_t shared_memory_per_sm = 0;              // bytes, the largest configurable carveout
  std::int32_t shared_memory_allocation_unit = 0;     // bytes
  std::int32_t reserved_shared_memory_per_block = 0;  // bytes, driver-reserved (cc >= 8.0)
};

// Every known compute capability, ascending.
std::span<const SmLimits> AllSmLimits();

// The limits of this compute capability; null when it is not known.
const SmLimits* FindSmLimits(std::int32_t major, std::int32_t minor);

}  // namespace gpuperf::model
