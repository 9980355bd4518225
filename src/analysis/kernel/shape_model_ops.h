// Internal to the shape models (shape_model*.cc): the arguments of one operator call as parsed
// from "Input Dims" / "Input type" / "Concrete Inputs", the floating-point types the models know,
// checked int64 arithmetic, and one entry point per op family. docs/metrics.md "Shape models"
// gives the formulas.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/kernel/shape_model.h"
#include "model/ceilings.h"

namespace gpuperf::analysis::shape {

using Dims = std::vector<std::int64_t>;
using Int = std::optional<std::int64_t>;

// ---- Checked arithmetic: a shape whose work overflows int64 is not modelled. ----------------

inline Int Mul(Int a, Int b) {
  std::int64_t out = 0;
  if (!a || !b || __builtin_mul_overflow(*a, *b, &out))
    return std::nullopt;
  return out;
}

inline Int Add(Int a, Int b) {
  std::int64_t out = 0;
  if (!a || !b || __builtin_add_overflow(*a, *b, &out))
    return std::nullopt;
  return out;
}

// The product of dims[begin, end) (1 when empty).
inline Int Product(const Dims& dims, std::size_t begin, std::size_t end) {
  Int p = 1;
  for (std::size_t i = begin; i < end && i < dims.size(); ++i)
    p = Mul(p, dims[i]);
  return p;
}

// ---- Types. -----------------------------------------------------------------------------------

struct FloatType {
  std::string_view name;
  std::int64_t bytes;
  // What matrix work (GEMM, convolution, attention) in this type runs as: fp16/bf16 on tensor
  // cores (an assumption: nothing in the shapes shows it), fp32 and fp64 on the vector units.
  model::Precision matrix_precision;
  model::MathUnit matrix_unit;
  model::Precision opmath;  // PyTorch's at::opmath_type: what elementwise kernels compute in
};

// The work of a matrix-shaped op (convolution, attention) in `type`, on the unit its matrix work
// runs on.
inline OpWork MatrixWork(ShapeOpKind kind,
                         const FloatType& type,
                         std::int64_t out_elements,
                         std::int64_t flops,
                         std::int64_t bytes) {
  OpWork work;
  work.kind = kind;
  work.elements = out_elements;
  work.dtype = std::string(type.name);
  work.element_bytes = type.bytes;
  work.flops = flops;
  work.bytes = bytes;
  work.precision = type.matrix_precision;
  work.unit = type.matrix_unit;
  return work;
}

// The floating-point tensor types as the profiler names them (c10 TypeMeta names).
// FP8 matrix work runs on the FP8 tensor pipes (Hopper and later; _scaled_mm); elementwise work
// on FP8 tensors computes in fp32.
inline constexpr std::array<FloatType, 8> kFloatTypes = {{
    {"float", 4, model::Precision::kFp32, model::MathUnit::kVector, model::Precision::kFp32},
    {"double", 8, model::Precision::kFp64, model::MathUnit::kVector, model::Precision::kFp64},
    {"c10::Half", 2, model::Precision::kFp16, model::MathUnit::kTensor, model::Precision::kFp32},
    {"c10::BFloat16",
     2,
     model::Precision::kBf16,
     model::MathUnit::kTensor,
     model::Precision::kFp32},
    {"c10::Float8_e4m3fn",
     1,
     model::Precision::kFp8,
     model::MathUnit::kTensor,
     model::Precision::kFp32},
    {"c10::Float8_e5m2",
     1,
     model::Precision::kFp8,
     model::MathUnit::kTensor,
     model::Precision::kFp32},
    {"c10::Float8_e4m3fnuz",
     1,
     model::Precision::kFp8,
     model::MathUnit::kTensor,
     model::Precision::kFp32},
    {"c10::Float8_e5m2fnuz",
     1,
     model::Precision::kFp8,
     model::MathUnit::kTensor,
     model::Precision::kFp32},
}};

inline const FloatType* FindFloatType(std::string_view name) {
  for (const FloatType& t : kFloatTypes) {
    if (t.name == name)
      return &t;
  }
  return nullptr;
}

// Argument types that are not tensors.
inline bool IsNonTensorType(std::string_view type) {
  return type.empty() || type == "Scalar" || type == "ScalarList" || type == "GenericList" ||
         type == "None";
}

// ---- The arguments of one call. ---------------------------------------------------------------

struct Args {
  const InputDims& dims;
  const std::vector<std::string>& types;
  // "Concrete Inputs", one string per argument; null when not recorded, malformed, or of another
  // length than "Input Dims".
  const std::vector<std::string>* concrete = nullptr;

  // The dims of argument i when it is a flat list ([] for a scalar or an absent tensor).
  const Dims* Tensor(std::size_t i) const {
    return i < dims.size() && dims[i] ? &*dims[i] : nullptr;
  }
  std::string_view Type(std::size_t i) const {
    return i < types.size() ? std::string_view(types[i]) : std::string_view();
  }
  // The concrete value of argument i ("[16, 16]", "1", "False", "0."; "" for a tensor or None);
  // nullopt when there are no concrete inputs.
  std::optional<std::string_view> Concrete(std::size_t i) const {
    if (concrete == nullptr || i >= concrete->size())
      return std::nullopt;
    return std::string_view((*concrete)[i]);
  }
};

// ---- Concrete values (shape_model_parse.cc). -------------------------------------------------

// An int list "[16, 16]" (also "[]" and a bare "16", PyTorch's one-element form) of
// non-negative integers; nullopt for anything else ("", "same", "[-1]", "[1, x]").
std::optional<Dims> ParseIntList(std::string_view value);
// A non-negative integer "1"; nullopt for anything else.
Int ParseInt(std::string_view value);
// "True" / "False" (Python's repr); nullopt for anything else ("", "None", "1").
std::optional<bool> ParseBool(std::string_view value);

// ---- The op families: nullopt when `name` is not theirs or its arguments are not modelled. ----

std::optional<OpWork> ModelGemm(std::string_view name, const Args& a);         // _gemm.cc
std::optional<OpWork> ModelElementwise(std::string_view name, const Args& a);  // _elementwise.cc
std::optional<OpWork> ModelConvolution(std::string_view name, const Args& a);  // _conv.cc
std::optional<OpWork> ModelAttention(std::string_view name, const Args& a);    // _attention.cc

}  // namespace gpuperf::analysis::shape
