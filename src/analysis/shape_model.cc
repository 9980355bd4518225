#include "analysis/shape_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <utility>

#include "analysis/roofline.h"

namespace gpuperf::analysis {
namespace {

using model::MathUnit;
using model::Precision;
using Dims = std::vector<std::int64_t>;

// ---- Checked arithmetic: a shape whose work overflows int64 is not modelled. ----------------

std::optional<std::int64_t> Mul(std::optional<std::int64_t> a, std::optional<std::int64_t> b) {
  std::int64_t out = 0;
  if (!a || !b || __builtin_mul_overflow(*a, *b, &out))
    return std::nullopt;
  return out;
}

std::optional<std::int64_t> Add(std::optional<std::int64_t> a, std::optional<std::int64_t> b) {
  std::int64_t out = 0;
  if (!a || !b || __builtin_add_overflow(*a, *b, &out))
    return std::nullopt;
  return out;
}

std::optional<std::int64_t> Product(const Dims& dims, std::size_t begin, std::size_t end) {
  std::optional<std::int64_t> p = 1;
  for (std::size_t i = begin; i < end && i < dims.size(); ++i)
    p = Mul(p, dims[i]);
  return p;
}

// ---- A minimal reader for the compact JSON of "Input Dims" / "Input type". ------------------

class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}
  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\t' || text_[pos_] == '\r'))
      ++pos_;
  }
  bool Eat(char c) {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  char Peek() {
    SkipSpace();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  bool AtEnd() {
    SkipSpace();
    return pos_ == text_.size();
  }
  // A non-negative integer literal.
  std::optional<std::int64_t> Integer() {
    SkipSpace();
    std::int64_t value = 0;
    std::size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      if (__builtin_mul_overflow(value, 10, &value) ||
          __builtin_add_overflow(value, text_[pos_] - '0', &value))
        return std::nullopt;
      ++pos_;
    }
    if (pos_ == start)
      return std::nullopt;
    return value;
  }
  // A JSON string; escapes other than \" and \\ are kept as written.
  std::optional<std::string> String() {
    if (!Eat('"'))
      return std::nullopt;
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size() &&
          (text_[pos_ + 1] == '"' || text_[pos_ + 1] == '\\'))
        ++pos_;
      out += text_[pos_++];
    }
    if (pos_ == text_.size())
      return std::nullopt;
    ++pos_;
    return out;
  }
  // Skips any one JSON value; false when malformed.
  bool SkipValue() {
    char c = Peek();
    if (c == '"')
      return String().has_value();
    if (c == '[' || c == '{') {
      char close = c == '[' ? ']' : '}';
      ++pos_;
      if (Eat(close))
        return true;
      do {
        if (c == '{' && (!String() || !Eat(':')))
          return false;
        if (!SkipValue())
          return false;
      } while (Eat(','));
      return Eat(close);
    }
    std::size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != ']' && text_[pos_] != '}' &&
           text_[pos_] != ' ')
      ++pos_;
    return pos_ > start;
  }
  // One "Input Dims" entry: a flat list of integers, or nullopt (after skipping it) for anything
  // else. Sets *ok false when malformed.
  std::optional<Dims> DimsEntry(bool* ok) {
    std::size_t start = pos_;
    if (Peek() == '[') {
      ++pos_;
      Dims dims;
      bool flat = true;
      if (!Eat(']')) {
        do {
          auto value = Integer();
          if (!value) {
            flat = false;
            break;
          }
          dims.push_back(*value);
        } while (Eat(','));
        flat = flat && Eat(']');
      }
      if (flat)
        return dims;
      pos_ = start;
    }
    *ok = SkipValue();
    return std::nullopt;
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

// ---- Types. -----------------------------------------------------------------------------------

struct FloatType {
  std::string_view name;
  std::int64_t bytes;
  Precision gemm_precision;
  MathUnit gemm_unit;
  Precision opmath;  // PyTorch's at::opmath_type: what elementwise kernels compute in
};

// The floating-point tensor types as the profiler names them (c10 TypeMeta names).
constexpr std::array<FloatType, 4> kFloatTypes = {{
    {"float", 4, Precision::kFp32, MathUnit::kVector, Precision::kFp32},
    {"double", 8, Precision::kFp64, MathUnit::kVector, Precision::kFp64},
    {"c10::Half", 2, Precision::kFp16, MathUnit::kTensor, Precision::kFp32},
    {"c10::BFloat16", 2, Precision::kBf16, MathUnit::kTensor, Precision::kFp32},
}};

const FloatType* FindFloatType(std::string_view name) {
  for (const FloatType& t : kFloatTypes) {
    if (t.name == name)
      return &t;
  }
  return nullptr;
}

// Argument types that are not tensors.
bool IsNonTensorType(std::string_view type) {
  return type.empty() || type == "Scalar" || type == "ScalarList" || type == "GenericList" ||
         type == "None";
}

// ---- GEMMs. -----------------------------------------------------------------------------------

struct Args {
  const InputDims& dims;
  const std::vector<std::string>& types;
  const Dims* Tensor(std::size_t i) const {
    return i < dims.size() && dims[i] ? &*dims[i] : nullptr;
  }
  std::string_view Type(std::size_t i) const {
    return i < types.size() ? std::string_view(types[i]) : std::string_view();
  }
};

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
  if (type == nullptr || type_a != type_b || b < 0 || m < 0 || n < 0 || k < 0)
    return std::nullopt;
  std::optional<std::int64_t> mn = Mul(m, n);
  std::optional<std::int64_t> flops =
      Mul(b, Add(Mul(Mul(2, mn), k), bias ? mn : std::optional<std::int64_t>(0)));
  std::optional<std::int64_t> elements =
      Mul(b, Add(Add(Add(Mul(m, k), Mul(k, n)), mn), bias ? n : 0));
  std::optional<std::int64_t> bytes = Mul(elements, type->bytes);
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
  w.precision = type->gemm_precision;
  w.unit = type->gemm_unit;
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
  std::optional<std::int64_t> b = 1;
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

// ---- Elementwise. -----------------------------------------------------------------------------

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
  w.unit = MathUnit::kVector;
  return w;
}

