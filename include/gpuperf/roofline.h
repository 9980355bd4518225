// The roofline of one kernel name, from hardware counters (Nsight Compute) against datasheet
// ceilings. Part of the report model (report::KernelRow::roofline); docs/metrics.md "Roofline"
// gives every formula and docs/report-schema.md the JSON keys.
#pragma once

#include "gpuperf/evidence.h"
#include "gpuperf/report_vocabulary.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gpuperf::report {

// A kernel that reaches less than this fraction of both its compute roof and its memory roof is
// classified KernelBound::kLatency: neither resource limits it (too little parallelism, stalls,
// launch size).
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
  KernelBound bound = KernelBound::kUnknown;        // kMemory, kCompute, kLatency or kUnknown
  EvidenceTier evidence = EvidenceTier::kMeasured;  // counters measured by Nsight Compute
  std::string ceiling_source;                       // the datasheet entry used; "" without ceilings
  // The SM clock (Hz) the compute peaks were scaled to: the clock the counters recorded, when it
  // is not the clock the peaks hold at (docs/metrics.md, "Ceilings and clocks"). DRAM is never
  // scaled. Absent when the peaks are used as they are.
  std::optional<double> sm_clock_hz;
  // The roofs this kernel was placed against (for the chart): the peak of `precision` on `unit`
  // and the DRAM bandwidth of the ceilings used; absent without ceilings.
  std::optional<double> peak_flops_per_s;
  std::optional<double> peak_bytes_per_s;
  // The cache levels of a hierarchical roofline, from counters only (lts__t_bytes.sum, L2;
  // l1tex__t_bytes.sum, L1/TEX), summed like dram_bytes when every instance has them; their
  // intensities are flops over that traffic. No ceilings: traffic and intensity, no bound.
  std::optional<double> l2_bytes;
  std::optional<double> l1_bytes;
  std::optional<double> l2_arithmetic_intensity;
  std::optional<double> l1_arithmetic_intensity;
  // l2_bytes / dram_bytes: how many times its DRAM traffic the kernel moves through L2; absent
  // without either or with no DRAM bytes (since 1.21.0).
  std::optional<double> l2_over_dram_bytes;
  // When the device is not named (a standalone Nsight Compute CSV) and its compute capability
  // fits several datasheet entries: the entries the counters were placed against, and the range
  // of achieved / peak over them. `bound` is set only when every candidate gives the same one;
  // roof_fraction, floor_ns and the peaks are then left unset (no single roof), except floor_ns,
  // which is the smallest floor over the candidates (a lower bound whichever part it ran on).
  std::vector<std::string> ceiling_candidates;
  std::optional<std::pair<double, double>> compute_fraction_range;  // min, max; 0-1
  std::optional<std::pair<double, double>> memory_fraction_range;   // DRAM; min, max; 0-1
  // `bound` as report.md's roofline table and roofline.svg show it: refined to kCache where the
  // kernel's class is cache-bound (cache traffic, no on-chip reuse). Set by the classification
  // (ClassifyKernels); not in report.json.
  KernelBound shown_bound{};
};

// Nsight Compute's "GPU Speed Of Light Throughput" section: each unit's achieved throughput as a
// fraction (0-1) of its own peak on the profiled device, so it needs no datasheet. Averaged over
// the kernel's instances that record it, weighted by duration (evidence "measured").
struct SpeedOfLight {
  std::optional<double> compute;  // sm__throughput.avg.pct_of_peak_sustained_elapsed
  std::optional<double> memory;   // gpu__compute_memory_throughput...: the busiest memory unit
  std::optional<double> dram;     // gpu__dram_throughput / dram__throughput
  std::optional<double> l1;       // l1tex__throughput.avg.pct_of_peak_sustained_active
  std::optional<double> l2;       // lts__throughput.avg.pct_of_peak_sustained_elapsed
  std::int64_t instances = 0;
};

// One Nsight Compute rule result of the details page (Rule Name, Rule Type, Estimated Speedup),
// grouped over a kernel's instances: the description is that of the instance with the largest
// estimated speedup (else the first).
struct NcuRule {
  std::string section;                              // "Occupancy", "SpeedOfLight", ...
  std::string name;                                 // "TheoreticalOccupancy"
  std::string type;                                 // "OPT", "WRN", "INF", ...
  std::string speedup_type;                         // "local", "global" or ""
  std::optional<double> estimated_speedup_percent;  // largest over the instances
  std::string description;
  std::int64_t instances = 0;  // instances of the kernel that report it
};

// Tensor-core use of one kernel name. Claimed only with evidence: tensor-pipe counters or matrix
// instructions (HMMA, HGMMA, IMMA, ...) in the kernel's SASS; a guess from the name is "inferred".
struct TensorCoreEvidence {
  bool used = false;
  EvidenceTier evidence = EvidenceTier::kNone;  // kMeasured (counters, SASS), kInferred (name)
  std::string source;                           // "counters", "sass" or "name"
  // SASS: static count of each matrix opcode in the kernel's code ("HGMMA" -> 96).
  std::vector<std::pair<std::string, std::int64_t>> instructions;
  std::string detail;  // one sentence: what was looked at
};

// The per-kernel class (docs/metrics.md, "Classification"): the roofline's bound when there is
// one, else kLaunch for microsecond kernels of a fraction of a wave, else kUnknown.
struct KernelClass {
  // kMemory, kCompute, kLatency, kCache (since 1.8.0: under both roofs, cache traffic without
  // on-chip reuse), kLaunch, kUnknown
  KernelBound bound = KernelBound::kUnknown;
  EvidenceTier evidence = EvidenceTier::kNone;  // the tier of the bound
  std::string reason;                           // one sentence with the numbers
  // What the bound rests on: "roofline", "roofline_candidates" (the range of datasheet entries
  // of an unnamed device's compute capability), "speed_of_light" (Nsight Compute's per-unit
  // throughput), "launch" (duration and wave fraction); "" for "unknown".
  std::string basis;
  // A GEMM-, convolution- or attention-shaped kernel (shape model, name) in a precision tensor
  // cores serve, whose SASS or counters show no tensor-core work.
  bool tensor_cores_expected_but_unused = false;
};

}  // namespace gpuperf::report
