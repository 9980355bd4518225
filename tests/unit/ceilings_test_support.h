// Hand-written probe output for the measured-ceilings tests: every figure is consistent (rate =
// work per launch / best time), so each test breaks exactly one thing.
#pragma once

#include <string>

namespace gpuperf::testing {

inline constexpr const char* kProbeUuid = "GPU-9f8075aa-e02a-0953-1955-32f638fb2993";

// dram 4e12 B/s (1e11 B in 25 ms), fp32 6e13 FLOP/s (1.5e12 in 25 ms), bf16 6e14 (1.5e13 in
// 25 ms, 1.98 GHz), fp16 5e14 (1.25e13 in 25 ms, 1.96 GHz); fp32 ran at 1.98 GHz.
inline std::string ProbeJson(const std::string& name = "NVIDIA H200",
                             const std::string& uuid = kProbeUuid) {
  return R"({"probe": "gpuperf_ceilings_probe", "probe_version": 1,
 "device": {"ordinal": 0, "name": ")" +
         name + R"(", "uuid": ")" + uuid + R"(", "compute_major": 9,
   "compute_minor": 0, "sm_count": 132, "l2_bytes": 62914560, "memory_bytes": 150006595584,
   "max_sm_clock_hz": 1.98e9, "max_sm_clock_source": "cudaDevAttrClockRate"},
 "cuda": {"runtime_version": 13000, "driver_version": 13000},
 "dram": {"bytes_per_s": 4.0e12, "bytes_per_launch": 1.0e11, "best_ms": 25.0,
   "median_ms": 25.5, "reps": 10, "buffer_bytes": 268435456, "passes": 187, "blocks": 1056},
 "fp32_vector": {"flops_per_s": 6.0e13, "flops_per_launch": 1.5e12, "best_ms": 25.0,
   "median_ms": 25.1, "reps": 10, "sm_clock_hz": 1.98e9, "iterations": 5000},
 "bf16_tensor": {"flops_per_s": 6.0e14, "flops_per_launch": 1.5e13, "best_ms": 25.0,
   "median_ms": 25.2, "reps": 10, "sm_clock_hz": 1.98e9},
 "fp16_tensor": {"flops_per_s": 5.0e14, "flops_per_launch": 1.25e13, "best_ms": 25.0,
   "median_ms": 25.2, "reps": 10, "sm_clock_hz": 1.96e9},
 "method": "best of 10 cudaEvent-timed launches"}
)";
}

// `json` with the first occurrence of `from` replaced by `to` (REQUIREs that it occurs).
inline std::string Replace(std::string json, const std::string& from, const std::string& to) {
  const std::size_t at = json.find(from);
  if (at == std::string::npos)
    return "REPLACE FAILED: " + from;
  return json.replace(at, from.size(), to);
}

}  // namespace gpuperf::testing