std::optional<OpWork> Dispatch(std::string_view name, const Args& a) {
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
  if (std::find(kElementwise.begin(), kElementwise.end(), name) != kElementwise.end())
    return Elementwise(a);
  return std::nullopt;
}

struct ThreadKey {
  std::int64_t pid, tid;
  auto operator<=>(const ThreadKey&) const = default;
};

}  // namespace

std::optional<InputDims> ParseInputDims(std::string_view json) {
  Cursor c(json);
  if (!c.Eat('['))
    return std::nullopt;
  InputDims out;
  if (c.Eat(']'))
    return c.AtEnd() ? std::optional<InputDims>(out) : std::nullopt;
  do {
    bool ok = true;
    out.push_back(c.DimsEntry(&ok));
    if (!ok)
      return std::nullopt;
  } while (c.Eat(','));
  if (!c.Eat(']') || !c.AtEnd())
    return std::nullopt;
  return out;
}

std::optional<std::vector<std::string>> ParseInputTypes(std::string_view json) {
  Cursor c(json);
  if (!c.Eat('['))
    return std::nullopt;
  std::vector<std::string> out;
  if (c.Eat(']'))
    return c.AtEnd() ? std::optional(out) : std::nullopt;
  do {
    auto s = c.String();
    if (!s)
      return std::nullopt;
    out.push_back(std::move(*s));
  } while (c.Eat(','));
  if (!c.Eat(']') || !c.AtEnd())
    return std::nullopt;
  return out;
}

std::optional<OpWork> ModelOp(std::string_view name,
                              std::string_view input_dims,
                              std::string_view input_types) {
  auto dims = ParseInputDims(input_dims);
  auto types = ParseInputTypes(input_types);
  if (!dims || !types || dims->size() != types->size())
    return std::nullopt;
  return Dispatch(name, Args{*dims, *types});
}

std::vector<std::int64_t> LaunchingHostOps(const model::Trace& trace,
                                           const CorrelationIndex& index) {
  std::vector<std::int64_t> out(trace.activities.size(), -1);
  // The launch call of every kernel, by thread.
  std::map<ThreadKey, std::vector<std::pair<std::size_t, std::size_t>>> calls;  // (call, kernel)
  for (std::size_t i = 0; i < trace.activities.size(); ++i) {
    const model::GpuActivity& a = trace.activities[i];
    if (a.kind != model::ActivityKind::kKernel || a.correlation == model::kNoId)
      continue;
    std::int64_t call = index.PrimaryCall(a.correlation, a.pid);
    if (call < 0)
      continue;
    const model::ApiCall& c = trace.api_calls[static_cast<std::size_t>(call)];
    calls[{c.pid, c.tid}].emplace_back(static_cast<std::size_t>(call), i);
  }
  if (calls.empty())
    return out;
  std::map<ThreadKey, std::vector<std::size_t>> ops;
  for (std::size_t i = 0; i < trace.host_ops.size(); ++i) {
    const model::HostOp& o = trace.host_ops[i];
    ThreadKey key{o.pid, o.tid};
    if (calls.count(key))
      ops[key].push_back(i);
  }
  for (auto& [key, thread_calls] : calls) {
    auto it = ops.find(key);
    if (it == ops.end())
      continue;
    std::vector<std::size_t>& thread_ops = it->second;
    // Outer before inner: by start, then the longer first, then trace order.
    std::stable_sort(thread_ops.begin(), thread_ops.end(), [&](std::size_t l, std::size_t r) {
      const model::HostOp& a = trace.host_ops[l];
      const model::HostOp& b = trace.host_ops[r];
      return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns > b.end_ns;
    });
    std::stable_sort(thread_calls.begin(), thread_calls.end(), [&](auto l, auto r) {
      return trace.api_calls[l.first].start_ns < trace.api_calls[r.first].start_ns;
    });
    std::vector<std::size_t> open;  // the ops that may still contain what comes next
    std::size_t next = 0;
    for (const auto& [call_index, kernel] : thread_calls) {
      const model::ApiCall& call = trace.api_calls[call_index];
      while (next < thread_ops.size() &&
             trace.host_ops[thread_ops[next]].start_ns <= call.start_ns) {
        const model::HostOp& op = trace.host_ops[thread_ops[next]];
        while (!open.empty() && trace.host_ops[open.back()].end_ns < op.start_ns)
          open.pop_back();
        open.push_back(thread_ops[next++]);
      }
      while (!open.empty() && trace.host_ops[open.back()].end_ns < call.start_ns)
        open.pop_back();
      // The innermost open op that contains the whole call (ops need not nest perfectly).
      for (auto op = open.rbegin(); op != open.rend(); ++op) {
        if (trace.host_ops[*op].end_ns >= call.end_ns) {
          out[kernel] = static_cast<std::int64_t>(*op);
          break;
        }
      }
    }
  }
  return out;
}

