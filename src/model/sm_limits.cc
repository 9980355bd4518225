#include "model/sm_limits.h"

#include <array>

namespace gpuperf::model {
namespace {

constexpr std::int32_t kKiB = 1024;

constexpr SmLimits Limits(std::int32_t major,
                          std::int32_t minor,
                          std::int32_t max_warps,
                          std::int32_t max_blocks,
                          std::int64_t shared_kib) {
  SmLimits limits;
  limits.compute_major = major;
  limits.compute_minor = minor;
  limits.max_warps_per_sm = max_warps;
  limits.max_blocks_per_sm = max_blocks;
  limits.shared_memory_per_sm = shared_kib * kKiB;
  limits.shared_memory_allocation_unit = major >= 8 ? 128 : 256;
  limits.reserved_shared_memory_per_block = major >= 8 ? kKiB : 0;
  return limits;
}

// CUDA C++ Programming Guide, "Technical Specifications per Compute Capability":
//   cc    warps/SM  blocks/SM  shared memory/SM
constexpr std::array kLimits = {
    Limits(7, 0, 64, 32, 96),    // V100
    Limits(7, 5, 32, 16, 64),    // Turing
    Limits(8, 0, 64, 32, 164),   // A100
    Limits(8, 6, 48, 16, 100),   // GA10x
    Limits(8, 7, 48, 16, 164),   // Orin
    Limits(8, 9, 48, 24, 100),   // Ada
    Limits(9, 0, 64, 32, 228),   // H100 / H200
    Limits(10, 0, 64, 32, 228),  // B200
    Limits(12, 0, 48, 24, 100),  // RTX 50 / RTX PRO Blackwell
};

}  // namespace

std::span<const SmLimits> AllSmLimits() {
  return kLimits;
}

const SmLimits* FindSmLimits(std::int32_t major, std::int32_t minor) {
  for (const SmLimits& limits : kLimits) {
    if (limits.compute_major == major && limits.compute_minor == minor)
      return &limits;
  }
  return nullptr;
}

}  // namespace gpuperf::model
