#include "analysis/kernel/kernel_class.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "analysis/core/names.h"
#include "analysis/kernel/cache_reuse.h"
#include "model/ceilings.h"
#include "model/sm_limits.h"
#include "util/units_format.h"

namespace gpuperf::analysis {
namespace {

struct LaunchShape {
  std::int32_t device = 0;
  std::int64_t max_blocks = 0;  // largest grid among the instances; 0 when not recorded
  // Nsight Compute's Launch Statistics "Waves Per SM" (launch__waves_per_multiprocessor), the
  // largest over the instances with counters: the wave fraction measured on the profiled GPU.
  std::optional<double> ncu_waves;
};

std::unordered_map<std::string_view, LaunchShape> ShapesByName(const model::Trace& trace) {
  std::unordered_map<model::NameId, LaunchShape> by_id;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind != model::ActivityKind::kKernel)
      continue;
    auto [it, inserted] = by_id.try_emplace(a.name, LaunchShape{a.device, 0, std::nullopt});
    std::int64_t blocks = static_cast<std::int64_t>(a.grid.x) * a.grid.y * a.grid.z;
    it->second.max_blocks = std::max(it->second.max_blocks, blocks);
  }
  for (const model::KernelCounters& c : trace.counters) {
    auto waves = c.metrics.find("launch__waves_per_multiprocessor");
    if (waves == c.metrics.end() || c.activity >= trace.activities.size() ||
        !std::isfinite(waves->second))
      continue;
    auto it = by_id.find(trace.activities[c.activity].name);
    if (it != by_id.end())
      it->second.ncu_waves = std::max(it->second.ncu_waves.value_or(0), waves->second);
  }
  std::unordered_map<std::string_view, LaunchShape> by_name;
  for (const auto& [id, shape] : by_id)
    by_name.emplace(trace.Name(id), shape);
  return by_name;
}

// Blocks of the largest grid over the blocks one wave holds (SMs x resident blocks per SM).
std::optional<double> WaveFraction(const model::Trace& trace,
                                   const report::KernelRow& row,
                                   const LaunchShape& shape) {
  if (shape.ncu_waves)
    return shape.ncu_waves;
  const model::Device* device = trace.FindDevice(shape.device);
  if (!device || device->sm_count <= 0 || shape.max_blocks <= 0)
    return std::nullopt;
  std::int64_t per_sm = row.occupancy && row.occupancy->active_blocks_per_sm > 0
                            ? row.occupancy->active_blocks_per_sm
                            : 1;  // without occupancy: one block per SM, the kindest wave
  return static_cast<double>(shape.max_blocks) / static_cast<double>(device->sm_count * per_sm);
}

bool TensorPrecision(std::string_view precision) {
  return precision == "fp16" || precision == "bf16" || precision == "fp8" || precision == "int8" ||
         precision == "tf32";
}

std::string RangeText(const std::pair<double, double>& range) {
  if (std::abs(range.second - range.first) < 0.0005)
    return fmt::format("{:.1f}%", range.first * 100);
  return fmt::format("{:.1f}-{:.1f}%", range.first * 100, range.second * 100);
}

// How far the cache levels carry the traffic: "; L2 traffic 50x the DRAM bytes (L2 intensity
// 1.7 FLOP/byte)" when the counters hold it: a kernel far from both roofs that moves many times
// its DRAM bytes through L2 waits on the cache hierarchy, not on DRAM.
std::string CacheText(const report::KernelRoofline& r) {
  if (!r.l2_over_dram_bytes)
    return "";
  return fmt::format("; L2 traffic {:.3g}x the DRAM bytes{}",
                     *r.l2_over_dram_bytes,
                     r.l2_arithmetic_intensity ? fmt::format(" (L2 intensity {:.3g} FLOP/byte)",
                                                             *r.l2_arithmetic_intensity)
                                               : std::string());
}

// "; compute roof scaled to the measured 765 MHz SM clock (counters)" when the peaks were: a
// fraction of a boost-clock peak would understate a kernel profiled at base clock.
std::string ClockText(const report::KernelRoofline& r) {
  if (!r.sm_clock_hz)
    return "";
  return fmt::format("; compute roof scaled to the measured {:.0f} MHz SM clock (counters)",
                     *r.sm_clock_hz / 1e6);
}