std::vector<ModeledOp> ModelHostOps(const model::Trace& trace, const CorrelationIndex& index) {
  std::vector<std::int64_t> launching = LaunchingHostOps(trace, index);
  std::map<std::size_t, std::vector<std::size_t>> kernels_of;  // host op -> its kernels
  for (std::size_t i = 0; i < launching.size(); ++i) {
    if (launching[i] >= 0)
      kernels_of[static_cast<std::size_t>(launching[i])].push_back(i);
  }
  std::vector<ModeledOp> out;
  for (auto& [op_index, kernels] : kernels_of) {
    const model::HostOp& op = trace.host_ops[op_index];
    if (op.input_dims == 0 || op.input_types == 0)
      continue;
    auto work = ModelOp(trace.Name(op.name), trace.Name(op.input_dims), trace.Name(op.input_types));
    if (!work)
      continue;
    std::size_t target = kernels.front();
    for (std::size_t k : kernels) {
      if (trace.activities[k].duration_ns() > trace.activities[target].duration_ns())
        target = k;
    }
    out.push_back({op_index, std::move(*work), std::move(kernels), target});
  }
  return out;
}

void AttachModeledRooflines(const model::Trace& trace,
                            const CorrelationIndex& index,
                            std::vector<report::KernelRow>& kernels,
                            std::vector<std::string>& notes) {
  if (trace.host_ops.empty())
    return;
  std::set<std::string> open_rows;  // kernel names without a (measured) roofline
  for (const report::KernelRow& row : kernels) {
    if (!row.roofline)
      open_rows.insert(row.name);
  }
  std::map<std::string, std::vector<InstanceWork>> by_name;
  std::map<std::string, std::int32_t> device_of;
  std::int64_t ops = 0;
  for (const ModeledOp& op : ModelHostOps(trace, index)) {
    const model::GpuActivity& a = trace.activities[op.target];
    std::string name(trace.Name(a.name));
    if (!open_rows.count(name))
      continue;
    ++ops;
    std::map<PrecisionUnit, double> flops{
        {{op.work.precision, op.work.unit}, static_cast<double>(op.work.flops)}};
    by_name[name].push_back({a.duration_ns(), flops, static_cast<double>(op.work.bytes)});
    device_of.emplace(name, a.device);
  }
  if (by_name.empty())
    return;
  std::map<std::int32_t, model::CeilingMatch> matches;
  for (const auto& [name, device] : device_of) {
    if (!matches.count(device))
      matches[device] = DeviceCeilingMatch(trace, device);
  }
  for (report::KernelRow& row : kernels) {
    auto it = by_name.find(row.name);
    if (it == by_name.end() || row.roofline)
      continue;
    row.roofline = RooflineFromWork(it->second, matches[device_of[row.name]].entry);
    row.roofline->evidence = "modeled";
  }
  std::string ceilings;
  for (const auto& [device, match] : matches) {
    ceilings += fmt::format(
        "{}device {}: {}",
        ceilings.empty() ? "" : "; ",
        device,
        match.entry ? fmt::format("datasheet {} ({})", match.entry->key, match.entry->source)
                    : "no datasheet ceilings (" + match.reason + ")");
  }
  notes.push_back(fmt::format(
      "roofline (modeled): {} kernel names without counters get FLOPs and bytes from the shapes "
      "of the {} PyTorch ops that launched them (evidence \"modeled\"; docs/metrics.md, \"Shape "
      "models\"); an op's work goes to its longest kernel. Bytes are the operands' sizes, not "
      "DRAM traffic; fp16/bf16 GEMMs are assumed to run on tensor cores. Ceilings: {}.",
      by_name.size(),
      ops,
      ceilings));
}

}  // namespace gpuperf::analysis
