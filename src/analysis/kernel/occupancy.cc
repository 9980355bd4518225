#include "analysis/kernel/occupancy.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace gpuperf::analysis {
namespace {

std::int64_t DivideRoundUp(std::int64_t x, std::int64_t y) {
  return (x + y - 1) / y;
}

std::int64_t RoundUp(std::int64_t x, std::int64_t y) {
  return y * DivideRoundUp(x, y);
}

// Blocks per SM allowed by registers (cudaOccMaxBlocksPerSMRegsLimit without partitioned global
// caching, which no listed compute capability has).
std::int64_t RegisterLimit(const model::SmLimits& limits,
                           std::int64_t warps_per_block,
                           std::int32_t registers_per_thread) {
  std::int64_t per_warp = RoundUp(std::int64_t{registers_per_thread} * limits.warp_size,
                                  limits.register_allocation_unit);
  std::int64_t per_block = per_warp * warps_per_block;
  // The hardware check assumes every sub-partition gets the block's warps rounded up.
  std::int64_t assumed = per_warp * RoundUp(warps_per_block, limits.register_sub_partitions);
  if (registers_per_thread > limits.max_registers_per_thread ||
      per_block > limits.registers_per_block || assumed > limits.registers_per_block)
    return 0;
  if (per_warp == 0)
    return INT_MAX;
  std::int64_t warps_per_sub_partition =
      limits.registers_per_sm / limits.register_sub_partitions / per_warp;
  return warps_per_sub_partition * limits.register_sub_partitions / warps_per_block;
}

// Blocks per SM allowed by shared memory (cudaOccMaxBlocksPerSMSmemLimit at the largest carveout).
std::int64_t SharedMemoryLimit(const model::SmLimits& limits, std::int64_t shared_memory_bytes) {
  std::int64_t per_block = RoundUp(shared_memory_bytes + limits.reserved_shared_memory_per_block,
                                   limits.shared_memory_allocation_unit);
  if (per_block > limits.shared_memory_per_sm)
    return 0;
  if (per_block == 0)
    return INT_MAX;
  return limits.shared_memory_per_sm / per_block;
}

struct Config {
  std::int64_t threads = 0;
  std::int32_t registers = 0;
  std::int64_t shared_memory = 0;
  std::int32_t major = 0;
  std::int32_t minor = 0;
  auto Key() const { return std::tie(threads, registers, shared_memory, major, minor); }
  bool operator<(const Config& other) const { return Key() < other.Key(); }
};

}  // namespace

report::KernelOccupancy ComputeOccupancy(const model::SmLimits& limits,
                                         std::int64_t threads_per_block,
                                         std::int32_t registers_per_thread,
                                         std::int64_t shared_memory_bytes) {
  report::KernelOccupancy out;
  out.threads_per_block = threads_per_block;
  out.registers_per_thread = registers_per_thread;
  out.shared_memory_bytes = shared_memory_bytes;
  out.max_warps_per_sm = limits.max_warps_per_sm;
  std::int64_t warps_per_block = DivideRoundUp(threads_per_block, limits.warp_size);
  if (threads_per_block <= 0 || threads_per_block > limits.max_threads_per_block) {
    out.limiter = "block_size";
    return out;
  }
  // In the calculator's order of precedence for ties: the first limit equal to the minimum.
  const std::pair<const char*, std::int64_t> candidates[] = {
      {"warps", limits.max_warps_per_sm / warps_per_block},
      {"max_blocks", limits.max_blocks_per_sm},
      {"registers", RegisterLimit(limits, warps_per_block, registers_per_thread)},
      {"shared_memory", SharedMemoryLimit(limits, shared_memory_bytes)},
  };
  const auto* limit = std::min_element(
      std::begin(candidates), std::end(candidates), [](const auto& a, const auto& b) {
        return a.second < b.second;
      });
  out.limiter = limit->first;
  out.active_blocks_per_sm = static_cast<std::int32_t>(limit->second);
  out.active_warps_per_sm = static_cast<std::int32_t>(limit->second * warps_per_block);
  out.theoretical = limits.max_warps_per_sm > 0
                        ? static_cast<double>(out.active_warps_per_sm) / limits.max_warps_per_sm
                        : 0;
  return out;
}

namespace {

// Per kernel name: sum of achieved occupancy (0-1) x weight, the weights, and the instance count.
struct Achieved {
  double weighted = 0, weights = 0;
  std::int64_t instances = 0;
};

std::map<std::string, Achieved, std::less<>> AchievedByName(const model::Trace& trace) {
  std::map<std::string, Achieved, std::less<>> out;
  for (const model::KernelCounters& c : trace.counters) {
    auto metric = c.metrics.find("sm__warps_active.avg.pct_of_peak_sustained_active");
    if (metric == c.metrics.end() || c.activity >= trace.activities.size() ||
        !std::isfinite(metric->second))
      continue;
    const model::GpuActivity& a = trace.activities[c.activity];
    // Duration-weighted like the time it describes; a replay span is no duration: weight 1.
    const double weight =
        !c.replay_span && a.duration_ns() > 0 ? static_cast<double>(a.duration_ns()) : 1.0;
    Achieved& entry = out[std::string(trace.Name(a.name))];
    entry.weighted += weight * std::clamp(metric->second / 100.0, 0.0, 1.0);
    entry.weights += weight;
    ++entry.instances;
  }
  return out;
}

}  // namespace

void AttachOccupancy(const model::Trace& trace, std::vector<report::KernelRow>& kernels) {
  std::unordered_map<std::int32_t, const model::Device*> devices;
  for (const model::Device& device : trace.devices)
    devices.emplace(device.id, &device);
  std::map<std::string, std::map<Config, std::int64_t>, std::less<>> by_name;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind != model::ActivityKind::kKernel || a.block.Volume() <= 0 ||
        a.registers_per_thread <= 0)
      continue;
    auto device = devices.find(a.device);
    if (device == devices.end() ||
        !model::FindSmLimits(device->second->compute_major, device->second->compute_minor))
      continue;
    Config config{a.block.Volume(),
                  a.registers_per_thread,
                  std::max<std::int64_t>(a.shared_memory_bytes, 0),
                  device->second->compute_major,
                  device->second->compute_minor};
    ++by_name[std::string(trace.Name(a.name))][config];
  }
  const auto achieved = AchievedByName(trace);
  for (report::KernelRow& row : kernels) {
    auto found = by_name.find(row.name);
    if (found == by_name.end())
      continue;
    const Config* chosen = nullptr;
    std::int64_t chosen_count = 0, total = 0;
    for (const auto& [config, count] : found->second) {  // ascending: ties keep the smallest
      total += count;
      if (count > chosen_count) {
        chosen = &config;
        chosen_count = count;
      }
    }
    const model::SmLimits* limits = model::FindSmLimits(chosen->major, chosen->minor);
    report::KernelOccupancy occupancy =
        ComputeOccupancy(*limits, chosen->threads, chosen->registers, chosen->shared_memory);
    occupancy.instances = chosen_count;
    occupancy.instances_with_attributes = total;
    occupancy.compute_capability = fmt::format("{}.{}", chosen->major, chosen->minor);
    if (auto it = achieved.find(row.name); it != achieved.end() && it->second.weights > 0) {
      occupancy.achieved = it->second.weighted / it->second.weights;
      occupancy.achieved_instances = it->second.instances;
    }
    row.occupancy = std::move(occupancy);
  }
}

}  // namespace gpuperf::analysis