// A bound every candidate entry of an unnamed device agrees on, with the ranges over them.
std::string CandidateReason(const report::KernelRoofline& r) {
  std::string candidates;
  for (const std::string& key : r.ceiling_candidates)
    candidates += (candidates.empty() ? "" : ", ") + key;
  std::string compute =
      r.compute_fraction_range
          ? fmt::format(
                "{} of the {} {} peak", RangeText(*r.compute_fraction_range), r.precision, r.unit)
          : std::string("no compute peak");
  std::string memory = r.memory_fraction_range ? fmt::format("{} of the DRAM bandwidth",
                                                             RangeText(*r.memory_fraction_range))
                                               : std::string("no DRAM roof");
  return fmt::format(
      "{} and {}{} on every candidate of the device's compute capability ({}; {} "
      "roofline){}{}",
      compute,
      memory,
      r.arithmetic_intensity ? fmt::format(" at {:.3g} FLOP/byte", *r.arithmetic_intensity)
                             : std::string(),
      candidates,
      ToString(r.evidence),
      ClockText(r),
      CacheText(r));
}

std::string RooflineReason(const report::KernelRoofline& r) {
  if (!r.ceiling_candidates.empty())
    return CandidateReason(r);
  std::string where =
      r.arithmetic_intensity ? fmt::format(" at {:.3g} FLOP/byte", *r.arithmetic_intensity) : "";
  if (r.bound == report::KernelBound::kMemory) {
    return fmt::format("{:.0f}% of the DRAM roof{} ({} roofline)",
                       r.roof_fraction.value_or(0) * 100,
                       where,
                       ToString(r.evidence));  // the DRAM roof does not scale with the SM clock
  }
  if (r.bound == report::KernelBound::kCompute) {
    return fmt::format("{:.0f}% of the {} {} compute roof{} ({} roofline){}",
                       r.roof_fraction.value_or(0) * 100,
                       r.precision,
                       r.unit,
                       where,
                       ToString(r.evidence),
                       ClockText(r));
  }
  // Which roof it would meet first: a softmax at 20% of the DRAM roof is memory-side work that
  // does not stream, not compute waiting on latency.
  std::string side;
  if (r.arithmetic_intensity && r.peak_flops_per_s && r.peak_bytes_per_s &&
      *r.peak_bytes_per_s > 0) {
    double ridge = *r.peak_flops_per_s / *r.peak_bytes_per_s;
    side = fmt::format(", on the {} side of the ridge ({:.3g} FLOP/byte): {}",
                       *r.arithmetic_intensity < ridge ? "memory" : "compute",
                       ridge,
                       *r.arithmetic_intensity < ridge
                           ? "its floor is the DRAM time, so it moves its bytes slowly "
                             "(access pattern, too few loads in flight)"
                           : "its floor is the arithmetic, which it issues slowly");
  }
  return fmt::format("under {:.0f}% of both its compute and its memory roof{}{} ({} roofline){}{}",
                     report::kLatencyBoundFraction * 100,
                     where,
                     side,
                     ToString(r.evidence),
                     ClockText(r),
                     CacheText(r));
}

// Nsight Compute's Speed of Light: each unit against its own peak on the profiled GPU, so it
// classifies without a datasheet. Its SOLBottleneck rule's threshold: a unit at 60% or more of
// its peak limits the kernel; both under it is a latency problem.
std::optional<report::KernelClass> SpeedOfLightClass(const report::SpeedOfLight& sol) {
  // The memory side is ncu's busiest memory unit; a file that records only some units (a
  // --metrics list with DRAM alone) gives the busiest of those.
  std::optional<double> memory = sol.memory;
  for (const std::optional<double>* unit : {&sol.dram, &sol.l1, &sol.l2}) {
    if (*unit && !sol.memory)
      memory = std::max(memory.value_or(0.0), **unit);
  }
  if (!sol.compute || !memory)
    return std::nullopt;
  report::KernelClass c;
  c.evidence = report::EvidenceTier::kMeasured;
  c.basis = "speed_of_light";
  double top = std::max(*sol.compute, *memory);
  std::string units = fmt::format("compute (SM) {:.0f}%", *sol.compute * 100);
  if (sol.memory)
    units += fmt::format(", memory {:.0f}%", *sol.memory * 100);
  auto part = [](const char* name, const std::optional<double>& v) {
    return v ? fmt::format(", {} {:.0f}%", name, *v * 100) : std::string();
  };
  units += part("DRAM", sol.dram) + part("L1/TEX", sol.l1) + part("L2", sol.l2);
  if (top < kSpeedOfLightBusyFraction) {
    c.bound = report::KernelBound::kLatency;
    c.reason = fmt::format(
        "every unit under {:.0f}% of its peak: {} (Nsight Compute Speed of "
        "Light, {} instance(s))",
        kSpeedOfLightBusyFraction * 100,
        units,
        sol.instances);
  } else {
    c.bound =
        *sol.compute >= *memory ? report::KernelBound::kCompute : report::KernelBound::kMemory;
    c.reason = fmt::format(
        "{} at {:.0f}% of its peak: {} (Nsight Compute Speed of Light, {} "
        "instance(s))",
        c.bound == report::KernelBound::kCompute ? "compute (SM)" : "the busiest memory unit",
        top * 100,
        units,
        sol.instances);
  }
  return c;
}

