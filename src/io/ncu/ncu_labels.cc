#include "io/ncu/ncu_labels.h"

#include <array>

namespace gpuperf::io::ncu {
namespace {

struct LabelMapping {
  std::string_view section;  // empty: any section
  std::string_view label;
  std::string_view metric;
};

constexpr std::string_view kSol = "GPU Speed Of Light Throughput";
constexpr std::string_view kMemory = "Memory Workload Analysis";

// Labels of ncu 2020-2025 (docs/formats.md, "Nsight Compute CSV", "Labels by version").
constexpr std::array<LabelMapping, 33> kLabels = {{
    {"", "Duration", "gpu__time_duration.sum"},
    {"", "Elapsed Cycles", "gpc__cycles_elapsed.max"},
    {"", "SM Frequency", "gpc__cycles_elapsed.avg.per_second"},
    {"", "DRAM Frequency", "dram__cycles_elapsed.avg.per_second"},
    {"", "SM Active Cycles", "sm__cycles_active.avg"},
    {kSol, "Memory Throughput", "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"},
    {kSol, "Memory [%]", "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"},
    {kSol, "DRAM Throughput", "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"},
    {kSol, "Compute (SM) Throughput", "sm__throughput.avg.pct_of_peak_sustained_elapsed"},
    {kSol, "Compute (SM) [%]", "sm__throughput.avg.pct_of_peak_sustained_elapsed"},
    {kSol, "L1/TEX Cache Throughput", "l1tex__throughput.avg.pct_of_peak_sustained_active"},
    {kSol, "L2 Cache Throughput", "lts__throughput.avg.pct_of_peak_sustained_elapsed"},
    {kMemory, "Memory Throughput", "dram__bytes.sum.per_second"},
    {"", "Achieved Occupancy", "sm__warps_active.avg.pct_of_peak_sustained_active"},
    {"", "Theoretical Occupancy", "sm__maximum_warps_per_active_cycle_pct"},
    {"", "Registers Per Thread", "launch__registers_per_thread"},
    {"", "Block Size", "launch__block_size"},
    {"", "Grid Size", "launch__grid_size"},
    {"", "Threads", "launch__thread_count"},
    {"", "Waves Per SM", "launch__waves_per_multiprocessor"},
    {"", "Dynamic Shared Memory Per Block", "launch__shared_mem_per_block_dynamic"},
    {"", "Static Shared Memory Per Block", "launch__shared_mem_per_block_static"},
    {"", "Driver Shared Memory Per Block", "launch__shared_mem_per_block_driver"},
    {"", "Shared Memory Configuration Size", "launch__shared_mem_config_size"},
    // Occupancy section (ncu 2022-2025): the calculator's limits and the measured warps.
    {"", "Block Limit SM", "launch__occupancy_limit_blocks"},
    {"", "Block Limit Registers", "launch__occupancy_limit_registers"},
    {"", "Block Limit Shared Mem", "launch__occupancy_limit_shared_mem"},
    {"", "Block Limit Warps", "launch__occupancy_limit_warps"},
    {"", "Block Limit Barriers", "launch__occupancy_limit_barriers"},
    {"", "Theoretical Active Warps per SM", "sm__maximum_warps_avg_per_active_cycle"},
    {"", "Achieved Active Warps Per SM", "sm__warps_active.avg.per_cycle_active"},
    // The older Speed-of-Light label of the DRAM roof (ncu 2020: "SOL DRAM").
    {"", "SOL DRAM", "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"},
    {"",
     "Memory Throughput [%]",
     "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"},
}};

}  // namespace

std::optional<std::string_view> RawMetricForLabel(std::string_view section,
                                                  std::string_view label) {
  for (const LabelMapping& m : kLabels) {
    if (m.label == label && (m.section.empty() || m.section == section))
      return m.metric;
  }
  return std::nullopt;
}

}  // namespace gpuperf::io::ncu
