#include <algorithm>
#include <span>

#include "analysis/core/names.h"
#include "analysis/core/statistics.h"
#include "analysis/framework/framework_view.h"
#include "analysis/kernel/readable_name.h"
#include "analysis/kernel/shape_model.h"
#include "util/intervals.h"

namespace gpuperf::analysis::framework {
namespace {

constexpr std::size_t kShapesKept = 5;

struct ShapeAccumulator {
  report::OperatorShape shape;
  std::int64_t modeled_calls = 0;
  std::int64_t modeled_ns = 0;  // kernel_ns of the calls with a model
};

struct RowAccumulator {
  report::OperatorRow row;
  std::map<model::NameId, std::int64_t> kernel_time;  // direct time per kernel name
  std::map<std::pair<model::NameId, model::NameId>, ShapeAccumulator> shapes;
  std::map<FrameworkCategory, std::int64_t> category_time;  // direct, by activity category
  std::vector<std::int64_t> call_ns;                        // direct time per launcher instance
  std::map<std::string_view, std::int64_t> module_time;     // direct, by innermost module class
};

class OperatorBuilder {
 public:
  explicit OperatorBuilder(const FrameworkInput& input)
      : in_(input),
        trace_(input.trace),
        tree_(input.tree),
        is_graph_launch_(input.trace, IsGraphLaunchApi) {}

  std::vector<report::OperatorRow> Build(KernelFrameworkMap& kernels) {
    GroupDirectCalls();
    child_time_.assign(tree_.ops.size(), 0);
    for (std::size_t op = 0; op < tree_.ops.size(); ++op)
      AddOperator(op);
    for (std::uint32_t call : bare_calls_)
      AddBareCall(call);
    return Finish(kernels);
  }

 private:
  // DirectCalls(op): the calls whose launcher is operator instance op, in call order. One array
  // with offsets, not a vector per instance: a trace holds hundreds of thousands of instances.
  void GroupDirectCalls() {
    direct_offsets_.assign(tree_.ops.size() + 1, 0);
    auto launcher_of = [&](std::uint32_t call) -> std::int64_t {
      return in_.calls.Of(call).empty() ? kNone : tree_.launcher[call];
    };
    for (std::uint32_t call : tree_.call_order) {
      if (std::int64_t launcher = launcher_of(call); launcher >= 0)
        ++direct_offsets_[static_cast<std::size_t>(launcher) + 1];
      else if (!in_.calls.Of(call).empty())
        bare_calls_.push_back(call);
    }
    for (std::size_t op = 0; op < tree_.ops.size(); ++op)
      direct_offsets_[op + 1] += direct_offsets_[op];
    direct_list_.resize(direct_offsets_.back());
    std::vector<std::uint32_t> fill(direct_offsets_.begin(), direct_offsets_.end() - 1);
    for (std::uint32_t call : tree_.call_order) {
      if (std::int64_t launcher = launcher_of(call); launcher >= 0)
        direct_list_[fill[static_cast<std::size_t>(launcher)]++] = call;
    }
    // Ascending and unique: rows come out the same every run.
    std::sort(bare_calls_.begin(), bare_calls_.end());
    bare_calls_.erase(std::unique(bare_calls_.begin(), bare_calls_.end()), bare_calls_.end());
  }

  // Union length of the activities of `calls`.
  std::int64_t BusyOf(std::span<const std::uint32_t> calls) {
    scratch_.clear();
    for (std::uint32_t call : calls) {
      for (std::uint32_t i : in_.calls.Of(call))
        scratch_.push_back({trace_.activities[i].start_ns, trace_.activities[i].end_ns});
    }
    return util::UnionLength(scratch_);
  }

  std::int64_t SubtreeBusy(const OpInstance& op) {
    subtree_calls_.assign(tree_.call_order.begin() + op.first_call,
                          tree_.call_order.begin() + op.last_call);
    return BusyOf(subtree_calls_);
  }

  // The class of the innermost nn.Module frame around the call; "" outside any module.
  std::string_view InnermostModule(std::uint32_t call) const {
    std::int64_t node = tree_.module[call];
    if (node < 0)
      return {};
    std::uint32_t frame = tree_.modules[static_cast<std::size_t>(node)].frame;
    return ModuleClassName(ModuleInstanceName(trace_.Name(trace_.python_frames[frame].name)));
  }

  bool NestedInSameName(const OpInstance& op) const {
    for (std::int64_t p = op.parent; p >= 0; p = tree_.ops[static_cast<std::size_t>(p)].parent) {
      if (tree_.Name(tree_.ops[static_cast<std::size_t>(p)]) == tree_.Name(op))
        return true;
    }
    return false;
  }

  RowAccumulator& RowFor(model::NameId name, report::OperatorSource source) {
    auto [it, inserted] = rows_.try_emplace(name);
    if (inserted) {
      it->second.row.name = std::string(trace_.Name(name));
      it->second.row.source = source;
    }
    return it->second;
  }

