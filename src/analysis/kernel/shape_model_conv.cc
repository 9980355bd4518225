// Convolution shape models (1-, 2- and 3-D, transposed included), TraceLens' CONV definitions
// (after torch.utils.flop_counter): the output size from the input, kernel, stride, padding and
// dilation that "Concrete Inputs" records, FLOPs = 2 x output elements x (C_in / groups) x kernel
// elements, bytes = input + weight + output (+ bias) elements.
#include <string>

#include "analysis/kernel/shape_model_ops.h"

namespace gpuperf::analysis::shape {
namespace {

constexpr int kNone = -1;

// Where each argument of a convolution op sits; kNone when the op has no such argument.
struct ConvLayout {
  std::string_view name;
  int bias, stride, padding, dilation, transposed, output_padding, groups, allow_tf32;
  bool always_transposed;
};

constexpr std::array<ConvLayout, 7> kConvLayouts = {{
    // aten::conv{1,2,3}d(input, weight, bias?, stride, padding, dilation, groups)
    {"aten::conv1d", 2, 3, 4, 5, kNone, kNone, 6, kNone, false},
    {"aten::conv2d", 2, 3, 4, 5, kNone, kNone, 6, kNone, false},
    {"aten::conv3d", 2, 3, 4, 5, kNone, kNone, 6, kNone, false},
    // aten::convolution(input, weight, bias?, stride, padding, dilation, transposed,
    //                   output_padding, groups)
    {"aten::convolution", 2, 3, 4, 5, 6, 7, 8, kNone, false},
    // aten::_convolution(<as convolution>, benchmark, deterministic, cudnn_enabled, allow_tf32)
    {"aten::_convolution", 2, 3, 4, 5, 6, 7, 8, 12, false},
    // aten::cudnn_convolution(input, weight, padding, stride, dilation, groups, benchmark,
    //                         deterministic, allow_tf32): no bias, _convolution adds it after
    //                         with a broadcasting add_ (its own op, not modelled).
    {"aten::cudnn_convolution", kNone, 3, 2, 4, kNone, kNone, 5, 8, false},
    // aten::cudnn_convolution_transpose(input, weight, padding, output_padding, stride, dilation,
    //                                   groups, benchmark, deterministic, allow_tf32)
    {"aten::cudnn_convolution_transpose", kNone, 4, 2, 5, kNone, 3, 6, 9, true},
}};

// Argument `index` as one value per spatial dim, from a list of that length or of one value
// (PyTorch expands [2] to [2, 2]); `fallback` for each dim when the op has no such argument.
std::optional<Dims> SpatialParam(const Args& a,
                                 int index,
                                 std::size_t spatial,
                                 std::int64_t fallback) {
  if (index == kNone)
    return Dims(spatial, fallback);
  auto text = a.Concrete(static_cast<std::size_t>(index));
  auto list = text ? ParseIntList(*text) : std::nullopt;
  if (!list || (list->size() != 1 && list->size() != spatial))
    return std::nullopt;
  return list->size() == 1 ? Dims(spatial, list->front()) : *list;
}

std::optional<bool> BoolArg(const Args& a, int index, bool fallback) {
  if (index == kNone)
    return fallback;
  auto text = a.Concrete(static_cast<std::size_t>(index));
  return text ? ParseBool(*text) : std::nullopt;
}

// One spatial output size: floor((in + 2p - d (k - 1) - 1) / s) + 1, or for a transposed
// convolution (in - 1) s - 2p + d (k - 1) + output_padding + 1; nullopt when not positive.
Int OutputSize(std::int64_t in,
               std::int64_t k,
               std::int64_t s,
               std::int64_t p,
               std::int64_t d,
               std::int64_t output_padding,
               bool transposed) {
  if (in < 1 || k < 1 || s < 1 || d < 1)
    return std::nullopt;
  Int extent = Add(Mul(d, k - 1), 1);  // the dilated kernel: d (k - 1) + 1
  Int padding = Mul(2, p);
  if (!transposed) {
    Int padded = Add(in, padding);
    if (!padded || !extent || *padded < *extent)
      return std::nullopt;
    return (*padded - *extent) / s + 1;
  }
  Int grown = Add(Add(Mul(in - 1, s), extent), output_padding);
  if (!grown || !padding || *grown - *padding < 1)
    return std::nullopt;
  return *grown - *padding;
}

std::optional<OpWork> Convolution(const ConvLayout& l, const Args& a) {
  const Dims* x = a.Tensor(0);
  const Dims* w = a.Tensor(1);
  const FloatType* type = FindFloatType(a.Type(0));
  if (!x || !w || x->size() < 3 || x->size() > 5 || w->size() != x->size() || !type ||
      a.Type(1) != a.Type(0))
    return std::nullopt;
  std::size_t spatial = x->size() - 2;
  auto stride = SpatialParam(a, l.stride, spatial, 1);
  auto padding = SpatialParam(a, l.padding, spatial, 0);
  auto dilation = SpatialParam(a, l.dilation, spatial, 1);
  auto output_padding = SpatialParam(a, l.output_padding, spatial, 0);
  auto transposed = BoolArg(a, l.transposed, l.always_transposed);
  Int groups = 1;
  if (l.groups != kNone) {
    auto text = a.Concrete(static_cast<std::size_t>(l.groups));
    groups = text ? ParseInt(*text) : std::nullopt;
  }
  if (!stride || !padding || !dilation || !output_padding || !transposed || !groups || *groups < 1)
    return std::nullopt;
  // weight: [C_out, C_in / groups, k...]; transposed: [C_in, C_out / groups, k...].
  std::int64_t c_in = (*x)[1];
  Int c_out = (*w)[0];
  if (*transposed) {
    c_out = Mul((*w)[1], *groups);
    if ((*w)[0] != c_in || c_in % *groups != 0)
      return std::nullopt;
  } else if (Mul((*w)[1], *groups) != Int(c_in) || (*w)[0] % *groups != 0) {
    return std::nullopt;
  }
  if (!c_out)
    return std::nullopt;
  Dims out{(*x)[0], *c_out};
  for (std::size_t i = 0; i < spatial; ++i) {
    Int size = OutputSize((*x)[i + 2],
                          (*w)[i + 2],
                          (*stride)[i],
                          (*padding)[i],
                          (*dilation)[i],
                          (*output_padding)[i],
                          *transposed);
    if (!size)
      return std::nullopt;
    out.push_back(*size);
  }
  const Dims* bias_dims = l.bias == kNone ? nullptr : a.Tensor(static_cast<std::size_t>(l.bias));
  bool bias =
      bias_dims && !bias_dims->empty() && FindFloatType(a.Type(static_cast<std::size_t>(l.bias)));
  Int x_elements = Product(*x, 0, x->size());
  Int w_elements = Product(*w, 0, w->size());
  Int out_elements = Product(out, 0, out.size());
  // Each output point of a convolution (each input point of a transposed one) meets w[1] x
  // kernel elements of the weight: one multiply and one add each.
  Int flops = Mul(*transposed ? x_elements : out_elements, Mul(2, Product(*w, 1, w->size())));
  if (bias)
    flops = Add(flops, out_elements);
  Int elements = Add(Add(Add(x_elements, w_elements), out_elements), bias ? c_out : Int(0));
  Int bytes = Mul(elements, type->bytes);
  if (!flops || !bytes)
    return std::nullopt;
  OpWork work = MatrixWork(ShapeOpKind::kConvolution, *type, *out_elements, *flops, *bytes);
  work.bias = bias;
  // cuDNN may run an fp32 convolution on TF32 tensor cores (Ampere and later) when PyTorch allows
  // it (torch.backends.cudnn.allow_tf32, on by default): an assumption, as for fp16/bf16.
  auto tf32 = BoolArg(a, l.allow_tf32, false);
  if (work.precision == model::Precision::kFp32 && tf32 && *tf32) {
    work.precision = model::Precision::kTf32;
    work.unit = model::MathUnit::kTensor;
  }
  return work;
}

}  // namespace

std::optional<OpWork> ModelConvolution(std::string_view name, const Args& a) {
  for (const ConvLayout& layout : kConvLayouts) {
    if (layout.name == name)
      return Convolution(layout, a);
  }
  return std::nullopt;
}

}  // namespace gpuperf::analysis::shape
