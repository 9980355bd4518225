// The work of PyTorch operators from the shapes the profiler recorded (Kineto cpu_op "Input Dims",
// "Input type" and "Concrete Inputs", HostOp::input_dims / input_types / concrete_inputs): FLOPs
// and bytes moved of the GEMM family (TraceLens' definitions, checked against its GEMM.csv), of
// same-shape elementwise ops, of convolutions and of scaled-dot-product attention, and their
// attribution to the kernels each op launched. docs/metrics.md "Shape models" gives every formula
// and what is not modelled. The families live in shape_model_<family>.cc (shape_model_ops.h).
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "analysis/core/correlation.h"
#include "analysis/kernel/device_roofs.h"
#include "model/ceilings.h"

namespace gpuperf::analysis {

enum class ShapeOpKind : std::uint8_t { kGemm, kElementwise, kConvolution, kAttention };

// The modelled work of one operator call.
struct OpWork {
  ShapeOpKind kind = ShapeOpKind::kGemm;
  // GEMM: TraceLens' parameters (batch B, M x K times K x N, bias); the other kinds: b = 1,
  // m = n = k = 0, `elements` the output's element count and `bias` whether a convolution adds a
  // bias.
  std::int64_t b = 1, m = 0, n = 0, k = 0;
  bool bias = false;
  std::int64_t elements = 0;
  std::string dtype;  // the operands' "Input type": "c10::BFloat16", "float", ...
  std::int64_t element_bytes = 0;
  std::int64_t flops = 0;
  std::int64_t bytes = 0;
  // The arithmetic the work runs as: GEMMs, convolutions and attention in the operand type
  // (fp16/bf16 on tensor cores, an assumption; an fp32 cuDNN convolution allowed TF32 as tf32 on
  // tensor cores, also an assumption), elementwise ops in PyTorch's opmath type on the vector
  // units (fp32 for fp16/bf16/fp32, fp64 for double).
  model::Precision precision = model::Precision::kFp32;
  model::MathUnit unit = model::MathUnit::kVector;
};

// The math path the kernel that ran the work shows by its name: fp32 matrix work in a kernel
// built for TF32 tensor ops (CUTLASS "tensorop_s1688gemm" / "tensorop_s16816gemm", cuBLAS and
// cuDNN names with "tf32") ran as tf32 on tensor cores, so its roof is the TF32 tensor peak, not
// the fp32 vector one (control's CUTLASS GEMM: "81% of the fp32 roof" was about 10% of TF32's).
void ApplyKernelMathPath(OpWork& work, std::string_view kernel_name);

// One "Input Dims" entry: the dimensions of a tensor argument ([] for a scalar or an absent
// argument), nullopt for an entry that is not a flat list of integers (a TensorList's nested
// lists). nullopt overall when the text is not a JSON array.
using InputDims = std::vector<std::optional<std::vector<std::int64_t>>>;
std::optional<InputDims> ParseInputDims(std::string_view json);
// "Input type": a JSON array of strings; nullopt when it is not one.
std::optional<std::vector<std::string>> ParseInputTypes(std::string_view json);
// "Concrete Inputs": a JSON array of strings, one per argument, the value of a non-tensor
// argument as Python prints it ("[16, 16]", "1", "False", "0.") and "" for a tensor or None;
// nullopt when it is not such an array.
std::optional<std::vector<std::string>> ParseConcreteInputs(std::string_view json);

// The work of one call of operator `name` with these raw "Input Dims" / "Input type" / "Concrete
// Inputs" texts (the last may be empty: not recorded); nullopt when the operator or its arguments
// are not modelled. Convolutions and attention need the concrete inputs; a malformed one, or one
// of another length than the dims, leaves them unmodelled.
std::optional<OpWork> ModelOp(std::string_view name,
                              std::string_view input_dims,
                              std::string_view input_types,
                              std::string_view concrete_inputs = {});

// ModelOp of a host op, memoised by its (name, dims, types, concrete inputs): a training loop
// calls the same few hundred signatures thousands of times.
class OpWorkMemo {
 public:
  explicit OpWorkMemo(const model::Trace& trace) : trace_(trace) {}
  const std::optional<OpWork>& Of(const model::HostOp& op);

 private:
  using Key = std::tuple<model::NameId, model::NameId, model::NameId, model::NameId>;
  const model::Trace& trace_;
  std::map<Key, std::optional<OpWork>> memo_;
};

// A host op with a shape model and the kernels it launched.
struct ModeledOp {
  std::size_t host_op = 0;  // index into Trace::host_ops
  OpWork work;
  std::vector<std::size_t> kernels;  // indices into Trace::activities, trace order
  std::size_t target = 0;            // the kernel that gets the work: the longest of `kernels`
};

// For every kernel launched from inside a host op: the innermost host op (same pid and tid) whose
// interval contains the kernel's launch call (joined by correlation id). Indexed like
// Trace::activities; -1 for activities that are not kernels or have no enclosing host op.
std::vector<std::int64_t> LaunchingHostOps(const model::Trace& trace,
                                           const CorrelationIndex& index);

// Every host op with a shape model that launched at least one kernel, in host_ops order.
std::vector<ModeledOp> ModelHostOps(const model::Trace& trace, const CorrelationIndex& index);
// The same ops handed to `visit` one at a time (one ModeledOp reused; valid during the call), for
// passes that keep less than the whole list: a large trace models hundreds of thousands of ops.
// `launching`: LaunchingHostOps(trace, index) when the caller has it (null: computed here).
void ForEachModeledOp(const model::Trace& trace,
                      const CorrelationIndex& index,
                      const std::function<void(const ModeledOp&)>& visit,
                      const std::vector<std::int64_t>* launching = nullptr);

// Fills KernelRow::roofline with evidence "modeled" for each kernel name that has no roofline
// yet (counters win) and got work from a shape model, against the ceilings of its device
// (`roofs`); appends a note to `notes` when it filled any.
void AttachModeledRooflines(const model::Trace& trace,
                            const CorrelationIndex& index,
                            const DeviceRoofsTable& roofs,
                            std::vector<report::KernelRow>& kernels,
                            std::vector<std::string>& notes,
                            const std::vector<std::int64_t>* launching = nullptr);

}  // namespace gpuperf::analysis
