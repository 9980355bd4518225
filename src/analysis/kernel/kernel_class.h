// The per-kernel class (KernelRow::classification; docs/metrics.md, "Classification"): memory-,
// compute- or latency-bound from the roofline, cache-bound for a kernel under both roofs whose
// cache traffic shows no on-chip reuse (cache_reuse.h), launch-bound for microsecond kernels that
// fill a fraction of one wave, and the tensor-core-expected-but-unused flag.
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/kernel/device_roofs.h"

namespace gpuperf::analysis {

// A kernel whose median instance is shorter than this, on a grid of less than one wave, is
// launch-bound: it cannot fill the GPU, and its launch costs about as much as its work.
inline constexpr std::int64_t kSmallKernelNs = 10'000;

// A kernel averaging this long or more whose every launch holds at most half as many blocks as
// the GPU has SMs leaves most SMs idle for a time worth a change (shorter ones are mostly launch
// latency): latency-bound for want of parallelism, and the small_grid finding.
inline constexpr std::int64_t kUnderfilledGridMinAvgNs = 50'000;

// The class basis of a kernel latency-bound by its grid.
inline constexpr const char* kLaunchGridBasis = "launch_grid";

// Whether a grid of `blocks` leaves at least half of `sm_count` SMs without a block.
inline bool GridUnderfills(std::int64_t blocks, std::int64_t sm_count) {
  return blocks > 0 && sm_count > 0 && blocks * 2 <= sm_count;
}

// Nsight Compute's SOLBottleneck threshold: a unit at this fraction of its own peak (Speed of
// Light) limits the kernel; every unit under it is a latency problem. Used only when no roofline
// gives a bound.
inline constexpr double kSpeedOfLightBusyFraction = 0.6;

// The fewest waves the kernel's largest grid can take: its blocks over SMs x resident blocks per
// SM, with the device's SM count (else the largest datasheet entry of its compute capability) and
// the occupancy model's resident blocks (else the most any SM of that compute capability holds),
// so the true count is at least this. nullopt without a grid, an SM count or SM limits.
// `roofs`: the devices' ceilings analyze.cc resolved.
std::optional<double> MinWaves(const model::Trace& trace,
                               const DeviceRoofsTable& roofs,
                               const report::KernelRow& row);

// Fills `classification` of every row. Needs rooflines, occupancy and tensor-core evidence
// attached first.
void ClassifyKernels(const model::Trace& trace, std::vector<report::KernelRow>& kernels);

// The kernels ClassifyKernels gave no class and no tensor-core evidence, and their share of
// kernel time, summed by total time descending (ties in `kernels`' order), as report.md lists
// kernels.
report::UnclassifiedKernels UnclassifiedKernelsOf(const std::vector<report::KernelRow>& kernels);

}  // namespace gpuperf::analysis
