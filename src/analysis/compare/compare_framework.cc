// Operators, categories and modules across BEFORE and AFTER: kernel names change when code
// changes (a fused kernel, another GEMM library), the operators and modules that launch them
// usually do not.
#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "analysis/compare/compare_parts.h"

namespace gpuperf::analysis {
namespace {

using compare::GroupChange;

SummaryStats PerCall(const report::OperatorRow& op) {
  return SummaryStats{op.calls, op.call_avg_ns, op.call_stddev_ns, op.call_med_ns};
}

// Operators that launched GPU work directly, by name.
std::map<std::string, const report::OperatorRow*> Launchers(const report::AnalysisReport& r) {
  std::map<std::string, const report::OperatorRow*> out;
  for (const report::OperatorRow& op : r.framework.operators) {
    if (op.calls > 0)
      out.emplace(op.name, &op);
  }
  return out;
}

void CompareOperators(const compare::Side& before,
                      const compare::Side& after,
                      const compare::Options& options,
                      compare::CompareReport& out) {
  auto b = Launchers(before.report);
  auto a = Launchers(after.report);
  double before_total = 0;
  for (const auto& [name, op] : b)
    before_total += static_cast<double>(op->kernel_ns);
  for (const auto& [name, op] : b) {
    auto other = a.find(name);
    if (other == a.end()) {
      out.only_before_operators.push_back(name);
      continue;
    }
    compare::KernelResult r;
    r.name = name;
    r.total_before_ns = op->kernel_ns;
    r.total_after_ns = other->second->kernel_ns;
    r.share_before = before_total > 0 ? static_cast<double>(op->kernel_ns) / before_total : 0;
    r.statistic = SummaryStatistic(
        CompareSummaries(PerCall(*op), PerCall(*other->second), StatsOptions(options)));
    out.operators.push_back(std::move(r));
  }
  for (const auto& [name, op] : a) {
    if (!b.contains(name))
      out.only_after_operators.push_back(name);
  }
  std::stable_sort(out.operators.begin(), out.operators.end(), [](const auto& x, const auto& y) {
    return x.total_before_ns > y.total_before_ns;
  });
  if (out.operators.size() > options.kernels_kept) {
    out.operators_omitted = static_cast<std::int64_t>(out.operators.size() - options.kernels_kept);
    out.operators.resize(options.kernels_kept);
  }
}

// What a group is matched and shown by: a category by its spelling, a module by its class.
std::string GroupName(const report::CategoryRow& row) {
  return std::string(ToString(row.category));
}
std::string GroupName(const report::ModuleRow& row) {
  return row.name;
}

// Groups matched by name; the map keeps the ties of the sort below in the names' order.
template <class Row>
std::vector<GroupChange> Changes(const std::vector<Row>& before, const std::vector<Row>& after) {
  std::map<std::string, GroupChange> by_name;
  for (const Row& row : before) {
    GroupChange& change = by_name[GroupName(row)];
    change.name = GroupName(row);
    change.before_ns += row.kernel_ns;
  }
  for (const Row& row : after) {
    GroupChange& change = by_name[GroupName(row)];
    change.name = GroupName(row);
    change.after_ns += row.kernel_ns;
  }
  std::vector<GroupChange> out;
  for (auto& [name, change] : by_name) {
    if (change.before_ns > 0) {
      change.ratio = static_cast<double>(change.after_ns) / static_cast<double>(change.before_ns);
      change.relative_change = *change.ratio - 1.0;
    }
    out.push_back(std::move(change));
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& x, const auto& y) {
    return std::tie(y.before_ns, y.after_ns) < std::tie(x.before_ns, x.after_ns);
  });
  return out;
}

}  // namespace

void CompareFramework(const compare::Side& before,
                      const compare::Side& after,
                      const compare::Options& options,
                      compare::CompareReport& out) {
  CompareOperators(before, after, options, out);
  out.categories = Changes(before.report.framework.categories, after.report.framework.categories);
  out.modules = Changes(before.report.framework.modules, after.report.framework.modules);
}

}  // namespace gpuperf::analysis
