#include "analysis/framework/strided_elementwise.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>

namespace gpuperf::analysis::framework {

bool IsStridedElementwiseKernel(std::string_view name) {
  if (name.starts_with("void "))
    name.remove_prefix(5);
  // ROCm builds of PyTorch take the same path through elementwise_kernel_manual_unroll (MI300
  // Qwen: 9.46 ms of it beside 1.53 ms of elementwise_kernel).
  return name.starts_with("at::native::elementwise_kernel<") ||
         name.starts_with("at::native::elementwise_kernel_manual_unroll<");
}

StridedElementwise StridedElementwiseOf(const report::AnalysisReport& r) {
  StridedElementwise out;
  std::map<std::string, std::int64_t> by_operator;
  for (const report::KernelRow& k : r.kernels) {
    if (!IsStridedElementwiseKernel(k.name))
      continue;
    out.time_ns += k.duration_ns.total;
    out.kernels += k.duration_ns.count;
    if (!k.top_operator.empty())
      by_operator[k.top_operator] += k.duration_ns.total;
  }
  std::vector<std::pair<std::string, std::int64_t>> ranked(by_operator.begin(), by_operator.end());
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second > b.second;
  });
  for (std::size_t i = 0; i < ranked.size() && i < 4; ++i)
    out.top_operators.push_back(ranked[i].first);
  return out;
}

}  // namespace gpuperf::analysis::framework
