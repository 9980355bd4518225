// The fusion lever's units: maximal runs of consecutive kernels launched by elementwise and
// layout-copy operators on one thread, and the least DRAM traffic each could move fused.
#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

#include "analysis/framework/framework_view.h"
#include "analysis/kernel/shape_model_ops.h"

namespace gpuperf::analysis::framework {
namespace {

bool ChainCategory(FrameworkCategory category) {
  return category == FrameworkCategory::kElementwise || category == FrameworkCategory::kCopyLayout;
}

// The largest float tensor argument of an operator call (elements) and the narrowest float type
// among its tensor arguments (bytes per element); zeros when the call records no float tensor.
struct TensorExtent {
  std::int64_t max_elements = 0;
  std::int64_t min_element_bytes = 0;

  void Add(std::int64_t elements, std::int64_t element_bytes) {
    max_elements = std::max(max_elements, elements);
    min_element_bytes =
        min_element_bytes == 0 ? element_bytes : std::min(min_element_bytes, element_bytes);
  }
};

TensorExtent ExtentOf(std::string_view dims_json, std::string_view types_json) {
  TensorExtent extent;
  std::optional<InputDims> dims = ParseInputDims(dims_json);
  std::optional<std::vector<std::string>> types = ParseInputTypes(types_json);
  if (!dims || !types)
    return extent;
  for (std::size_t i = 0; i < dims->size() && i < types->size(); ++i) {
    const shape::FloatType* type = shape::FindFloatType((*types)[i]);
    const std::optional<std::vector<std::int64_t>>& d = (*dims)[i];
    if (type == nullptr || !d || d->empty())
      continue;  // not a float tensor, a TensorList, or a 0-dim scalar
    std::optional<std::int64_t> elements = shape::Product(*d, 0, d->size());
    if (!elements || *elements <= 0)
      continue;
    extent.Add(*elements, type->bytes);
  }
  return extent;
}

class ChainBuilder {
 public:
  ChainBuilder(const FrameworkInput& in, const std::vector<report::OperatorRow>& operators)
      : in_(in), trace_(in.trace), tree_(in.tree), member_by_name_(in.trace.strings.size(), -1) {
    for (const report::OperatorRow& op : operators) {
      if (op.source != report::OperatorSource::kLaunchCall && ChainCategory(op.category))
        chain_ops_.insert(op.name);
    }
  }

  report::ElementwiseChains Build() {
    std::int64_t thread_pid = model::kNoId, thread_tid = model::kNoId;
    for (std::uint32_t call : tree_.call_order) {
      std::span<const std::uint32_t> activities = in_.calls.Of(call);
      if (activities.empty())
        continue;
      const model::ApiCall& api = trace_.api_calls[call];
      if (api.pid != thread_pid || api.tid != thread_tid) {
        Close();
        thread_pid = api.pid, thread_tid = api.tid;
      }
      bool any_kernel = false;
      for (std::uint32_t i : activities)
        any_kernel = any_kernel || trace_.activities[i].kind == model::ActivityKind::kKernel;
      if (!any_kernel)
        continue;  // a DMA copy or memset neither joins nor breaks a chain
      if (!Member(call)) {
        Close();
        continue;
      }
      std::int32_t launcher = tree_.launcher[call];
      if (launcher != last_launcher_ || launcher < 0) {
        ++open_.ops;
        AddExtent(launcher);
        last_launcher_ = launcher;
      }
      for (std::uint32_t i : activities) {
        const model::GpuActivity& a = trace_.activities[i];
        if (a.kind != model::ActivityKind::kKernel || !ChainCategory(in_.category[i]))
          continue;
        open_.kernel_ns += a.duration_ns();
        open_.device = a.device;
        open_.arithmetic = open_.arithmetic || in_.category[i] == FrameworkCategory::kElementwise;
      }
    }
    Close();
    return out_;
  }

 private:
  struct OpenChain {
    std::int64_t ops = 0;
    std::int64_t kernel_ns = 0;
    TensorExtent extent;
    std::int32_t device = 0;
    bool arithmetic = false;  // holds an elementwise kernel, not layout copies alone
  };

