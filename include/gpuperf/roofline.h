// The roofline of one kernel name, from hardware counters (Nsight Compute) against datasheet
// ceilings. Part of the report model (report::KernelRow::roofline); docs/metrics.md "Roofline"
// gives every formula and docs/report-schema.md the JSON keys.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gpuperf::report {

// A kernel that reaches less than this fraction of both its compute roof and its memory roof is
// classified "latency": neither resource limits it (too little parallelism, stalls, launch size).
inline constexpr double kLatencyBoundFraction = 0.3;

// Summed over the kernel's instances that have counters. Every optional is absent when the
// counters or the ceilings needed for it are missing.
struct KernelRoofline {
  std::int64_t instances = 0;   // instances with counters
  std::string precision;        // "fp32", "fp64", "fp16", "bf16", "tf32", "fp8", "int8"; "" unknown
  std::string unit;             // "vector" (CUDA cores) or "tensor"; "" unknown
  std::optional<double> flops;  // of `precision` on `unit`
  std::optional<double> dram_bytes;            // DRAM read + write
  std::optional<double> arithmetic_intensity;  // flops / dram_bytes, FLOP per byte
  std::optional<double> achieved_flops_per_s;  // flops / summed duration
  std::optional<double> achieved_bytes_per_s;  // dram_bytes / summed duration
  // Achieved / the roof at this arithmetic intensity, min(peak_flops, AI x bandwidth): the
  // bandwidth fraction left of the ridge point, the compute fraction right of it.
  std::optional<double> roof_fraction;
  // Roofline lower bound of the summed duration: sum over instances of
  // max(flops / peak_flops, dram_bytes / bandwidth).
  std::optional<std::int64_t> floor_ns;
  std::string bound = "unknown";      // "memory", "compute", "latency" or "unknown"
  std::string evidence = "measured";  // counters measured by Nsight Compute
  std::string ceiling_source;         // the datasheet entry used; "" without ceilings
};

}  // namespace gpuperf::report
