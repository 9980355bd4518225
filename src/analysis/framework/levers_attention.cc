// The eager-attention lever: attention written as bmm + softmax + elementwise ops, where SDPA or
// flash attention would run one kernel. Part of LeverFinder (lever_finder.h).
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

namespace {

// "aten::_softmax" -> "_softmax".
std::string_view BaseName(std::string_view op) {
  auto scope = op.rfind("::");
  return scope == std::string_view::npos ? op : op.substr(scope + 2);
}

}  // namespace

std::string LeverFinder::ScoreMatrices(const std::vector<const report::OperatorRow*>& ops) {
  const report::OperatorShape* top = nullptr;
  for (const report::OperatorRow* op : ops) {
    if (!ContainsNoCase(BaseName(op->name), "softmax"))
      continue;
    for (const report::OperatorShape& shape : op->shapes) {
      if (!top || shape.kernel_ns > top->kernel_ns)
        top = &shape;
    }
  }
  if (!top)
    return "";
  std::optional<InputDims> dims = ParseInputDims(top->input_dims);
  if (!dims || dims->empty() || !dims->front() || dims->front()->size() < 2)
    return "";
  const std::vector<std::int64_t>& scores = *dims->front();
  return fmt::format(" over {} x {} score matrices (softmax input [{}], trace: operator shapes)",
                     scores[scores.size() - 2],
                     scores.back(),
                     fmt::join(scores, ", "));
}

void LeverFinder::EagerAttention() {
  std::map<std::string, std::int64_t> softmax_by_module;
  for (const report::OperatorRow& op : view_.operators) {
    if (op.top_module.empty() || op.kernel_ns == 0)
      continue;
    if (ContainsNoCase(BaseName(op.name), "softmax"))
      softmax_by_module[op.top_module] += op.kernel_ns;
  }
  for (const auto& [module, softmax_ns] : softmax_by_module) {
    std::int64_t gemm_ns = 0, other_ns = 0, attention_ns = 0;
    TensorFloor floor;  // the GEMMs' modelled FLOPs at the tensor roof
    std::set<std::string> names;
    std::vector<const report::OperatorRow*> module_ops;
    for (const report::OperatorRow& op : view_.operators) {
      if (op.top_module != module || op.kernel_ns == 0)
        continue;
      if (op.category == FrameworkCategory::kAttention) {
        attention_ns += op.kernel_ns;
      } else if (op.category == FrameworkCategory::kGemm) {
        gemm_ns += op.kernel_ns;
        AddTensorFloor(op, floor);
      } else if (op.category == FrameworkCategory::kElementwise ||
                 op.category == FrameworkCategory::kReductionNormalization) {
        other_ns += op.kernel_ns;
      } else {
        continue;
      }
      names.insert(op.name);
      module_ops.push_back(&op);
    }
    std::int64_t total = gemm_ns + other_ns;
    if (gemm_ns == 0 || attention_ns > softmax_ns || Share(total) < kMinShare)
      continue;
    Lever lever;
    lever.kind = report::LeverKind::kUseSdpa;
    lever.bottleneck = report::Bottleneck::kMemoryBound;
    lever.missing_evidence =
        "DRAM bytes of the softmax and elementwise kernels (Nsight Compute "
        "dram__bytes_read.sum / dram__bytes_write.sum) near the size of the score matrix "
        "would confirm it";
    lever.subject = module;
    lever.time_ns = total;
    // A fused attention kernel does the GEMMs' FLOPs without writing the score matrix. With
    // their FLOPs modelled, it cannot take less than them at the tensor roof: an upper bound on
    // what comes back. Without, the assumption is that it costs what the GEMMs cost now.
    std::int64_t fused_ns = gemm_ns;
    if (floor.known && floor.seconds > 0)
      fused_ns = std::min(gemm_ns, static_cast<std::int64_t>(floor.seconds * 1e9));
    lever.saved_ns = total - fused_ns;
    lever.basis = floor.known && floor.seconds > 0
                      ? fmt::format(
                            "{} of batched GEMMs, softmax and elementwise ops in {} would fall to "
                            "the GEMMs' modelled FLOPs at the tensor roof, {} (modeled: shape "
                            "models and datasheet ceilings; an upper bound: the fused kernel "
                            "also reads Q, K and V and writes the output)",
                            Ms(total),
                            module,
                            Ms(fused_ns))
                      : fmt::format(
                            "{} of softmax and elementwise ops in {} would vanish if a fused "
                            "attention kernel costs no more than its {} of batched GEMMs "
                            "(trace; assumed: the GEMMs' FLOPs are not modelled)",
                            Ms(other_ns),
                            module,
                            Ms(gemm_ns));
    lever.experiment = fmt::format(
        "Replace the eager attention in {} (batched GEMMs + softmax + elementwise ops{}, {} of "
        "GPU time) with torch.nn.functional.scaled_dot_product_attention (flash or "
        "memory-efficient kernel)",
        module,
        ScoreMatrices(module_ops),
        Ms(total));
    lever.falsified_by = fmt::format(
        "A profile after the change: if {}'s GPU time does not fall below {} (half way from "
        "its {} now to the {} the fused kernel would take), the fusion did not pay",
        module,
        Ms(fused_ns + (total - fused_ns) / 2),
        Ms(total),
        Ms(fused_ns));
    ClassFromKernels(lever, module_ops);
    Add(std::move(lever));
  }
}

}  // namespace gpuperf::analysis::framework