  // A call joins a chain when its operator is an elementwise or layout-copy one; a launch outside
  // any operator joins when every kernel it launched is of those categories.
  bool Member(std::uint32_t call) {
    std::int32_t launcher = tree_.launcher[call];
    if (launcher >= 0) {
      model::NameId name = tree_.Name(tree_.ops[static_cast<std::size_t>(launcher)]);
      if (name >= member_by_name_.size())
        return chain_ops_.contains(trace_.Name(name));
      std::int8_t& member = member_by_name_[name];
      if (member < 0)
        member = chain_ops_.contains(trace_.Name(name)) ? 1 : 0;
      return member == 1;
    }
    for (std::uint32_t i : in_.calls.Of(call)) {
      if (trace_.activities[i].kind == model::ActivityKind::kKernel &&
          !ChainCategory(in_.category[i]))
        return false;
    }
    return true;
  }

  void AddExtent(std::int32_t launcher) {
    if (launcher < 0 || tree_.nvtx_ops)
      return;
    const model::HostOp& op = trace_.host_ops[tree_.ops[static_cast<std::size_t>(launcher)].source];
    if (op.input_dims == 0)
      return;
    auto [it, inserted] = extents_.try_emplace({op.input_dims, op.input_types});
    if (inserted)
      it->second = ExtentOf(trace_.Name(op.input_dims), trace_.Name(op.input_types));
    const TensorExtent& e = it->second;
    if (e.max_elements == 0)
      return;
    open_.extent.Add(e.max_elements, e.min_element_bytes);
  }

  void Close() {
    last_launcher_ = kNone;
    OpenChain chain = open_;
    open_ = OpenChain{};
    if (chain.ops == 0 || chain.kernel_ns == 0)
      return;
    out_.chains += 1;
    out_.kernel_ns += chain.kernel_ns;
    out_.longest_ops = std::max(out_.longest_ops, chain.ops);
    // Layout copies alone can vanish into their consumer (a compiler folds a transpose or a
    // contiguous copy into the kernel that reads it): no floor, counted as free.
    if (chain.extent.max_elements == 0 || !chain.arithmetic)
      return;
    const model::DeviceCeilings* entry =
        in_.roofs ? in_.roofs->Of(chain.device).match.entry : nullptr;
    if (entry == nullptr || entry->dram_bytes_per_s.value_or(0) <= 0)
      return;
    // Read the largest tensor once and write a result of its size once (elementwise results are
    // as large as their largest operand), in the narrowest type the chain holds: less than any
    // fused kernel moves, so the bound stays an upper bound.
    double bytes = 2.0 * static_cast<double>(chain.extent.max_elements) *
                   static_cast<double>(chain.extent.min_element_bytes);
    std::int64_t floor_ns = std::llround(bytes / *entry->dram_bytes_per_s * 1e9);
    out_.bounded_chains += 1;
    out_.bounded_kernel_ns += chain.kernel_ns;
    out_.floor_bytes += std::llround(bytes);
    out_.floor_ns += std::min(chain.kernel_ns, floor_ns);
  }

  struct PairHash {
    std::size_t operator()(const std::pair<model::NameId, model::NameId>& p) const {
      return std::hash<std::uint64_t>()((static_cast<std::uint64_t>(p.first) << 32) ^ p.second);
    }
  };

  const FrameworkInput& in_;
  const model::Trace& trace_;
  const LaunchTree& tree_;
  std::unordered_set<std::string_view> chain_ops_;
  std::vector<std::int8_t> member_by_name_;  // per name id: -1 unknown, 0 no, 1 a chain op
  std::unordered_map<std::pair<model::NameId, model::NameId>, TensorExtent, PairHash> extents_;
  OpenChain open_;
  std::int32_t last_launcher_ = kNone;
  report::ElementwiseChains out_;
};

}  // namespace

report::ElementwiseChains ElementwiseChainTable(const FrameworkInput& input,
                                                const std::vector<report::OperatorRow>& operators) {
  return ChainBuilder(input, operators).Build();
}

}  // namespace gpuperf::analysis::framework