// From this many waves a grid keeps every SM busy for most of the kernel's time.
constexpr double kFullGridWaves = 4.0;

report::KernelClass Classify(const model::Trace& trace,
                             const report::KernelRow& row,
                             const LaunchShape* shape) {
  report::KernelClass c;
  const report::KernelRoofline* roof = row.roofline ? &*row.roofline : nullptr;
  bool roof_bound = roof && (roof->bound == report::KernelBound::kMemory ||
                             roof->bound == report::KernelBound::kCompute);
  std::optional<double> wave = shape ? WaveFraction(trace, row, *shape) : std::nullopt;
  // A kernel without a recorded duration (an ncu CSV without gpu__time_duration) is not small.
  bool small = row.duration_ns.max > 0 && row.duration_ns.med < static_cast<double>(kSmallKernelNs);
  const char* roof_basis =
      roof && !roof->ceiling_candidates.empty() ? "roofline_candidates" : "roofline";
  if (roof_bound) {
    c.bound = roof->bound;
    c.evidence = roof->evidence;
    c.reason = RooflineReason(*roof);
    c.basis = roof_basis;
  } else if (small && (!wave || *wave < 1.0)) {
    c.bound = report::KernelBound::kLaunch;
    c.basis = "launch";
    c.evidence = wave ? report::EvidenceTier::kMeasured : report::EvidenceTier::kInferred;
    c.reason =
        wave ? fmt::format("median {:.1f} us on a grid of {}{:.2f} of one wave ({})",
                           row.duration_ns.med / 1e3,
                           shape->max_blocks > 0 ? fmt::format("{} blocks, ", shape->max_blocks)
                                                 : std::string(),
                           *wave,
                           shape->ncu_waves ? "Nsight Compute Launch Statistics, Waves "
                                              "Per SM"
                                            : "trace")
             : fmt::format("median {:.1f} us; {}, so the wave fraction is unknown",
                           row.duration_ns.med / 1e3,
                           shape && shape->max_blocks > 0
                               ? "the trace records the grid but not the device's SM count"
                               : "the trace records no grid");
    // Graph nodes have no launch call each: what a small node costs is the GPU's fixed
    // per-kernel latency, which fusion removes and graphs (already used) do not.
    if (row.graph_instances * 2 > row.duration_ns.count) {
      c.bound = report::KernelBound::kLatency;
      c.reason += fmt::format(
          "; {} of its {} instances ran as graph nodes, with no launch call of their own: its "
          "time is the GPU's fixed per-kernel latency, not host launch cost",
          row.graph_instances,
          row.duration_ns.count);
    }
  } else if (const model::Device* device = shape ? trace.FindDevice(shape->device) : nullptr;
             device && !small && GridUnderfills(shape->max_blocks, device->sm_count) &&
             row.duration_ns.count > 0 &&
             row.duration_ns.total / row.duration_ns.count >= kUnderfilledGridMinAvgNs &&
             !IsCommunicationKernel(row.name)) {
    // Long kernels on a few blocks (saxpy on 2 blocks of an A100's 108 SMs, 17.7 ms each): most
    // SMs idle however the kernel's own code runs, so the grid limits it before any roof.
    // Collectives run on a few channels by design and are left to communication.
    c.bound = report::KernelBound::kLatency;
    c.evidence = report::EvidenceTier::kMeasured;
    c.basis = kLaunchGridBasis;
    c.reason = fmt::format(
        "its largest grid, {} blocks, leaves at least half of the {} SMs without a block while "
        "each instance runs {} on average: too little parallelism limits it before any roof "
        "(trace: launch grids)",
        shape->max_blocks,
        device->sm_count,
        util::FormatDuration(static_cast<double>(row.duration_ns.total / row.duration_ns.count)));
  } else if (roof && roof->bound == report::KernelBound::kLatency) {
    c.bound = report::KernelBound::kLatency;
    c.evidence = roof->evidence;
    c.reason = RooflineReason(*roof);
    c.basis = roof_basis;
    // Under both roofs yet moving many times its DRAM bytes through a cache level at under one
    // FLOP per byte: the cache hierarchy (L1/TEX or L2 bandwidth, LSU) limits it, not latency.
    // Latency-bound for want of parallelism is not the case of a kernel that fills the GPU: at
    // half or more of its warps resident over many waves (owlv2's softmax: 100%, 314 waves), the
    // loads in flight are limited per thread (passes over the data, dependent loads), which more
    // threads do not change.
    const auto& occupancy = row.occupancy;
    if (occupancy && occupancy->theoretical >= 0.5 && wave && *wave >= kFullGridWaves)
      c.reason += fmt::format(
          "; at {:.0f}% theoretical occupancy on {:.0f} waves it has threads to spare, so the "
          "limit is per thread (passes over the data, dependent loads, its instruction mix), not "
          "parallelism: Nsight Compute's memory workload and warp-state stalls tell which",
          occupancy->theoretical * 100,
          *wave);
    if (auto reuse = NoOnChipReuse(*roof)) {
      c.bound = report::KernelBound::kCache;
      c.reason += "; " + NoReuseText(*reuse);
      // The traffic is measured; that the cache path limits the kernel is an inference until
      // a cache unit is seen near its peak (Speed of Light) or the warps stall on it.
      c.evidence = report::EvidenceTier::kInferred;
      const auto& sol = row.speed_of_light;
      std::optional<double> busiest;
      if (sol && (sol->l1 || sol->l2))
        busiest = std::max(sol->l1.value_or(0), sol->l2.value_or(0));
      if (busiest && *busiest >= kSpeedOfLightBusyFraction) {
        c.evidence = roof->evidence;
        c.reason += fmt::format(
            "; the busiest cache unit runs at {:.0f}% of its peak (Nsight "
            "Compute Speed of Light)",
            *busiest * 100);
      } else {
        c.reason += busiest ? fmt::format(
                                  "; yet no cache unit runs near its peak ({:.0f}% at "
                                  "most, Nsight Compute Speed of Light): a hypothesis",
                                  *busiest * 100)
                            : "; whether the cache path is at its limit the counters do not say "
                              "(no L1/L2 throughput or warp stalls): a hypothesis";
      }
    }
  } else if (auto sol =
                 row.speed_of_light ? SpeedOfLightClass(*row.speed_of_light) : std::nullopt) {
    c = *sol;
  }
  bool expected = roof && (roof->unit == "tensor" ||
                           (TensorPrecision(roof->precision) && IsMatrixShapedKernel(row.name)));
  const auto& tc = row.tensor_cores;
  c.tensor_cores_expected_but_unused =
      expected && tc && tc->evidence == report::EvidenceTier::kMeasured && !tc->used;
  return c;
}

}  // namespace

