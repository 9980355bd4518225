// Cache traffic without on-chip reuse (docs/metrics.md, "Classification", "No on-chip reuse"):
// a kernel under its DRAM and compute roofs that moves many times its DRAM bytes through L1/TEX
// (or L2) at under about one FLOP per byte of that traffic loads its operands from the cache
// again for nearly every FLOP. Its lever is reuse in shared memory and registers (tiling), not
// more parallelism.
#pragma once

#include "gpuperf/roofline.h"

#include <optional>
#include <string>

namespace gpuperf::analysis {

// A cache level carries "many times" the DRAM traffic from this ratio on: data fetched from DRAM
// once is read again and again from the cache.
inline constexpr double kCacheTrafficRatio = 10.0;

// Under this FLOP per cache byte a kernel cannot reach its FP32 roof through the cache: about the
// L1 ridge point of NVIDIA SMs since Volta (128 bytes of L1 per clock against 64 FP32 FMAs, 128
// FLOP, per clock). Below it at L2 too, whose bandwidth is lower still.
inline constexpr double kNoReuseIntensity = 1.0;

struct CacheReuse {
  std::string level;          // "L1/TEX" or "L2"
  std::string metric;         // the counter of that level's bytes
  double traffic_ratio = 0;   // the level's bytes over the DRAM bytes
  double flops_per_byte = 0;  // the kernel's FLOPs over the level's bytes
};

// The first level (L1/TEX, then L2) whose counters show no on-chip reuse: at least
// kCacheTrafficRatio times the DRAM bytes at under kNoReuseIntensity FLOP per byte, for a kernel
// with FLOPs whose roofline is not memory- or compute-bound. nullopt otherwise or without the
// counters.
std::optional<CacheReuse> NoOnChipReuse(const report::KernelRoofline& roofline);

// "L1/TEX traffic 39.1x the DRAM bytes at 0.4 FLOP per L1/TEX byte (l1tex__t_bytes.sum,
// counters): cache/LSU traffic without on-chip reuse".
std::string NoReuseText(const CacheReuse& reuse);

}  // namespace gpuperf::analysis
