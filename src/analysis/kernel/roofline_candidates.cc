#include "analysis/kernel/roofline_candidates.h"

#include <algorithm>
#include <string>

namespace gpuperf::analysis {
namespace {

void Widen(std::optional<std::pair<double, double>>& range, double value) {
  if (!range)
    range = std::make_pair(value, value);
  range->first = std::min(range->first, value);
  range->second = std::max(range->second, value);
}

}  // namespace

report::KernelRoofline CandidateRoofline(
    const std::vector<RooflineInstance>& instances,
    const std::vector<const model::DeviceCeilings*>& candidates,
    std::optional<double> counters_clock_hz) {
  if (candidates.empty())
    return ComputeRoofline(instances, nullptr);
  std::vector<report::KernelRoofline> each;
  for (const model::DeviceCeilings* entry : candidates) {
    model::DeviceCeilings roofs =
        counters_clock_hz ? model::AtSmClock(*entry, *counters_clock_hz) : *entry;
    each.push_back(ComputeRoofline(instances, &roofs));
  }
  // FLOPs, bytes, intensities and achieved rates do not depend on the roofs: the first
  // candidate's serve, and a candidate that picks another precision disagrees.
  report::KernelRoofline out = each.front();
  out.roof_fraction.reset();
  out.peak_flops_per_s.reset();
  out.peak_bytes_per_s.reset();
  out.floor_ns.reset();
  out.bound = report::KernelBound::kUnknown;
  bool agree = true;
  for (std::size_t i = 0; i < each.size(); ++i) {
    const report::KernelRoofline& r = each[i];
    out.ceiling_candidates.emplace_back(candidates[i]->key);
    if (r.achieved_flops_per_s && r.peak_flops_per_s && *r.peak_flops_per_s > 0)
      Widen(out.compute_fraction_range, *r.achieved_flops_per_s / *r.peak_flops_per_s);
    if (r.achieved_bytes_per_s && r.peak_bytes_per_s && *r.peak_bytes_per_s > 0)
      Widen(out.memory_fraction_range, *r.achieved_bytes_per_s / *r.peak_bytes_per_s);
    agree = agree && r.bound != report::KernelBound::kUnknown && r.bound == each.front().bound &&
            r.precision == each.front().precision && r.unit == each.front().unit && r.floor_ns;
  }
  if (agree) {
    out.bound = each.front().bound;
    for (const report::KernelRoofline& r : each)  // a lower bound whichever part it ran on
      out.floor_ns = out.floor_ns ? std::min(*out.floor_ns, *r.floor_ns) : *r.floor_ns;
  }
  std::string keys;
  for (const std::string& key : out.ceiling_candidates)
    keys += (keys.empty() ? "" : ", ") + key;
  out.ceiling_source = "datasheet candidates of the compute capability: " + keys;
  return out;
}

}  // namespace gpuperf::analysis