std::optional<double> MinWaves(const model::Trace& trace,
                               const DeviceRoofsTable& roofs,
                               const report::KernelRow& row) {
  auto shapes = ShapesByName(trace);
  auto it = shapes.find(row.name);
  if (it == shapes.end() || it->second.max_blocks <= 0)
    return std::nullopt;
  const model::Device* device = trace.FindDevice(it->second.device);
  if (!device)
    return std::nullopt;
  std::int64_t sms = device->sm_count;
  if (sms <= 0) {  // an unnamed device: the largest part of its compute capability
    for (const model::DeviceCeilings* entry : roofs.Of(device->id).compute_capability_entries)
      sms = std::max<std::int64_t>(sms, entry->sm_count.value_or(0));
  }
  std::int64_t per_sm = row.occupancy && row.occupancy->active_blocks_per_sm > 0
                            ? row.occupancy->active_blocks_per_sm
                            : 0;
  if (per_sm == 0) {  // without occupancy: the most blocks any SM of this architecture holds
    if (const model::SmLimits* limits =
            model::FindSmLimits(device->compute_major, device->compute_minor))
      per_sm = limits->max_blocks_per_sm;
  }
  if (sms <= 0 || per_sm <= 0)
    return std::nullopt;
  return static_cast<double>(it->second.max_blocks) / static_cast<double>(sms * per_sm);
}

void ClassifyKernels(const model::Trace& trace, std::vector<report::KernelRow>& kernels) {
  auto shapes = ShapesByName(trace);
  for (report::KernelRow& row : kernels) {
    auto it = shapes.find(row.name);
    row.classification = Classify(trace, row, it == shapes.end() ? nullptr : &it->second);
    if (row.roofline)  // the roofline's "latency" refined by the class: cache traffic, no reuse
      row.roofline->shown_bound = row.classification.bound == report::KernelBound::kCache
                                      ? report::KernelBound::kCache
                                      : row.roofline->bound;
  }
}

report::UnclassifiedKernels UnclassifiedKernelsOf(const std::vector<report::KernelRow>& kernels) {
  std::vector<const report::KernelRow*> order;
  for (const report::KernelRow& row : kernels)
    order.push_back(&row);
  std::stable_sort(order.begin(), order.end(), [](const auto* a, const auto* b) {
    return a->duration_ns.total > b->duration_ns.total;
  });
  report::UnclassifiedKernels out;
  for (const report::KernelRow* row : order) {
    if (report::HasClassOrTensorCoreEvidence(*row))
      continue;
    ++out.kernels;
    out.time_percent += row->time_percent;
  }
  return out;
}

}  // namespace gpuperf::analysis
