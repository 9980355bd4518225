#include "analysis/kernel/cache_reuse.h"

#include <fmt/format.h>

namespace gpuperf::analysis {

std::optional<CacheReuse> NoOnChipReuse(const report::KernelRoofline& r) {
  // A DRAM- or compute-bound kernel has its answer; reuse is the question below both roofs.
  if (r.bound == report::KernelBound::kMemory || r.bound == report::KernelBound::kCompute)
    return std::nullopt;
  if (!r.flops || *r.flops <= 0 || !r.dram_bytes || *r.dram_bytes <= 0)
    return std::nullopt;
  const std::pair<const char*, const char*> levels[] = {{"L1/TEX", "l1tex__t_bytes.sum"},
                                                        {"L2", "lts__t_bytes.sum"}};
  for (const auto& [level, metric] : levels) {
    const std::optional<double>& bytes = level[1] == '1' ? r.l1_bytes : r.l2_bytes;
    if (!bytes || *bytes <= 0)
      continue;
    double ratio = *bytes / *r.dram_bytes;
    double intensity = *r.flops / *bytes;
    if (ratio >= kCacheTrafficRatio && intensity < kNoReuseIntensity)
      return CacheReuse{level, metric, ratio, intensity};
  }
  return std::nullopt;
}

std::string NoReuseText(const CacheReuse& reuse) {
  return fmt::format(
      "{} traffic {:.3g}x the DRAM bytes at {:.3g} FLOP per {} byte ({}, counters): cache/LSU "
      "traffic without on-chip reuse",
      reuse.level,
      reuse.traffic_ratio,
      reuse.flops_per_byte,
      reuse.level,
      reuse.metric);
}

}  // namespace gpuperf::analysis