  void AddDirect(RowAccumulator& acc, std::span<const std::uint32_t> calls) {
    for (std::uint32_t call : calls) {
      if (is_graph_launch_(trace_.api_calls[call].name))
        ++acc.row.graph_launches;
      std::string_view module = InnermostModule(call);
      for (std::uint32_t i : in_.calls.Of(call)) {
        const model::GpuActivity& a = trace_.activities[i];
        if (!module.empty())
          acc.module_time[module] += a.duration_ns();
        ++acc.row.launches;
        acc.kernel_time[a.name] += a.duration_ns();
        acc.category_time[in_.category[i]] += a.duration_ns();
      }
    }
  }

  void AddOperator(std::size_t index) {
    const OpInstance& op = tree_.ops[index];
    RowAccumulator& acc = RowFor(tree_.Name(op), tree_.op_source);
    acc.row.instances += 1;
    std::int64_t duration = tree_.EndNs(op) - tree_.StartNs(op);
    acc.row.host_total_ns += duration;
    acc.row.host_self_ns += duration;
    if (op.parent >= 0)
      child_time_[static_cast<std::size_t>(op.parent)] += duration;
    if (op.first_call == op.last_call)
      return;
    std::span<const std::uint32_t> direct(direct_list_.data() + direct_offsets_[index],
                                          direct_list_.data() + direct_offsets_[index + 1]);
    std::int64_t direct_ns = direct.empty() ? 0 : BusyOf(direct);
    if (!NestedInSameName(op))  // an aten::arange inside an aten::arange: its work counts once
      acc.row.subtree_kernel_ns += SubtreeBusy(op);
    if (direct.empty())
      return;
    acc.row.calls += 1;
    acc.row.kernel_ns += direct_ns;
    acc.call_ns.push_back(direct_ns);
    AddDirect(acc, direct);
    if (tree_.op_source == report::OperatorSource::kCpuOp)
      AddShape(acc, trace_.host_ops[op.source], direct_ns);
  }

  void AddShape(RowAccumulator& acc, const model::HostOp& op, std::int64_t direct_ns) {
    ShapeAccumulator& shape = acc.shapes[{op.input_dims, op.input_types}];
    if (shape.shape.calls == 0) {
      shape.shape.input_dims = std::string(trace_.Name(op.input_dims));
      shape.shape.input_types = std::string(trace_.Name(op.input_types));
    }
    shape.shape.calls += 1;
    shape.shape.kernel_ns += direct_ns;
    if (op.input_dims == 0)
      return;
    const std::optional<OpWork>& work = in_.work->Of(op);
    if (!work)
      return;
    shape.modeled_calls += 1;
    shape.modeled_ns += direct_ns;
    shape.shape.flops = shape.shape.flops.value_or(0) + work->flops;
    shape.shape.bytes = shape.shape.bytes.value_or(0) + work->bytes;
    shape.shape.precision = std::string(model::ToString(work->precision));
    shape.shape.evidence = report::EvidenceTier::kModeled;  // the shape models' FLOPs
  }

  // A bare call's row is named like nsys prints the API ("cudaLaunchKernel_v7000" ->
  // "cudaLaunchKernel"); spellings that differ only by that suffix share one row.
  void AddBareCall(std::uint32_t call) {
    model::NameId name = trace_.api_calls[call].name;
    std::string_view stripped = StripVersionSuffix(trace_.Name(name));
    RowAccumulator& acc = RowFor(bare_keys_.try_emplace(stripped, name).first->second,
                                 report::OperatorSource::kLaunchCall);
    acc.row.name = std::string(stripped);
    std::vector<std::uint32_t> one{call};
    std::int64_t ns = BusyOf(one);
    acc.row.instances += 1;
    acc.row.calls += 1;
    acc.row.kernel_ns += ns;
    acc.call_ns.push_back(ns);
    acc.row.subtree_kernel_ns += ns;
    acc.row.host_total_ns += trace_.api_calls[call].duration_ns();
    acc.row.host_self_ns += trace_.api_calls[call].duration_ns();
    AddDirect(acc, one);
  }

  void FinishShapes(RowAccumulator& acc) {
    std::vector<ShapeAccumulator*> shapes;
    for (auto& [key, shape] : acc.shapes)
      shapes.push_back(&shape);
    std::stable_sort(shapes.begin(), shapes.end(), [](const auto* a, const auto* b) {
      return a->shape.kernel_ns > b->shape.kernel_ns;
    });
    for (ShapeAccumulator* s : shapes) {
      if (acc.row.shapes.size() == kShapesKept) {
        ++acc.row.shapes_omitted;
        continue;
      }
      // Rates only when every call of the group is modelled: a partial sum over the whole
      // group's time would understate them.
      if (s->shape.flops && s->modeled_calls == s->shape.calls && s->shape.kernel_ns > 0) {
        double seconds = static_cast<double>(s->shape.kernel_ns) * 1e-9;
        s->shape.achieved_flops_per_s = static_cast<double>(*s->shape.flops) / seconds;
        s->shape.achieved_bytes_per_s = static_cast<double>(*s->shape.bytes) / seconds;
      }
      acc.row.shapes.push_back(std::move(s->shape));
    }
  }

