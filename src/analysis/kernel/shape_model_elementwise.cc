// Elementwise shape models: same-shape, same-type pointwise ops, one FLOP per output element.
#include <algorithm>
#include <string>

#include "analysis/kernel/shape_model_ops.h"

namespace gpuperf::analysis::shape {
namespace {

// Elementwise ops modelled when every tensor argument of rank >= 1 has one shape and one
// floating-point type (0-dim tensors are scalars): FLOPs = output elements, bytes = (tensor
// arguments + 1 output) x elements x element size.
constexpr std::array<std::string_view, 38> kElementwise = {
    "aten::add",        "aten::add_",       "aten::sub",        "aten::sub_",     "aten::mul",
    "aten::mul_",       "aten::div",        "aten::div_",       "aten::neg",      "aten::neg_",
    "aten::relu",       "aten::relu_",      "aten::sigmoid",    "aten::sigmoid_", "aten::tanh",
    "aten::tanh_",      "aten::silu",       "aten::silu_",      "aten::gelu",     "aten::gelu_",
    "aten::exp",        "aten::exp_",       "aten::rsqrt",      "aten::rsqrt_",   "aten::sqrt",
    "aten::sqrt_",      "aten::pow",        "aten::pow_",       "aten::cos",      "aten::sin",
    "aten::abs",        "aten::reciprocal", "aten::maximum",    "aten::minimum",  "aten::clamp_min",
    "aten::clamp_min_", "aten::clamp_max",  "aten::clamp_max_",
};

std::optional<OpWork> Elementwise(const Args& a) {
  const Dims* shape = nullptr;
  const FloatType* type = nullptr;
  std::int64_t tensors = 0;
  for (std::size_t i = 0; i < a.dims.size(); ++i) {
    std::string_view t = a.Type(i);
    if (IsNonTensorType(t))
      continue;
    const FloatType* ft = FindFloatType(t);
    const Dims* d = a.Tensor(i);
    if (ft == nullptr || d == nullptr)
      return std::nullopt;  // an integer / bool tensor, a TensorList, ...
    if (d->empty())
      continue;  // a 0-dim tensor: a scalar operand
    if ((shape && *shape != *d) || (type && type != ft))
      return std::nullopt;  // broadcasting or mixed types: not modelled
    shape = d;
    type = ft;
    ++tensors;
  }
  if (!shape)
    return std::nullopt;
  auto elements = Product(*shape, 0, shape->size());
  auto bytes = Mul(Mul(elements, tensors + 1), type->bytes);
  if (!elements || !bytes)
    return std::nullopt;
  OpWork w;
  w.kind = ShapeOpKind::kElementwise;
  w.elements = *elements;
  w.dtype = std::string(type->name);
  w.element_bytes = type->bytes;
  w.flops = *elements;
  w.bytes = *bytes;
  w.precision = type->opmath;
  w.unit = model::MathUnit::kVector;
  return w;
}

// Softmax over one dim (aten::_softmax(self, dim, half_to_float), aten::softmax(self, dim,
// dtype?)): read once, written once like an elementwise op, and about five FLOPs per element
// (max, subtract, exp, sum, divide). A memory-bound floor for the score matrices of eager
// attention. The bytes assume the output keeps the input's type (half_to_float doubles the
// write: a lower bound).
constexpr std::array<std::string_view, 4> kSoftmax = {
    "aten::_softmax", "aten::softmax", "aten::_log_softmax", "aten::log_softmax"};
constexpr std::int64_t kSoftmaxFlopsPerElement = 5;

}  // namespace

std::optional<OpWork> ModelElementwise(std::string_view name, const Args& a) {
  if (std::find(kSoftmax.begin(), kSoftmax.end(), name) != kSoftmax.end()) {
    std::optional<OpWork> w = Elementwise(a);
    if (w) {
      auto flops = Mul(w->elements, kSoftmaxFlopsPerElement);
      if (!flops)
        return std::nullopt;
      w->flops = *flops;
    }
    return w;
  }
  if (std::find(kElementwise.begin(), kElementwise.end(), name) == kElementwise.end())
    return std::nullopt;
  return Elementwise(a);
}

}  // namespace gpuperf::analysis::shape
