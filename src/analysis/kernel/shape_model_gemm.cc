// GEMM-family shape models: TraceLens' GEMM definitions (aten::mm, addmm, bmm, baddbmm, checked
// against its GEMM.csv) and ours with the same formulas for aten::linear and aten::matmul.
#include <algorithm>
#include <string>

#include "analysis/kernel/shape_model_ops.h"

namespace gpuperf::analysis::shape {
namespace {

// TraceLens' GEMM: FLOPs = B (2 M N K + [bias] M N), bytes = B (M K + K N + M N + [bias] N)
// elements at the element size of A (A and B must agree).
std::optional<OpWork> Gemm(std::int64_t b,
                           std::int64_t m,
                           std::int64_t n,
                           std::int64_t k,
                           bool bias,
                           std::string_view type_a,
                           std::string_view type_b) {
  const FloatType* type = FindFloatType(type_a);
  const FloatType* other = FindFloatType(type_b);
  // The operands agree, except FP8 formats, which a scaled GEMM mixes (e4m3 x e5m2).
  bool agree =
      type_a == type_b || (type && other && type->matrix_precision == model::Precision::kFp8 &&
                           other->matrix_precision == model::Precision::kFp8);
  if (type == nullptr || !agree || b < 0 || m < 0 || n < 0 || k < 0)
    return std::nullopt;
  Int mn = Mul(m, n);
  Int flops = Mul(b, Add(Mul(Mul(2, mn), k), bias ? mn : Int(0)));
  Int elements = Mul(b, Add(Add(Add(Mul(m, k), Mul(k, n)), mn), bias ? n : 0));
  Int bytes = Mul(elements, type->bytes);
  if (!flops || !bytes)
    return std::nullopt;
  OpWork w;
  w.kind = ShapeOpKind::kGemm;
  w.b = b;
  w.m = m;
  w.n = n;
  w.k = k;
  w.bias = bias;
  w.dtype = std::string(type_a);
  w.element_bytes = type->bytes;
  w.flops = *flops;
  w.bytes = *bytes;
  w.precision = type->matrix_precision;
  w.unit = type->matrix_unit;
  return w;
}

// aten::mm(A [M,K], B [K,N]).
std::optional<OpWork> Mm(const Args& a) {
  const Dims* x = a.Tensor(0);
  const Dims* y = a.Tensor(1);
  if (!x || !y || x->size() != 2 || y->size() != 2 || (*x)[1] != (*y)[0])
    return std::nullopt;
  return Gemm(1, (*x)[0], (*y)[1], (*x)[1], false, a.Type(0), a.Type(1));
}

// aten::addmm(C, A [M,K], B [K,N], beta, alpha): bias always (TraceLens), counted as N elements.
std::optional<OpWork> Addmm(const Args& a) {
  const Dims* x = a.Tensor(1);
  const Dims* y = a.Tensor(2);
  if (!a.Tensor(0) || !x || !y || x->size() != 2 || y->size() != 2 || (*x)[1] != (*y)[0])
    return std::nullopt;
  return Gemm(1, (*x)[0], (*y)[1], (*x)[1], true, a.Type(1), a.Type(2));
}

// aten::bmm(A [B,M,K], B [B,K,N]).
std::optional<OpWork> Bmm(const Args& a) {
  const Dims* x = a.Tensor(0);
  const Dims* y = a.Tensor(1);
  if (!x || !y || x->size() != 3 || y->size() != 3 || (*x)[0] != (*y)[0] || (*x)[2] != (*y)[1])
    return std::nullopt;
  return Gemm((*x)[0], (*x)[1], (*y)[2], (*x)[2], false, a.Type(0), a.Type(1));
}

// aten::baddbmm(C, A [B,M,K], B [B,K,N], beta, alpha): bias always, N elements per batch.
std::optional<OpWork> Baddbmm(const Args& a) {
  const Dims* x = a.Tensor(1);
  const Dims* y = a.Tensor(2);
  if (!a.Tensor(0) || !x || !y || x->size() != 3 || y->size() != 3 || (*x)[0] != (*y)[0] ||
      (*x)[2] != (*y)[1])
    return std::nullopt;
  return Gemm((*x)[0], (*x)[1], (*y)[2], (*x)[2], true, a.Type(1), a.Type(2));
}

// aten::linear(X [..., K], W [N, K], bias [N] or absent): M = the product of X's leading dims.
std::optional<OpWork> Linear(const Args& a) {
  const Dims* x = a.Tensor(0);
  const Dims* w = a.Tensor(1);
  if (!x || !w || x->empty() || w->size() != 2 || x->back() != (*w)[1])
    return std::nullopt;
  auto m = Product(*x, 0, x->size() - 1);
  const Dims* bias = a.Tensor(2);
  bool has_bias = bias && !bias->empty() && FindFloatType(a.Type(2));
  if (!m)
    return std::nullopt;
  return Gemm(1, *m, (*w)[0], x->back(), has_bias, a.Type(0), a.Type(1));
}

// aten::matmul(X, Y) with torch.matmul's rules: 1-D operands get a unit M or N; X of rank >= 3
// times a matrix folds X's leading dims into M; otherwise the batch dims broadcast and B is
// their product (the bmm that matmul lowers to).
std::optional<OpWork> Matmul(const Args& a) {
  const Dims* x = a.Tensor(0);
  const Dims* y = a.Tensor(1);
  if (!x || !y || x->empty() || y->empty())
    return std::nullopt;
  std::int64_t k = x->back();
  std::int64_t ky = y->size() == 1 ? (*y)[0] : (*y)[y->size() - 2];
  if (k != ky)
    return std::nullopt;
  std::int64_t n = y->size() == 1 ? 1 : y->back();
  if (y->size() <= 2) {  // X [..., M, K] or [K] times a matrix or vector: one GEMM
    auto m = Product(*x, 0, x->size() - 1);
    if (!m)
      return std::nullopt;
    return Gemm(1, *m, n, k, false, a.Type(0), a.Type(1));
  }
  std::int64_t m = x->size() == 1 ? 1 : (*x)[x->size() - 2];
  // Broadcast batch dims: x[:-2] against y[:-2], aligned at the right.
  std::size_t xb = x->size() >= 2 ? x->size() - 2 : 0;
  std::size_t yb = y->size() - 2;
  Int b = 1;
  for (std::size_t i = 0; i < std::max(xb, yb); ++i) {
    std::int64_t dx = i < xb ? (*x)[xb - 1 - i] : 1;
    std::int64_t dy = i < yb ? (*y)[yb - 1 - i] : 1;
    if (dx != dy && dx != 1 && dy != 1)
      return std::nullopt;
    b = Mul(b, dx == 1 ? dy : dx);
  }
  if (!b)
    return std::nullopt;
  return Gemm(*b, m, n, k, false, a.Type(0), a.Type(1));
}

}  // namespace

std::optional<OpWork> ModelGemm(std::string_view name, const Args& a) {
  if (name == "aten::mm")
    return Mm(a);
  if (name == "aten::addmm")
    return Addmm(a);
  if (name == "aten::bmm")
    return Bmm(a);
  if (name == "aten::baddbmm")
    return Baddbmm(a);
  if (name == "aten::linear")
    return Linear(a);
  if (name == "aten::matmul")
    return Matmul(a);
  // aten::_scaled_mm(A [M,K], B [K,N], scale_a, scale_b, bias, scale_result, out_dtype, ...):
  // the FP8 GEMM, mm's shapes; bytes at the operands' one byte per element (the output's wider
  // type is not in the input types: a lower bound on the bytes).
  if (name == "aten::_scaled_mm")
    return Mm(a);
  return std::nullopt;
}

}  // namespace gpuperf::analysis::shape
