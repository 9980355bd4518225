#include <algorithm>
#include <array>
#include <iterator>
#include <map>

#include "analysis/core/names.h"
#include "analysis/framework/framework_view.h"

namespace gpuperf::analysis::framework {
namespace {

enum Tier : std::uint8_t { kByOperator = 0, kByKernelName = 1, kByActivity = 2 };

}  // namespace

void Categorize(FrameworkInput& input) {
  const model::Trace& trace = input.trace;
  input.category.assign(trace.activities.size(), FrameworkCategory::kOther);
  input.tier.assign(trace.activities.size(), kByKernelName);
  // Names recur: decide each operator and kernel name once.
  std::vector<std::int16_t> op_memo(trace.strings.size(), -2);
  std::vector<std::int16_t> kernel_memo(trace.strings.size(), -1);
  auto of_operator = [&](model::NameId name) -> std::int16_t {
    if (op_memo[name] == -2) {
      auto c = CategoryOfOperator(trace.Name(name));
      op_memo[name] = c ? static_cast<std::int16_t>(*c) : -1;
    }
    return op_memo[name];
  };
  auto of_kernel = [&](model::NameId name) {
    if (kernel_memo[name] < 0)
      kernel_memo[name] = static_cast<std::int16_t>(CategoryOfKernel(trace.Name(name)));
    return static_cast<FrameworkCategory>(kernel_memo[name]);
  };
  for (std::size_t call = 0; call < trace.api_calls.size(); ++call) {
    std::int64_t launcher = input.tree.launcher[call];
    for (std::uint32_t i : input.calls.Of(call)) {
      const model::GpuActivity& a = trace.activities[i];
      if (a.kind != model::ActivityKind::kKernel)
        continue;
      FrameworkCategory by_name = of_kernel(a.name);
      std::int16_t by_op =
          launcher >= 0
              ? of_operator(input.tree.Name(input.tree.ops[static_cast<std::size_t>(launcher)]))
              : -1;
      // A collective kernel is communication whatever op launched it: the timeline says so too.
      if (by_op >= 0 && by_name != FrameworkCategory::kCommunication) {
        input.category[i] = static_cast<FrameworkCategory>(by_op);
        input.tier[i] = kByOperator;
      }
    }
  }
  std::vector<bool> launched(trace.activities.size(), false);
  for (std::size_t call = 0; call < trace.api_calls.size(); ++call) {
    for (std::uint32_t i : input.calls.Of(call))
      launched[i] = true;
  }
  for (std::size_t i = 0; i < trace.activities.size(); ++i) {
    const model::GpuActivity& a = trace.activities[i];
    input.total_gpu_ns += a.duration_ns();
    if (!launched[i])
      input.orphan_gpu_ns += a.duration_ns();
    if (a.kind == model::ActivityKind::kMemcpy) {
      input.category[i] = FrameworkCategory::kCopyLayout;
      input.tier[i] = kByActivity;
    } else if (a.kind == model::ActivityKind::kMemset) {
      input.category[i] = FrameworkCategory::kMemset;
      input.tier[i] = kByActivity;
    } else if (input.tier[i] != kByOperator) {
      input.category[i] = of_kernel(a.name);
    }
  }
}

void KernelCategories(const FrameworkInput& input, KernelFrameworkMap& kernels) {
  const model::Trace& trace = input.trace;
  std::map<model::NameId, std::array<std::int64_t, kFrameworkCategoryCount>> time;
  for (std::size_t i = 0; i < trace.activities.size(); ++i) {
    const model::GpuActivity& a = trace.activities[i];
    if (a.kind == model::ActivityKind::kKernel)
      time[a.name][static_cast<std::size_t>(input.category[i])] += a.duration_ns();
  }
  for (const auto& [name, by_category] : time) {
    auto best = std::max_element(by_category.begin(), by_category.end());
    kernels[std::string(trace.Name(name))].category =
        static_cast<FrameworkCategory>(std::distance(by_category.begin(), best));
  }
}

std::vector<report::CategoryRow> CategoryTable(const FrameworkInput& input) {
  const model::Trace& trace = input.trace;
  std::array<report::CategoryRow, kFrameworkCategoryCount> rows{};
  std::array<std::map<std::string, std::int64_t>, kFrameworkCategoryCount> by_op{};
  for (std::size_t c = 0; c < kFrameworkCategoryCount; ++c)
    rows[c].category = static_cast<FrameworkCategory>(c);
  for (std::size_t call = 0; call < trace.api_calls.size(); ++call) {
    std::int64_t launcher = input.tree.launcher[call];
    std::string_view op =
        launcher >= 0
            ? trace.Name(input.tree.Name(input.tree.ops[static_cast<std::size_t>(launcher)]))
            : StripVersionSuffix(trace.Name(trace.api_calls[call].name));
    for (std::uint32_t i : input.calls.Of(call)) {
      by_op[static_cast<std::size_t>(input.category[i])][std::string(op)] +=
          trace.activities[i].duration_ns();
    }
  }
  for (std::size_t i = 0; i < trace.activities.size(); ++i) {
    report::CategoryRow& row = rows[static_cast<std::size_t>(input.category[i])];
    std::int64_t ns = trace.activities[i].duration_ns();
    row.kernel_ns += ns;
    row.launches += 1;
    (input.tier[i] == kByOperator     ? row.by_operator_ns
     : input.tier[i] == kByKernelName ? row.by_kernel_name_ns
                                      : row.by_activity_ns) += ns;
  }
  std::vector<report::CategoryRow> out;
  for (std::size_t c = 0; c < kFrameworkCategoryCount; ++c) {
    report::CategoryRow& row = rows[c];
    if (row.launches == 0)
      continue;
    row.fraction = input.total_gpu_ns > 0 ? static_cast<double>(row.kernel_ns) /
                                                static_cast<double>(input.total_gpu_ns)
                                          : 0;
    std::vector<std::pair<std::int64_t, std::string>> ops;
    for (const auto& [name, ns] : by_op[c])
      ops.emplace_back(-ns, name);
    std::sort(ops.begin(), ops.end());
    for (std::size_t k = 0; k < ops.size() && k < 3; ++k)
      row.top_operators.push_back(ops[k].second);
    out.push_back(std::move(row));
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.kernel_ns > b.kernel_ns;
  });
  return out;
}

}  // namespace gpuperf::analysis::framework
