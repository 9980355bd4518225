#include "analysis/framework/categories.h"

#include <algorithm>
#include <array>
#include <string>

#include "analysis/core/names.h"

namespace gpuperf::analysis::framework {
namespace {

template <std::size_t N>
bool ContainsAny(std::string_view text, const std::array<std::string_view, N>& needles) {
  return std::any_of(needles.begin(), needles.end(), [&](std::string_view n) {
    return text.find(n) != std::string_view::npos;
  });
}

template <std::size_t N>
bool IsOneOf(std::string_view text, const std::array<std::string_view, N>& names) {
  return std::find(names.begin(), names.end(), text) != names.end();
}

// The operator's own name: "aten::addmm" -> "addmm"; "autograd::engine::evaluate_function:
// MmBackward0" -> "mm"; the in-place underscore dropped ("add_" -> "add").
std::string BaseOpName(std::string_view lowered) {
  std::string_view base = lowered;
  if (auto colon = base.rfind(": "); colon != std::string_view::npos)
    base = base.substr(colon + 2);
  if (auto scope = base.rfind("::"); scope != std::string_view::npos)
    base = base.substr(scope + 2);
  if (auto backward = base.find("backward"); backward != std::string_view::npos && backward > 0 &&
                                             base.find('_') == std::string_view::npos) {
    base = base.substr(0, backward);  // autograd node names: "nativelayernormbackward0"
  }
  while (base.size() > 1 && base.front() == '_')
    base.remove_prefix(1);
  while (base.size() > 1 && base.back() == '_')
    base.remove_suffix(1);
  return std::string(base);
}

constexpr std::array<std::string_view, 16> kGemmOps = {"mm",
                                                       "addmm",
                                                       "bmm",
                                                       "baddbmm",
                                                       "addbmm",
                                                       "matmul",
                                                       "linear",
                                                       "addmv",
                                                       "mv",
                                                       "dot",
                                                       "vdot",
                                                       "scaled_mm",
                                                       "int_mm",
                                                       "einsum",
                                                       "tensordot",
                                                       "chain_matmul"};

constexpr std::array<std::string_view, 24> kReductionOps = {"sum",      "mean",
                                                            "max",      "min",
                                                            "amax",     "amin",
                                                            "argmax",   "argmin",
                                                            "prod",     "var",
                                                            "std",      "var_mean",
                                                            "std_mean", "logsumexp",
                                                            "cumsum",   "cumprod",
                                                            "all",      "any",
                                                            "topk",     "median",
                                                            "nll_loss", "nll_loss_forward",
                                                            "mse_loss", "count_nonzero"};

constexpr std::array<std::string_view, 27> kCopyLayoutOps = {
    "copy",       "to_copy",     "to",
    "contiguous", "clone",       "cat",
    "stack",      "permute",     "transpose",
    "t",          "reshape",     "view",
    "flatten",    "narrow_copy", "flip",
    "roll",       "repeat",      "repeat_interleave",
    "tile",       "expand",      "unsafe_view",
    "unfold",     "pad",         "constant_pad_nd",
    "split",      "chunk",       "local_scalar_dense"};

constexpr std::array<std::string_view, 60> kElementwiseOps = {"add",         "sub",
                                                              "rsub",        "mul",
                                                              "div",         "pow",
                                                              "neg",         "exp",
                                                              "exp2",        "log",
                                                              "log1p",       "expm1",
                                                              "sqrt",        "rsqrt",
                                                              "sigmoid",     "tanh",
                                                              "relu",        "gelu",
                                                              "silu",        "hardswish",
                                                              "hardsigmoid", "leaky_relu",
                                                              "elu",         "softplus",
                                                              "mish",        "where",
                                                              "fill",        "zero",
                                                              "zeros",       "ones",
                                                              "full",        "clamp",
                                                              "clamp_min",   "clamp_max",
                                                              "abs",         "eq",
                                                              "ne",          "lt",
                                                              "gt",          "le",
                                                              "ge",          "cos",
                                                              "sin",         "masked_fill",
                                                              "dropout",     "native_dropout",
                                                              "threshold",   "addcmul",
                                                              "addcdiv",     "lerp",
                                                              "maximum",     "minimum",
                                                              "reciprocal",  "sign",
                                                              "erf",         "arange",
                                                              "uniform",     "normal",
                                                              "bernoulli",   "linspace"};

std::optional<FrameworkCategory> ByBaseName(const std::string& base) {
  if (base.find("attention") != std::string::npos || base.find("attn") != std::string::npos ||
      base.find("scaled_dot_product") != std::string::npos ||
      base.find("scaleddotproduct") != std::string::npos ||
      base.find("sdpa") != std::string::npos) {
    return FrameworkCategory::kAttention;
  }
  if (base.find("convolution") != std::string::npos || base.starts_with("conv1d") ||
      base.starts_with("conv2d") || base.starts_with("conv3d") ||
      base.starts_with("conv_transpose") || base.starts_with("conv_depthwise") ||
      base.starts_with("slow_conv") || base.starts_with("thnn_conv") ||
      base.starts_with("cudnn_conv") || base.starts_with("miopen_conv")) {
    return FrameworkCategory::kConvolution;
  }
  if (IsOneOf(base, kGemmOps) || base.find("gemm") != std::string::npos ||
      base.find("matmul") != std::string::npos) {
    return FrameworkCategory::kGemm;
  }
  if (base.find("norm") != std::string::npos || base.find("softmax") != std::string::npos ||
      base.find("pool") != std::string::npos || base.find("loss") != std::string::npos ||
      IsOneOf(base, kReductionOps)) {
    return FrameworkCategory::kReductionNormalization;
  }
  if (IsOneOf(base, kCopyLayoutOps) || base.starts_with("copy"))
    return FrameworkCategory::kCopyLayout;
  if (IsOneOf(base, kElementwiseOps) || base.starts_with("foreach") ||
      base.starts_with("bitwise_") || base.starts_with("logical_")) {
    return FrameworkCategory::kElementwise;
  }
  if (base.ends_with("_backward")) {  // gelu_backward, threshold_backward, ...
    std::string forward = base.substr(0, base.size() - std::string_view("_backward").size());
    if (IsOneOf(forward, kElementwiseOps))
      return FrameworkCategory::kElementwise;
  }
  return std::nullopt;
}

}  // namespace

std::optional<FrameworkCategory> CategoryOfOperator(std::string_view op_name) {
  std::string lowered = AsciiLower(op_name);
  if (IsCommunicationKernel(lowered))
    return FrameworkCategory::kCommunication;
  return ByBaseName(BaseOpName(lowered));
}

// "conv" as a word start that is not "convert" (Triton's "..._convert_element_type").
bool MentionsConvolution(std::string_view k) {
  for (std::size_t at = k.find("conv"); at != std::string_view::npos; at = k.find("conv", at + 1)) {
    if (k.substr(at, 7) != "convert")
      return true;
  }
  return false;
}

namespace {

// A CUTLASS kernel: "cutlass" in the kernel's own name, outside its template arguments
// ("void cutlass::Kernel2<...>", "cutlass_80_tensorop_s1688gemm_..."), or its GEMM namespace
// anywhere.
bool CutlassKernel(std::string_view k) {
  if (k.find("cutlass::gemm") != std::string_view::npos)
    return true;
  std::size_t open = k.find('<');
  return k.substr(0, open).find("cutlass") != std::string_view::npos;
}

// TensorRT-LLM's batched GEMMs, named by their operand types ("bmm_mxe4m3_mxe2m1mxe4m3_fp32_
// t128x16x256u2_...": vLLM's MoE on Blackwell, 48% of b200's kernel time).
bool BatchedGemmKernel(std::string_view k) {
  return k.starts_with("bmm_");
}

}  // namespace

FrameworkCategory CategoryOfKernel(std::string_view kernel_name) {
  std::string k = AsciiLower(kernel_name);
  constexpr std::array<std::string_view, 13> kCopy = {"nchwtonhwc",
                                                      "nhwctonchw",
                                                      "transpose",
                                                      "permute",
                                                      "copy_kernel",
                                                      "direct_copy",
                                                      "catarraybatchedcopy",
                                                      "cat_array",
                                                      "batched_copy",
                                                      "contiguous",
                                                      "copykernel",
                                                      "memcpy",
                                                      "to_copy"};
  constexpr std::array<std::string_view, 6> kAttention = {
      "flash", "fmha", "attention", "attn", "sdpa", "mha_"};
  constexpr std::array<std::string_view, 14> kNormalization = {"layer_norm",
                                                               "layernorm",
                                                               "batch_norm",
                                                               "batchnorm",
                                                               "group_norm",
                                                               "groupnorm",
                                                               "rms_norm",
                                                               "rmsnorm",
                                                               "instance_norm",
                                                               "bn_fw",
                                                               "bn_bw",
                                                               "norm_kernel",
                                                               "normalization",
                                                               "softmax"};
  constexpr std::array<std::string_view, 6> kConvolution = {
      "fprop", "dgrad", "wgrad", "winograd", "implicit_convolve", "cudnn"};
  // "cutlass" is not among them: its types (cutlass::bfloat16_t) fill the template arguments of
  // kernels that are no GEMM (TRT-LLM's moe::dev::finalize), so it counts outside them only
  // (CutlassKernel).
  constexpr std::array<std::string_view, 11> kGemm = {"gemm",
                                                      "gemv",
                                                      "nvjet",
                                                      "cublas",
                                                      "matmul",
                                                      "wgmma",
                                                      "xmma",
                                                      "triton_tem",
                                                      "splitkreduce",
                                                      "hgemm",
                                                      "fused_moe_kernel"};
  constexpr std::array<std::string_view, 7> kReduction = {
      "reduce", "welford", "argmax", "topk", "triton_red", "triton_per", "pool"};
  constexpr std::array<std::string_view, 8> kElementwise = {"elementwise",
                                                            "pointwise",
                                                            "triton_poi",
                                                            "vectorized",
                                                            "unrolled",
                                                            "fill",
                                                            "multi_tensor_apply",
                                                            "foreach"};
  if (IsCommunicationKernel(k))
    return FrameworkCategory::kCommunication;
  if (ContainsAny(k, kCopy))
    return FrameworkCategory::kCopyLayout;
  if (ContainsAny(k, kAttention))
    return FrameworkCategory::kAttention;
  if (ContainsAny(k, kNormalization))
    return FrameworkCategory::kReductionNormalization;
  if (MentionsConvolution(k) || ContainsAny(k, kConvolution))
    return FrameworkCategory::kConvolution;
  if (ContainsAny(k, kGemm) || CutlassKernel(k) || BatchedGemmKernel(k))
    return FrameworkCategory::kGemm;
  if (ContainsAny(k, kReduction))
    return FrameworkCategory::kReductionNormalization;
  if (ContainsAny(k, kElementwise))
    return FrameworkCategory::kElementwise;
  return FrameworkCategory::kOther;
}

}  // namespace gpuperf::analysis::framework
