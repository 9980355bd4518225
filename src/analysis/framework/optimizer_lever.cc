#include "analysis/framework/optimizer_lever.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/core/names.h"
#include "analysis/findings/findings.h"

namespace gpuperf::analysis::framework {
namespace {

constexpr std::string_view kStepPrefix = "Optimizer.step#";

// "Optimizer.step#AdamW.step" -> "AdamW".
std::string_view OptimizerClass(std::string_view op) {
  op.remove_prefix(kStepPrefix.size());
  return op.substr(0, op.find('.'));
}

// A PyTorch foreach kernel that updates an optimizer's lists by its name: not a fused optimizer's,
// not a norm (clip_grad_norm_) or AMP's unscale, which a fused step does not replace.
bool ForeachUpdateKernel(std::string_view name) {
  if (name.find("multi_tensor_apply_kernel") == std::string_view::npos)
    return false;
  constexpr std::array<std::string_view, 4> kNotUpdates = {"Fused", "LpNorm", "non_finite", "amp_"};
  return std::none_of(kNotUpdates.begin(), kNotUpdates.end(), [&](std::string_view n) {
    return name.find(n) != std::string_view::npos;
  });
}

bool IsOptimizerStep(std::string_view op) {
  return op.starts_with(kStepPrefix);
}

// A fused optimizer's foreach kernel (torch.optim's fused=True: FusedAdamMathFunctor ...).
bool FusedForeachKernel(std::string_view name) {
  return name.find("multi_tensor_apply_kernel") != std::string_view::npos &&
         name.find("Fused") != std::string_view::npos;
}

// The optimizers that take fused=True in torch.optim (2.x).
bool TakesFusedFlag(std::string_view optimizer) {
  constexpr std::array<std::string_view, 4> kFusable = {"Adam", "AdamW", "SGD", "Adagrad"};
  return std::find(kFusable.begin(), kFusable.end(), optimizer) != kFusable.end();
}

bool InWindow(std::int64_t start_ns, util::Interval window) {
  return window.end <= window.start || (start_ns >= window.start && start_ns < window.end);
}

}  // namespace

std::optional<Lever> UnfusedOptimizerLever(const model::Trace& trace,
                                           util::Interval window,
                                           std::int64_t min_time_ns) {
  // The optimizer's class, from its steps on the host (an operator, or as most profilers record
  // it a user annotation): it names the change, and a fused class needs none.
  std::set<std::string> classes;
  CachedNamePredicate is_step(trace, IsOptimizerStep);
  for (const model::HostOp& op : trace.host_ops) {
    if (is_step(op.name))
      classes.insert(std::string(OptimizerClass(trace.Name(op.name))));
  }
  for (const model::Range& r : trace.ranges) {
    if (r.kind == model::RangeKind::kUserAnnotation && is_step(r.name))
      classes.insert(std::string(OptimizerClass(trace.Name(r.name))));
  }
  for (const std::string& c : classes) {
    if (ContainsNoCase(c, "fused"))
      return std::nullopt;  // apex's FusedAdam, a class named so: what the lever would propose
  }
  // The update's kernels by name: attributing launches to the step's time span costs a pass over
  // every API call, and what the lever counts (the foreach passes) the names already say.
  std::int64_t time = 0, kernels = 0;
  std::set<model::NameId> passes;  // distinct foreach kernels: one per arithmetic operation
  bool fused_kernels = false;
  CachedNamePredicate is_update(trace, ForeachUpdateKernel);
  CachedNamePredicate is_fused(trace, FusedForeachKernel);
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind != model::ActivityKind::kKernel || !InWindow(a.start_ns, window))
      continue;
    if (is_fused(a.name))
      fused_kernels = true;  // torch.optim's fused=True runs here already
    if (!is_update(a.name))
      continue;
    time += a.duration_ns();
    ++kernels;
    passes.insert(a.name);
  }
  if (fused_kernels || time < std::max<std::int64_t>(1, min_time_ns))
    return std::nullopt;
  std::string optimizer = classes.size() == 1 ? *classes.begin() : std::string();
  Lever lever;
  lever.kind = report::LeverKind::kFusedOptimizer;
  lever.bottleneck = report::Bottleneck::kMemoryBound;
  lever.subject = optimizer.empty() ? "the optimizer step" : "the " + optimizer + " step";
  lever.missing_evidence =
      "Nsight Compute on the optimizer's kernels (DRAM throughput near the roof, low "
      "sm__throughput) would confirm that each pass is memory-bound";
  lever.time_ns = time;
  lever.saved_ns = static_cast<std::int64_t>(static_cast<double>(time) *
                                             (1.0 - 1.0 / kFusedOptimizerAssumedSpeedup));
  lever.assumed_ns = lever.saved_ns;
  lever.assumed_local_speedup = kFusedOptimizerAssumedSpeedup;
  std::string found = optimizer.empty()
                          ? std::string(
                                "PyTorch foreach (multi_tensor_apply) kernels by their names, an "
                                "optimizer's foreach step in most programs (trace)")
                          : fmt::format(
                                "PyTorch foreach (multi_tensor_apply) kernels by their names, the "
                                "{} step's (its Optimizer.step#{}.step ranges, trace)",
                                optimizer,
                                optimizer);
  lever.basis = fmt::format(
      "{} kernels, {} in the window, {}{}; a fused step reads and writes each parameter, "
      "gradient and state once where the foreach step makes one pass per operation, so the "
      "bound assumes it {:.0f}x faster (an assumption, below the traffic ratio: AdamW's fused "
      "update moves 28 bytes a parameter against about 80 over its foreach passes)",
      kernels,
      Ms(time),
      found,
      passes.empty()
          ? std::string()
          : fmt::format(", {} distinct foreach kernels (one per operation)", passes.size()),
      kFusedOptimizerAssumedSpeedup);
  lever.experiment =
      TakesFusedFlag(optimizer)
          ? fmt::format(
                "Fuse the optimizer step: construct it with fused=True "
                "(torch.optim.{}(params, ..., fused=True)), one kernel pass over the "
                "parameters, gradients and states instead of one per operation",
                optimizer)
          : fmt::format(
                "Fuse {}: fused=True where torch.optim offers it (Adam, AdamW, SGD, Adagrad), "
                "else torch.compile the step function, so that the parameters, gradients and "
                "states are read and written once instead of once per operation",
                lever.subject);
  lever.falsified_by = fmt::format(
      "A profile after the change: if {}'s kernels do not fall to a few launches and their {} "
      "by at least half, the step was not bound by its passes over memory",
      lever.subject,
      Ms(time));
  return lever;
}

}  // namespace gpuperf::analysis::framework
