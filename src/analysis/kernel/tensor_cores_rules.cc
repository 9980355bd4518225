// The counter tier and the name tier of tensor_cores.h.
#include <fmt/format.h>

#include <array>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "analysis/core/names.h"
#include "analysis/kernel/tensor_cores.h"

namespace gpuperf::analysis {
namespace {

enum class MetricKind { kOther, kMatrix, kAggregate, kFp16Vector, kFp64Vector };

bool Has(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// Nsight Compute's raw names, any rollup or suffix (".sum", ".avg.pct_of_peak_sustained_...").
MetricKind Classify(std::string_view name) {
  if (name.substr(0, 20) == "sm__ops_path_tensor_" || Has(name, "pipe_tensor_op_"))
    return MetricKind::kMatrix;  // per-op MMA counts: hmma, hgmma, imma, dmma, ...
  if (Has(name, "inst_executed_pipe_tensor") || Has(name, "pipe_tensor_cycles_active"))
    return MetricKind::kAggregate;
  if (Has(name, "_op_hadd") || Has(name, "_op_hmul") || Has(name, "_op_hfma") ||
      Has(name, "pipe_fp16"))
    return MetricKind::kFp16Vector;
  if (Has(name, "_op_dadd") || Has(name, "_op_dmul") || Has(name, "_op_dfma") ||
      Has(name, "pipe_fp64"))
    return MetricKind::kFp64Vector;
  return MetricKind::kOther;
}

// One kind of counter over a kernel's launches.
struct KindSummary {
  bool present = false;
  std::int64_t positive_launches = 0;  // launches where some counter of the kind is > 0
  double max = 0;
  std::string metric;  // the counter that reached `max` (the first one seen when all are 0)
};

std::array<KindSummary, 5> Summarize(
    const std::vector<const std::map<std::string, double>*>& launches) {
  std::array<KindSummary, 5> kinds;
  for (const auto* metrics : launches) {
    std::array<bool, 5> positive{};
    for (const auto& [name, value] : *metrics) {
      auto index = static_cast<std::size_t>(Classify(name));
      KindSummary& kind = kinds[index];
      if (!kind.present || value > kind.max) {
        kind.max = value;
        kind.metric = name;
      }
      kind.present = true;
      positive[index] = positive[index] || value > 0;
    }
    for (std::size_t i = 0; i < kinds.size(); ++i)
      kinds[i].positive_launches += positive[i] ? 1 : 0;
  }
  return kinds;
}

// smsp__ (else sm__) sass_thread_inst_executed_op_<op>_pred_on.sum: one rollup per op, so that
// the two spellings of one count are not added.
std::optional<double> ThreadOp(const std::map<std::string, double>& metrics, std::string_view op) {
  for (const char* unit : {"smsp__", "sm__"}) {
    auto it = metrics.find(fmt::format("{}sass_thread_inst_executed_op_{}_pred_on.sum", unit, op));
    if (it != metrics.end())
      return it->second;
  }
  return std::nullopt;
}

// The tensor pipe's warp instructions of one launch, when the aggregate is an instruction count.
std::optional<double> TensorPipeInstructions(const std::map<std::string, double>& metrics) {
  for (const char* name :
       {"smsp__inst_executed_pipe_tensor.sum", "sm__inst_executed_pipe_tensor.sum"}) {
    if (auto it = metrics.find(name); it != metrics.end())
      return it->second;
  }
  return std::nullopt;
}

// On GA100 FP16 and FP64 vector instructions issue to the tensor pipe too. Their thread
// instructions / 32 is at most their warp instructions (a warp instruction runs at most 32
// threads), so a tensor-pipe count no larger than that leaves no room for a matrix instruction.
// True when every launch shows this; `detail` then says it with the largest launch's numbers.
bool AccountedByVectorWork(const std::vector<const std::map<std::string, double>*>& launches,
                           std::string& detail) {
  double largest = -1;
  for (const auto* metrics : launches) {
    auto pipe = TensorPipeInstructions(*metrics);
    if (!pipe)
      return false;
    double threads = 0;
    for (std::string_view op : {"hadd", "hmul", "hfma", "dadd", "dmul", "dfma"})
      threads += ThreadOp(*metrics, op).value_or(0);
    if (*pipe > threads / 32.0)
      return false;
    if (*pipe > largest) {
      largest = *pipe;
      detail = fmt::format(
          "the tensor pipe's {:.4g} warp instructions (inst_executed_pipe_tensor) are no more "
          "than the FP16/FP64 vector instructions that share that pipe on GA100 ({:.4g} thread "
          "instructions / 32 = {:.4g}), so no matrix instruction ran{}",
          *pipe,
          threads,
          threads / 32.0,
          launches.size() == 1
              ? ""
              : fmt::format(" (largest of {} profiled launches, all alike)", launches.size()));
    }
  }
  return !launches.empty();
}

report::TensorCoreEvidence Measured(bool used, std::string detail) {
  return {used, report::EvidenceTier::kMeasured, "counters", {}, std::move(detail)};
}

// A kernel-library naming convention and what it says.
struct NameToken {
  std::string_view token;
  std::string_view why;
};

// Tokens of tensor-core kernels, case-insensitive, anywhere in the name. Kept short: each is a
// convention of a kernel library, not a guess from words like "gemm" or "matmul".
constexpr std::array<NameToken, 19> kTensorTokens{{
    {"hmma", "a tensor-core instruction name"},
    {"imma", "a tensor-core instruction name"},
    {"wmma", "the CUDA WMMA tensor-core API"},
    {"gmma", "Hopper warpgroup MMA (wgmma)"},
    {"tensorop", "a CUTLASS tensor-op kernel"},
    {"xmma", "NVIDIA's tensor-core kernel templates (cuBLAS, cuDNN)"},
    {"nvjet", "a cuBLAS tensor-core GEMM (Hopper and later)"},
    {"h884", "a cuBLAS Volta MMA tile"},
    {"s884", "a cuBLAS Volta MMA tile"},
    {"h1688", "a cuBLAS Turing/Ampere MMA tile"},
    {"s1688", "a cuBLAS Turing/Ampere MMA tile"},
    {"h16816", "a cuBLAS Ampere MMA tile"},
    {"s16816", "a cuBLAS Ampere MMA tile"},
    {"i8816", "a cuBLAS integer MMA tile"},
    {"i16832", "a cuBLAS integer MMA tile"},
    {"fmha", "a fused attention kernel built on MMA (xFormers, CUTLASS, TensorRT)"},
    {"flash_fwd_kernel", "FlashAttention's forward kernel (MMA)"},
    {"flash_fwd_splitkv_kernel", "FlashAttention's split-KV forward kernel (MMA)"},
    {"flash_bwd_dq_dk_dv", "FlashAttention's backward kernel (MMA)"},
}};

// Names of kernels on CUDA cores, trusted only without a tensor token.
constexpr std::array<NameToken, 3> kVectorTokens{{
    {"sgemm", "an FP32 SIMT GEMM (cuBLAS, CUTLASS)"},
    {"gemv", "a matrix-vector kernel (CUDA cores)"},
    {"simt", "a CUTLASS SIMT kernel (CUDA cores)"},
}};

}  // namespace

CounterVerdict TensorCoresFromCounters(
    const std::vector<const std::map<std::string, double>*>& launches,
    std::string_view compute_capability) {
  CounterVerdict verdict;
  if (launches.empty())
    return verdict;
  const std::size_t n = launches.size();
  auto kinds = Summarize(launches);
  const KindSummary& matrix = kinds[static_cast<std::size_t>(MetricKind::kMatrix)];
  const KindSummary& aggregate = kinds[static_cast<std::size_t>(MetricKind::kAggregate)];
  const KindSummary& fp16 = kinds[static_cast<std::size_t>(MetricKind::kFp16Vector)];
  const KindSummary& fp64 = kinds[static_cast<std::size_t>(MetricKind::kFp64Vector)];
  const KindSummary& decisive = matrix.present ? matrix : aggregate;
  if (!decisive.present)
    return verdict;
  if (decisive.positive_launches == 0) {
    verdict.evidence = Measured(
        false,
        n == 1 ? fmt::format("{} is 0 in the kernel's one profiled launch", decisive.metric)
               : fmt::format("{} is 0 in all {} profiled launches", decisive.metric, n));
    return verdict;
  }
  std::string detail =
      n == 1 ? fmt::format(
                   "{} = {:.4g} in the kernel's one profiled launch", decisive.metric, decisive.max)
             : fmt::format("{} > 0 in {} of {} profiled launches (max {:.4g})",
                           decisive.metric,
                           decisive.positive_launches,
                           n,
                           decisive.max);
  if (!matrix.present) {
    bool not_ga100 = !compute_capability.empty() && compute_capability != "8.0";
    bool vector_zero =
        fp16.present && fp64.present && fp16.positive_launches == 0 && fp64.positive_launches == 0;
    // Only on a device known to be GA100: elsewhere FP16 may not share the pipe, and the
    // vector count would hide matrix work.
    std::string accounted;
    if (compute_capability == "8.0" && !vector_zero && AccountedByVectorWork(launches, accounted)) {
      verdict.evidence = Measured(false, std::move(accounted));
      return verdict;
    }
    if (!not_ga100 && !vector_zero) {
      verdict.inconclusive = true;
      return verdict;
    }
    if (!not_ga100)
      detail += "; the FP16 and FP64 vector counters are 0, so the tensor pipe ran matrix work";
  }
  verdict.evidence = Measured(true, std::move(detail));
  return verdict;
}

std::optional<report::TensorCoreEvidence> TensorCoresFromName(std::string_view kernel_name) {
  // Folded once: the tokens are lower case, and template-heavy names run to kilobytes.
  std::string folded = AsciiLower(kernel_name);
  auto verdict = [](bool tensor, const NameToken& t) {
    return report::TensorCoreEvidence{
        tensor,
        report::EvidenceTier::kInferred,
        "name",
        {},
        fmt::format("the name contains \"{}\": {}; not measured", t.token, t.why)};
  };
  for (const NameToken& t : kTensorTokens) {
    if (folded.find(t.token) != std::string::npos)
      return verdict(true, t);
  }
  for (const NameToken& t : kVectorTokens) {
    if (folded.find(t.token) != std::string::npos)
      return verdict(false, t);
  }
  return std::nullopt;
}

}  // namespace gpuperf::analysis
