#include "analysis/kernel_class.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace gpuperf::analysis {
namespace {

struct LaunchShape {
  std::int32_t device = 0;
  std::int64_t max_blocks = 0;  // largest grid among the instances; 0 when not recorded
};

std::unordered_map<std::string_view, LaunchShape> ShapesByName(const model::Trace& trace) {
  std::unordered_map<model::NameId, LaunchShape> by_id;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind != model::ActivityKind::kKernel)
      continue;
    auto [it, inserted] = by_id.try_emplace(a.name, LaunchShape{a.device, 0});
    std::int64_t blocks = static_cast<std::int64_t>(a.grid.x) * a.grid.y * a.grid.z;
    it->second.max_blocks = std::max(it->second.max_blocks, blocks);
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
  const model::Device* device = trace.FindDevice(shape.device);
  if (!device || device->sm_count <= 0 || shape.max_blocks <= 0)
    return std::nullopt;
  std::int64_t per_sm = row.occupancy && row.occupancy->active_blocks_per_sm > 0
                            ? row.occupancy->active_blocks_per_sm
                            : 1;  // without occupancy: one block per SM, the kindest wave
  return static_cast<double>(shape.max_blocks) / static_cast<double>(device->sm_count * per_sm);
}

bool Contains(std::string_view text, std::string_view token) {
  return std::search(text.begin(), text.end(), token.begin(), token.end(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == b;
         }) != text.end();
}

// Matrix-shaped work by name: where tensor cores are the expected unit for half precision.
bool MatrixShapedName(std::string_view name) {
  for (std::string_view token : {"gemm", "matmul", "conv", "attention", "attn", "mma", "flash"}) {
    if (Contains(name, token))
      return true;
  }
  return false;
}

bool TensorPrecision(std::string_view precision) {
  return precision == "fp16" || precision == "bf16" || precision == "fp8" || precision == "int8" ||
         precision == "tf32";
}

std::string RooflineReason(const report::KernelRoofline& r) {
  std::string where =
      r.arithmetic_intensity ? fmt::format(" at {:.3g} FLOP/byte", *r.arithmetic_intensity) : "";
  if (r.bound == "memory") {
    return fmt::format("{:.0f}% of the DRAM roof{} ({} roofline)",
                       r.roof_fraction.value_or(0) * 100,
                       where,
                       r.evidence);
  }
  if (r.bound == "compute") {
    return fmt::format("{:.0f}% of the {} {} compute roof{} ({} roofline)",
                       r.roof_fraction.value_or(0) * 100,
                       r.precision,
                       r.unit,
                       where,
                       r.evidence);
  }
  return fmt::format("under {:.0f}% of both its compute and its memory roof{} ({} roofline)",
                     report::kLatencyBoundFraction * 100,
                     where,
                     r.evidence);
}

report::KernelClass Classify(const model::Trace& trace,
                             const report::KernelRow& row,
                             const LaunchShape* shape) {
  report::KernelClass c;
  const report::KernelRoofline* roof = row.roofline ? &*row.roofline : nullptr;
  bool roof_bound = roof && (roof->bound == "memory" || roof->bound == "compute");
  std::optional<double> wave = shape ? WaveFraction(trace, row, *shape) : std::nullopt;
  bool small = row.duration_ns.med < static_cast<double>(kSmallKernelNs);
  if (roof_bound) {
    c.bound = roof->bound;
    c.evidence = roof->evidence;
    c.reason = RooflineReason(*roof);
  } else if (small && (!wave || *wave < 1.0)) {
    c.bound = "launch";
    c.evidence = wave ? "measured" : "inferred";
    c.reason = wave ? fmt::format("median {:.1f} us on a grid of {:.2f} of one wave (trace)",
                                  row.duration_ns.med / 1e3,
                                  *wave)
                    : fmt::format(
                          "median {:.1f} us; the trace records no grid, so the wave "
                          "fraction is unknown",
                          row.duration_ns.med / 1e3);
  } else if (roof && roof->bound == "latency") {
    c.bound = "latency";
    c.evidence = roof->evidence;
    c.reason = RooflineReason(*roof);
  }
  bool expected = roof && (roof->unit == "tensor" ||
                           (TensorPrecision(roof->precision) && MatrixShapedName(row.name)));
  const auto& tc = row.tensor_cores;
  c.tensor_cores_expected_but_unused = expected && tc && tc->evidence == "measured" && !tc->used;
  return c;
}

}  // namespace

void ClassifyKernels(const model::Trace& trace, std::vector<report::KernelRow>& kernels) {
  auto shapes = ShapesByName(trace);
  for (report::KernelRow& row : kernels) {
    auto it = shapes.find(row.name);
    row.classification = Classify(trace, row, it == shapes.end() ? nullptr : &it->second);
  }
}

}  // namespace gpuperf::analysis