  void FinishCategory(RowAccumulator& acc) {
    if (auto c = CategoryOfOperator(acc.row.name);
        c && acc.row.source != report::OperatorSource::kLaunchCall) {
      acc.row.category = *c;
      acc.row.category_tier = report::CategoryTier::kOperator;
      return;
    }
    // The most time; a tie goes to the name first in the alphabet (ToString).
    std::optional<FrameworkCategory> best;
    std::int64_t best_ns = -1;
    for (const auto& [category, ns] : acc.category_time) {
      if (ns > best_ns || (ns == best_ns && best && ToString(category) < ToString(*best)))
        best = category, best_ns = ns;
    }
    acc.row.category = best.value_or(FrameworkCategory::kOther);
    acc.row.category_tier =
        best == FrameworkCategory::kCopyLayout || best == FrameworkCategory::kMemset
            ? report::CategoryTier::kActivity
            : report::CategoryTier::kKernelName;
  }
  std::vector<report::OperatorRow> Finish(KernelFrameworkMap& kernels) {
    for (std::size_t op = 0; op < tree_.ops.size(); ++op) {
      if (child_time_[op] != 0)
        rows_[tree_.Name(tree_.ops[op])].row.host_self_ns -= child_time_[op];
    }
    std::map<model::NameId, std::pair<std::int64_t, std::string>> best_op;  // per kernel name
    std::vector<report::OperatorRow> out;
    for (auto& [name, acc] : rows_) {
      if (acc.row.subtree_kernel_ns == 0 && acc.row.kernel_ns == 0)
        continue;
      std::int64_t top_ns = -1;
      for (const auto& [kernel, ns] : acc.kernel_time) {
        if (ns > top_ns)
          acc.row.top_kernel = std::string(trace_.Name(kernel)), top_ns = ns;
        if (acc.row.source == report::OperatorSource::kLaunchCall)
          continue;  // a bare launch call is no operator: the kernel keeps an empty top_operator
        auto& best = best_op[kernel];
        if (ns > best.first)
          best = {ns, acc.row.name};
      }
      acc.row.display_name = OperatorDisplayName(acc.row.name, acc.row.source);
      acc.row.top_kernel_readable = ReadableKernelName(acc.row.top_kernel);
      acc.row.fraction = in_.total_gpu_ns > 0 ? static_cast<double>(acc.row.kernel_ns) /
                                                    static_cast<double>(in_.total_gpu_ns)
                                              : 0;
      std::int64_t module_ns = 0;
      for (const auto& [module, ns] : acc.module_time) {
        if (ns > module_ns)
          acc.row.top_module = std::string(module), module_ns = ns;
      }
      report::Distribution per_call = Summarize(acc.call_ns);
      acc.row.call_avg_ns = per_call.avg;
      acc.row.call_med_ns = per_call.med;
      acc.row.call_stddev_ns = per_call.stddev;
      FinishCategory(acc);
      FinishShapes(acc);
      out.push_back(std::move(acc.row));
    }
    for (const auto& [kernel, best] : best_op)
      kernels[std::string(trace_.Name(kernel))].top_operator = best.second;
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
      return std::tie(b.kernel_ns, b.subtree_kernel_ns, a.name) <
             std::tie(a.kernel_ns, a.subtree_kernel_ns, b.name);
    });
    return out;
  }

  const FrameworkInput& in_;
  const model::Trace& trace_;
  const LaunchTree& tree_;
  CachedNamePredicate is_graph_launch_;
  std::vector<std::uint32_t> direct_offsets_;  // tree_.ops.size() + 1
  std::vector<std::uint32_t> direct_list_;
  std::vector<std::uint32_t> bare_calls_;
  std::map<std::string_view, model::NameId> bare_keys_;  // stripped API name -> its row's key
  // Per operator instance, the host time of its children: an array, not a hash map (8 bytes per
  // instance against about 40 per parent).
  std::vector<std::int64_t> child_time_;
  std::map<model::NameId, RowAccumulator> rows_;
  std::vector<util::Interval> scratch_;
  std::vector<std::uint32_t> subtree_calls_;
};

}  // namespace

std::vector<report::OperatorRow> OperatorTable(const FrameworkInput& input,
                                               KernelFrameworkMap& kernels) {
  return OperatorBuilder(input).Build(kernels);
}

}  // namespace gpuperf::analysis::framework
