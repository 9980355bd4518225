#include "analysis/core/run_gains.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace gpuperf::analysis {
namespace {

double Removed(double speedup) {
  return std::isinf(speedup) ? 1.0 : std::max(0.0, 1.0 - 1.0 / speedup);
}

}  // namespace

std::int64_t GainNs(const report::Predictions& p,
                    const std::vector<std::pair<const report::CriticalShare*, double>>& rows) {
  double unbounded = 0;
  std::unordered_map<std::int32_t, double> by_run;
  for (const auto& [row, speedup] : rows) {
    const double removed = Removed(speedup);
    if (row->runs.empty() && row->unbounded_ns == 0) {
      unbounded += static_cast<double>(row->critical_ns) * removed;
      continue;
    }
    unbounded += static_cast<double>(row->unbounded_ns) * removed;
    for (const report::RunTime& t : row->runs)
      by_run[t.run] += static_cast<double>(t.ns) * removed;
  }
  double gain = unbounded;
  for (const auto& [run, removed_ns] : by_run) {
    auto index = static_cast<std::size_t>(run);
    double budget =
        index < p.run_budget_ns.size() ? static_cast<double>(p.run_budget_ns[index]) : removed_ns;
    gain += std::min(removed_ns, budget);
  }
  return std::llround(gain);
}

std::int64_t GainNs(const report::Predictions& p,
                    const report::CriticalShare& row,
                    double speedup) {
  return GainNs(p, {{&row, speedup}});
}

std::int64_t GainNs(const report::Predictions& p,
                    const std::vector<const report::CriticalShare*>& rows,
                    double speedup) {
  std::vector<std::pair<const report::CriticalShare*, double>> at;
  for (const report::CriticalShare* row : rows)
    at.emplace_back(row, speedup);
  return GainNs(p, at);
}

}  // namespace gpuperf::analysis
