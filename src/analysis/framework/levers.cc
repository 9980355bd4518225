// FindLevers: runs LeverFinder (lever_finder.h; its levers in levers_attention.cc,
// levers_elementwise.cc, levers_fp32.cc), and the class its levers' kernels hold most of their
// time in (ClassFromKernels).
#include "analysis/framework/levers.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "analysis/core/names.h"
#include "analysis/findings/findings.h"
#include "analysis/framework/categories.h"
#include "analysis/framework/lever_finder.h"
#include "analysis/framework/optimizer_lever.h"
#include "analysis/framework/strided_elementwise.h"
#include "analysis/kernel/device_roofs.h"
#include "analysis/kernel/readable_name.h"
#include "analysis/kernel/shape_model.h"

namespace gpuperf::analysis::framework {

void LeverFinder::ClassFromKernels(Lever& lever,
                                   const std::vector<const report::OperatorRow*>& ops) {
  if (kernel_rows_.empty()) {
    for (const report::KernelRow& k : r_.kernels)
      kernel_rows_.emplace(k.name, &k);
  }
  std::map<report::KernelBound, std::int64_t> by_class;
  std::int64_t classified = 0;
  for (const report::OperatorRow* op : ops) {
    auto it = kernel_rows_.find(op->top_kernel);
    if (it == kernel_rows_.end() || op->kernel_ns <= 0)
      continue;
    const report::KernelBound bound = it->second->classification.bound;
    if (bound == report::KernelBound::kUnknown)
      continue;
    by_class[bound] += op->kernel_ns;
    classified += op->kernel_ns;
  }
  if (classified <= 0)
    return;
  // By time, a tie by spelling ("compute" before "memory").
  std::vector<std::pair<report::KernelBound, std::int64_t>> split(by_class.begin(), by_class.end());
  std::sort(split.begin(), split.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second
                                : report::ToString(a.first) < report::ToString(b.first);
  });
  std::vector<std::string> parts;
  for (const auto& [bound, ns] : split)
    parts.push_back(fmt::format("{} {}", report::ToString(bound), Ms(ns)));
  lever.basis += fmt::format("; its operators' top kernels by class (kernel table): {}",
                             fmt::join(parts, ", "));
  const report::KernelBound top = split.front().first;
  if (split.front().second * 2 <= classified || top == report::KernelBound::kLaunch ||
      report::BottleneckOf(top) == lever.bottleneck)
    return;
  lever.bottleneck = report::BottleneckOf(top);
  lever.missing_evidence = fmt::format(
      "Nsight Compute on its kernels (Speed of Light, warp-state stalls) would show what "
      "limits them; the kernel table classes most of their time {}",
      report::ToString(top));
}

std::vector<Lever> FindLevers(const model::Trace& trace,
                              const DeviceRoofsTable& roofs,
                              const report::AnalysisReport& report,
                              std::int64_t wall_ns,
                              util::Interval window) {
  return LeverFinder(trace, roofs, report, wall_ns, window).Find();
}

}  // namespace gpuperf::analysis::framework
