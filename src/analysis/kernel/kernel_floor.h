// The roofline lower bound of each kernel name's summed duration: what the predictions bound a
// kernel's speedup with, and what a finding about slow kernels caps the time it gives back with.
#pragma once

#include "gpuperf/report.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gpuperf::analysis {

// The roofline lower bound of a kernel name's summed duration, with its evidence tier.
struct KernelFloor {
  std::int64_t floor_ns = 0;
  report::EvidenceTier evidence = report::EvidenceTier::kNone;
};

// An empty kernel's time on the GPU (1-3 us in CUPTI traces since Volta: assumed): no floor goes
// below instances x this.
inline constexpr std::int64_t kMinKernelLatencyNs = 2'000;

// Floors by kernel name, from the kernel table. Counters may cover only some instances of a
// kernel (ncu profiles a sample of launches): the floor is scaled to all instances by count. A
// kernel with Speed-of-Light counters but no FLOP/byte floor gets the Speed-of-Light one: the
// same work cannot run faster than its busiest unit at 100% of its peak (without it, a
// latency-bound kernel that holds all the profiled time was bounded at 1/(1 - f): 1352x on
// self-join). The minimum latency is not applied here (the predictions apply it per instance).
std::map<std::string, KernelFloor> RooflineFloors(const std::vector<report::KernelRow>& kernels);

}  // namespace gpuperf::analysis
