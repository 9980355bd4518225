// The order rows are presented in. The analysis already sorts kernels by total time; writers
// re-establish it (stably) because report.json's kernel order is a CI contract.
#pragma once

#include "gpuperf/report.h"

#include <algorithm>
#include <vector>

namespace gpuperf::report {

// Kernels by total duration, descending; ties keep the analysis' order.
inline std::vector<const KernelRow*> KernelsByTotalTime(const std::vector<KernelRow>& kernels) {
  std::vector<const KernelRow*> order;
  order.reserve(kernels.size());
  for (const auto& kernel : kernels)
    order.push_back(&kernel);
  std::stable_sort(order.begin(), order.end(), [](const KernelRow* a, const KernelRow* b) {
    return a->duration_ns.total > b->duration_ns.total;
  });
  return order;
}

}  // namespace gpuperf::report
