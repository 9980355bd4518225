// The memory-bound levers: an elementwise chain to fuse (and its part on PyTorch's strided path),
// and NCHW <-> NHWC layout kernels around convolutions. Part of LeverFinder (lever_finder.h).
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

void LeverFinder::ElementwiseChain() {
  using C = FrameworkCategory;
  std::int64_t elementwise = CategoryNs(C::kElementwise) - PreRollNs(C::kElementwise);
  std::int64_t copies = 0;
  for (const report::CategoryRow& c : view_.categories) {
    if (c.category == C::kCopyLayout)
      copies = c.kernel_ns - c.by_activity_ns - PreRollNs(C::kCopyLayout);
  }
  std::int64_t total = elementwise + copies;
  if (Share(total) < 0.25 || total < CategoryNs(C::kGemm) - PreRollNs(C::kGemm))
    return;
  std::vector<std::string> top;
  std::vector<std::string> top_timed;
  std::int64_t launches = 0;
  std::int64_t ops_ns = 0;  // of `total`, launched directly by elementwise and copy operators
  std::vector<const report::OperatorRow*> chain_ops;
  for (const report::OperatorRow& op : view_.operators) {
    if (op.category != C::kElementwise && op.category != C::kCopyLayout)
      continue;
    chain_ops.push_back(&op);
    launches += op.launches;
    ops_ns += op.kernel_ns;
    if (top.size() < 4 && op.kernel_ns > 0) {
      top.push_back(OperatorDisplayName(op.name, op.source));
      top_timed.push_back(fmt::format("{} {}", top.back(), Ms(op.kernel_ns)));
    }
  }
  ops_ns = std::min(ops_ns, total);
  Lever lever;
  lever.kind = report::LeverKind::kFuseElementwise;
  lever.bottleneck = report::Bottleneck::kMemoryBound;
  lever.missing_evidence =
      "Counters on the elementwise kernels (Nsight Compute memory throughput near the DRAM "
      "roof, low sm__throughput) would confirm that they are memory-bound";
  lever.subject = fmt::format("{}", fmt::join(top, ", "));
  lever.time_ns = total;
  // A fused chain is not free: it still reads its largest tensor and writes a result of that
  // size once (report::ElementwiseChains, a lower bound on its traffic). Chains without a
  // recorded shape, and kernels outside the chains (other operators, no launch call), are
  // counted as free, so the bound stays an upper bound.
  const report::ElementwiseChains& chains = view_.elementwise_chains;
  std::int64_t bounded_ns = std::min(chains.bounded_kernel_ns, total);
  std::int64_t floor_ns = std::min(chains.floor_ns, bounded_ns);
  lever.saved_ns = total - floor_ns;
  lever.assumed_ns = std::min(lever.saved_ns, total - bounded_ns);
  std::string floor_text =
      floor_ns > 0
          ? fmt::format(
                "fused, each of the {} run{} of consecutive elementwise and copy kernels "
                "({} calls in the longest) still reads its largest tensor and writes one of "
                "that size once, in the narrowest type it holds: for the {} with recorded "
                "shapes {:.3g} GB, {} at the DRAM bandwidth against the {} their "
                "kernels take now (modeled: recorded shapes and the datasheet bandwidth, a "
                "lower bound on the fused traffic); the other {} is counted as free (assumed), "
                "so at most {} comes back, an upper bound",
                chains.chains,
                chains.chains == 1 ? "" : "s",
                chains.longest_ops,
                chains.bounded_chains,
                static_cast<double>(chains.floor_bytes) / 1e9,
                Ms(floor_ns),
                Ms(bounded_ns),
                Ms(total - bounded_ns),
                Ms(lever.saved_ns))
          : "no recorded shape bounds their fused traffic, so they are counted as free "
            "(assumed; an upper bound: a fused kernel still reads its inputs and writes its "
            "outputs once)";
  if (floor_ns == 0)
    lever.assumed_ns = lever.saved_ns;
  // The time, the names and the launch count say which set each comes from: the category holds
  // kernels launched by other operators or with no launch call in the trace (orphans) too.
  lever.basis = fmt::format(
      "{} of elementwise and layout-copy kernels ({} of GPU time) would fall if fused "
      "into the neighbouring kernels; {} of it launched by elementwise and copy operators "
      "(the first by time: {}), {} by other operators or with no launch call in the trace "
      "(trace); {}",
      Ms(total),
      fmt::format("{:.1f}%", 100 * Share(total)),
      Ms(ops_ns),
      fmt::format("{}", fmt::join(top_timed, ", ")),
      Ms(total - ops_ns),
      floor_text);
  lever.experiment = fmt::format(
      "Fuse the elementwise chain ({}; {} launches by elementwise and copy operators): "
      "torch.compile the model, or fold the ops into the producing GEMM's epilogue",
      lever.subject,
      launches);
  AddStridedPath(lever);
  lever.falsified_by =
      "A profile after the change: if the elementwise kernel count and their summed time do "
      "not fall, the fusion did not happen (check torch.compile's graph breaks)";
  ClassFromKernels(lever, chain_ops);
  Add(std::move(lever));
}

void LeverFinder::AddStridedPath(Lever& lever) const {
  StridedElementwise strided = StridedElementwiseOf(r_);
  if (strided.time_ns * 10 < lever.time_ns || strided.top_operators.empty())
    return;
  std::int64_t kernel_ns = 0;
  for (const report::KernelRow& k : r_.kernels)
    kernel_ns += k.duration_ns.total;
  std::vector<std::string> names;
  for (const std::string& op : strided.top_operators)
    names.push_back(OperatorDisplayName(view_, op));
  lever.basis += fmt::format(
      "; {} in {} instances ({:.1f}% of kernel time, the whole trace's kernel table) run "
      "PyTorch's strided elementwise path (at::native::elementwise_kernel: operands that are "
      "not contiguous, such as a transposed, sliced or broadcast view, computed element by "
      "element without vector loads), most launched by {}",
      Ms(strided.time_ns),
      strided.kernels,
      kernel_ns > 0 ? 100.0 * static_cast<double>(strided.time_ns) / static_cast<double>(kernel_ns)
                    : 0.0,
      fmt::join(names, ", "));
  lever.experiment += fmt::format(
      "; at the least, give {} contiguous operands or a fused kernel (a fused rotary "
      "embedding for q/k after a transpose, a fused RMSNorm), which recovers the strided "
      "path's bandwidth",
      fmt::join(names, ", "));
}

void LeverFinder::LayoutKernels() {
  std::int64_t layout = 0;
  for (const report::KernelRow& k : r_.kernels) {
    if (ContainsNoCase(k.name, "nchwtonhwc") || ContainsNoCase(k.name, "nhwctonchw"))
      layout += k.duration_ns.total;
  }
  if (Share(layout) < kMinShare)
    return;
  Lever lever;
  lever.kind = report::LeverKind::kChannelsLast;
  lever.bottleneck = report::Bottleneck::kMemoryBound;
  lever.subject = "NCHW/NHWC conversion kernels";
  lever.time_ns = layout;
  lever.saved_ns = layout;
  lever.basis = fmt::format("the {} of layout conversions would vanish (trace)", Ms(layout));
  lever.experiment =
      "Keep activations and weights in channels_last (model.to(memory_format="
      "torch.channels_last)) so cuDNN stops converting layouts around each convolution";
  lever.falsified_by =
      "A profile after the change: nchwToNhwc/nhwcToNchw kernels still present means a layer "
      "breaks the layout";
  Add(std::move(lever));
}

}  // namespace gpuperf::analysis::framework
