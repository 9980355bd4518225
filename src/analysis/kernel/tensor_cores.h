// Tensor-core evidence per kernel name (report::TensorCoreEvidence), claimed only with evidence.
// Tiers, the first that decides wins (docs/metrics.md, "Tensor cores"):
//   1. counters: tensor-pipe hardware counters of the kernel's profiled launches ("measured");
//   2. sass: matrix instructions (HMMA, HGMMA, IMMA, ...) in the kernel's SASS, read by
//      `gpuperf analyze --sass EXE` ("measured");
//   3. name: a kernel-library naming convention ("inferred").
// A kernel none of them speaks for keeps KernelRow::tensor_cores empty.
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/sass.h"
#include "gpuperf/trace.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuperf::analysis {

// Tier 1 for one kernel name: the metrics of its profiled launches and its device's compute
// capability ("8.0"; "" unknown). Matrix-only counters (sm__ops_path_tensor_*, *pipe_tensor_op_*)
// decide alone. The aggregate tensor pipe (*inst_executed_pipe_tensor*, *pipe_tensor_cycles*)
// decides when it is zero, or when positive on a device known not to be GA100 (cc 8.0): on GA100
// the same pipe also runs FP16 and FP64 vector instructions (an FP32 GEMM's HFMA2 moves show up
// there), so a positive aggregate counts only when the kernel's FP16 and FP64 vector counters are
// recorded and zero. On a cc 8.0 device, a tensor-pipe instruction count no larger than those
// FP16/FP64 thread instructions / 32 in every launch is "not used" (measured): the vector work
// accounts for all of it.
struct CounterVerdict {
  std::optional<report::TensorCoreEvidence> evidence;  // nullopt: the counters do not decide
  bool inconclusive = false;  // a positive aggregate that the GA100 rule left unused
};
CounterVerdict TensorCoresFromCounters(
    const std::vector<const std::map<std::string, double>*>& launches,
    std::string_view compute_capability);

// Tier 3: tensor-core naming conventions of kernel libraries (cuBLAS, cuDNN, CUTLASS,
// FlashAttention) give used=true; SIMT GEMM names (sgemm, gemv, simt) without such a token give
// used=false; anything else nullopt.
std::optional<report::TensorCoreEvidence> TensorCoresFromName(std::string_view kernel_name);

// Sets KernelRow::tensor_cores for every kernel a tier speaks for and adds a note on how many
// kernels were matched to `sass` (when given) and on counters left unused.
void AttachTensorCores(const model::Trace& trace,
                       const std::vector<model::SassFunction>& sass,
                       std::vector<report::KernelRow>& kernels,
                       std::vector<std::string>& notes);

}  // namespace gpuperf::analysis
