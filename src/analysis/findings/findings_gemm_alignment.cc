// GEMM kernels built for misaligned operands (docs/metrics.md, "Findings"): CUTLASS names carry
// the operands' alignment in elements ("_align1") and the architecture the kernel was built for
// ("cutlass_75_"). An alignment of less than 16 bytes means a dimension or leading dimension is
// not a multiple of 16 bytes' worth of elements, so the library picks a kernel without vectorised
// (or, from sm90 on, TMA) loads: often an older architecture's kernel on a newer GPU.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <string_view>
#include <utility>

#include "analysis/core/names.h"
#include "analysis/findings/findings.h"
#include "analysis/kernel/shape_model.h"

namespace gpuperf::analysis {
namespace {

// A full-width access: 16 bytes (128-bit loads, and the TMA's alignment).
constexpr std::int64_t kAlignedBytes = 16;

// How much faster the aligned kernel of the same GEMM runs: assumed (the trace holds no aligned
// twin to measure). Only the excess over it comes back, never the whole kernel.
constexpr double kAssumedAlignedSpeedup = 2.0;

// The number after `token` in `name` ("align" -> 1 in "..._nn_align1"), if digits follow it.
std::optional<int> NumberAfter(std::string_view name, std::string_view token) {
  std::size_t at = name.rfind(token);
  if (at == std::string_view::npos)
    return std::nullopt;
  std::size_t i = at + token.size();
  int value = 0;
  std::size_t digits = 0;
  while (i < name.size() && std::isdigit(static_cast<unsigned char>(name[i])) && digits < 4) {
    value = value * 10 + (name[i] - '0');
    ++i;
    ++digits;
  }
  return digits > 0 ? std::optional<int>(value) : std::nullopt;
}

// The operand element size of a CUTLASS GEMM name: its data-type tokens.
std::optional<int> ElementBytes(std::string_view name) {
  if (ContainsNoCase(name, "bf16") || ContainsNoCase(name, "f16") ||
      ContainsNoCase(name, "_h1688") || ContainsNoCase(name, "_h16816"))
    return 2;
  if (ContainsNoCase(name, "_i8") || ContainsNoCase(name, "_s8") || ContainsNoCase(name, "e4m3") ||
      ContainsNoCase(name, "e5m2"))
    return 1;
  if (ContainsNoCase(name, "f64") || ContainsNoCase(name, "_d884"))
    return 8;
  if (ContainsNoCase(name, "_s1688") || ContainsNoCase(name, "_s16816") ||
      ContainsNoCase(name, "tf32") || ContainsNoCase(name, "f32") || ContainsNoCase(name, "sgemm"))
    return 4;
  return std::nullopt;
}

struct Misaligned {
  int align = 0;          // elements
  int element_bytes = 0;  // bytes per element
  int arch = 0;           // "cutlass_75" -> 75; 0 when the name gives none
  std::int64_t instances = 0;
  std::int64_t total_ns = 0;
};

std::optional<Misaligned> ParseMisaligned(std::string_view name) {
  if (!ContainsNoCase(name, "cutlass") || !ContainsNoCase(name, "gemm"))
    return std::nullopt;
  std::optional<int> align = NumberAfter(name, "_align");
  std::optional<int> bytes = ElementBytes(name);
  if (!align || !bytes || *align <= 0 ||
      static_cast<std::int64_t>(*align) * *bytes >= kAlignedBytes)
    return std::nullopt;
  Misaligned m;
  m.align = *align;
  m.element_bytes = *bytes;
  m.arch = NumberAfter(name, "cutlass_").value_or(0);
  return m;
}

// The launches whose operators' recorded shapes hold the same matrix dimensions that are not a
// multiple of the aligned access (one launch can hold two: all of them need padding), with their
// time and operators.
struct UnalignedSet {
  std::vector<std::int64_t> values;  // ascending
  std::int64_t multiple = 0;         // elements per 16 bytes
  std::int64_t time_ns = 0;
  std::int64_t launches = 0;
  std::map<model::NameId, std::int64_t> op_ns;
};

// The last two dimensions of each tensor argument of at least two dimensions (a GEMM's rows and
// columns, which set its leading dimensions; a batch dimension does not), those that are not a
// multiple of `multiple`, ascending, once each.
std::vector<std::int64_t> UnalignedDims(const InputDims& dims, std::int64_t multiple) {
  std::vector<std::int64_t> out;
  for (const auto& tensor : dims) {
    if (!tensor || tensor->size() < 2)
      continue;
    for (std::size_t i = tensor->size() - 2; i < tensor->size(); ++i) {
      std::int64_t d = (*tensor)[i];
      if (d > 1 && d % multiple != 0 && std::find(out.begin(), out.end(), d) == out.end())
        out.push_back(d);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// "aten::bmm" or "CompiledFunctionBackward and 1 more operator", the one with the most time
// first; a region (an operator that is no aten:: GEMM, such as a compiled function) is said to
// hold the GEMM, whose own operands may differ.
std::string OperatorsText(const model::Trace& trace, const UnalignedSet& set) {
  model::NameId top = set.op_ns.begin()->first;
  std::int64_t most = -1;
  bool region = false;
  for (const auto& [op, ns] : set.op_ns) {
    if (ns > most || (ns == most && trace.Name(op) < trace.Name(top))) {
      top = op;
      most = ns;
    }
    region = region || trace.Name(op).rfind("aten::", 0) != 0;
  }
  std::string text(trace.Name(top));
  if (set.op_ns.size() > 1)
    text += fmt::format(
        " and {} more operator{}", set.op_ns.size() - 1, set.op_ns.size() == 2 ? "" : "s");
  if (region)
    text += ", a region's inputs: the GEMM's own operands may differ";
  return text;
}

// "; and 3 more sets (48 launches, 4.52 ms)": the sets after the first `named`.
std::string RestText(const std::vector<const UnalignedSet*>& sorted, std::size_t named) {
  std::int64_t launches = 0, time_ns = 0;
  for (std::size_t i = named; i < sorted.size(); ++i) {
    launches += sorted[i]->launches;
    time_ns += sorted[i]->time_ns;
  }
  return fmt::format("; and {} more sets ({} launch{}, {})",
                     sorted.size() - named,
                     launches,
                     launches == 1 ? "" : "es",
                     Ms(time_ns));
}

// " The operators that launched them recorded shapes ...: 2798 (pad to 2800; ...), ..." or, when
// no launch's operator recorded shapes, what would name the dimensions.
std::string UnalignedDimsText(const model::Trace& trace,
                              const std::map<std::vector<std::int64_t>, UnalignedSet>& sets,
                              std::int64_t launches_with_shapes,
                              std::int64_t launches) {
  // Shapes are PyTorch's to record: another source is not asked for them.
  if (launches_with_shapes == 0 && !trace.metadata.framework_profiler)
    return "";
  if (launches_with_shapes == 0)
    return " No launching operator recorded shapes (PyTorch's record_shapes=True; launches "
           "from a thread without operators, such as autograd's, have none), so the dimensions "
           "to pad are not named.";
  if (sets.empty())
    return "";
  std::vector<const UnalignedSet*> sorted;
  for (const auto& [values, set] : sets)
    sorted.push_back(&set);
  std::sort(sorted.begin(), sorted.end(), [](const UnalignedSet* a, const UnalignedSet* b) {
    return std::tie(b->time_ns, a->values) < std::tie(a->time_ns, b->values);
  });
  constexpr std::size_t kSetsNamed = 4;
  std::string list;
  for (std::size_t i = 0; i < sorted.size() && i < kSetsNamed; ++i) {
    const UnalignedSet& set = *sorted[i];
    std::vector<std::int64_t> padded;
    for (std::int64_t v : set.values)
      padded.push_back((v + set.multiple - 1) / set.multiple * set.multiple);
    list += fmt::format("{}{} (pad to {}; {}; {} launch{}, {})",
                        list.empty() ? "" : "; ",
                        fmt::join(set.values, " and "),
                        fmt::join(padded, " and "),
                        OperatorsText(trace, set),
                        set.launches,
                        set.launches == 1 ? "" : "es",
                        Ms(set.time_ns));
  }
  return fmt::format(
      " The operators that launched {} of them recorded shapes whose matrix dimensions are not a "
      "multiple of the aligned access, by the launches that hold each set (one of them sets a "
      "leading dimension; pad all of a set): {}{} (trace: record_shapes, each tensor's last two "
      "dimensions).",
      launches_with_shapes == launches
          ? fmt::format("all {}", launches)
          : fmt::format("{} of the {}", launches_with_shapes, launches),
      list,
      sorted.size() > kSetsNamed ? RestText(sorted, kSetsNamed) : std::string());
}

}  // namespace

std::optional<report::Finding> GemmAlignmentRule(const RuleInput& in) {
  PerName<std::optional<Misaligned>> decided(in.trace);  // each name parsed once
  std::int64_t kernel_ns = 0;
  std::int32_t device_cc = 0;  // the GPUs' highest compute capability, major * 10 + minor
  for (const model::Device& d : in.trace.devices)
    device_cc = std::max(device_cc, d.compute_major * 10 + d.compute_minor);
  // The steady-state window's launches (after a pre-roll, a start-up or warm-up steps left out);
  // those before it are counted apart.
  std::vector<std::size_t> launches;
  std::int64_t before_count = 0, before_ns = 0;
  for (std::size_t i = 0; i < in.trace.activities.size(); ++i) {
    const model::GpuActivity& a = in.trace.activities[i];
    if (a.kind != model::ActivityKind::kKernel)
      continue;
    bool before = a.start_ns < in.steady_start_ns;
    if (!before)
      kernel_ns += a.duration_ns();
    bool fresh = false;
    std::optional<Misaligned>& m = decided.At(a.name, &fresh);
    if (fresh)
      m = ParseMisaligned(in.trace.Name(a.name));
    if (!m)
      continue;
    if (before) {
      ++before_count;
      before_ns += a.duration_ns();
      continue;
    }
    ++m->instances;
    m->total_ns += a.duration_ns();
    launches.push_back(i);
  }
  std::vector<std::pair<model::NameId, Misaligned>> sorted;
  for (const auto& [name, m] : decided.Entries()) {
    if (m && m->instances > 0)
      sorted.emplace_back(name, *m);
  }
  if (sorted.empty() || kernel_ns <= 0)
    return std::nullopt;
  std::sort(sorted.begin(), sorted.end(), [&](const auto& a, const auto& b) {
    if (a.second.total_ns != b.second.total_ns)
      return a.second.total_ns > b.second.total_ns;
    return in.trace.Name(a.first) < in.trace.Name(b.first);
  });
  report::Finding f;
  f.id = report::finding_id::kGemmMisaligned;
  f.title = "GEMMs on kernels for misaligned operands";
  f.source = "trace";
  std::int64_t older = 0;  // of the time: kernels built for an older architecture than the GPU
  std::int64_t recoverable = 0;
  std::int64_t capped = 0;  // kernels whose roofline floor leaves less than the assumption
  std::string floor_evidence;
  for (const auto& [name, m] : sorted) {
    f.count += m.instances;
    f.time_ns += m.total_ns;
    if (m.arch > 0 && device_cc > 0 && m.arch < device_cc)
      older += m.total_ns;
    auto back = static_cast<std::int64_t>(static_cast<double>(m.total_ns) *
                                          (1.0 - 1.0 / kAssumedAlignedSpeedup));
    if (in.kernel_floors) {
      if (auto it = in.kernel_floors->find(std::string(in.trace.Name(name)));
          it != in.kernel_floors->end()) {
        std::int64_t floor = std::max(it->second.floor_ns, m.instances * kMinKernelLatencyNs);
        if (std::int64_t above = std::max<std::int64_t>(0, m.total_ns - floor); above < back) {
          back = above;
          ++capped;
          if (floor_evidence.empty() || floor_evidence == ToString(it->second.evidence))
            floor_evidence = ToString(it->second.evidence);
          else
            floor_evidence = "mixed";
        }
      }
    }
    recoverable += back;
  }
  f.recoverable_ns = recoverable;
  // The ceiling beside the estimate: the kernels' whole time, which no change removes.
  std::string ceiling;
  if (in.idle && in.idle->steady_window_ns > f.time_ns)
    ceiling = fmt::format(
        " Their whole time would bound the gain at {:.2f}x (Amdahl over the steady-state window), "
        "a ceiling no change reaches: the aligned kernels still take time.",
        1.0 / (1.0 -
               static_cast<double>(f.time_ns) / static_cast<double>(in.idle->steady_window_ns)));
  f.recoverable_basis = fmt::format(
      "the aligned kernels assumed {:.0f}x faster{}",
      kAssumedAlignedSpeedup,
      capped > 0
          ? fmt::format(", {} of them capped at their {} roofline floor", capped, floor_evidence)
          : std::string());
  double share = static_cast<double>(f.time_ns) / static_cast<double>(kernel_ns);
  f.severity = share >= 0.05 ? report::Severity::kWarning : report::Severity::kInfo;
  f.summary = fmt::format(
      "{} launch{} of {} CUTLASS GEMM kernel{} ({}, {:.1f}% of the kernel time{}) {} built for "
      "operands aligned to fewer than 16 bytes (alignN in the name: N elements per access): a "
      "matrix dimension or leading dimension is not a multiple of 16 bytes' worth of elements, "
      "so the library could not pick a kernel with full-width (128-bit) loads{} (trace: kernel "
      "names).",
      f.count,
      f.count == 1 ? "" : "es",
      sorted.size(),
      sorted.size() == 1 ? "" : "s",
      Ms(f.time_ns),
      100.0 * share,
      before_count > 0 ? " in the steady-state window" : "",
      f.count == 1 ? "is" : "are",
      older > 0 ? fmt::format("; {} of it runs kernels built for an older architecture than "
                              "the GPU's (sm{}), without its newer instructions",
                              Ms(older),
                              device_cc)
                : std::string());
  f.summary += ceiling;
  // Which dimensions to pad: the launching operators' recorded shapes.
  std::map<std::vector<std::int64_t>, UnalignedSet> sets;
  std::int64_t with_shapes = 0;
  if (!launches.empty()) {
    std::vector<std::int64_t> own;
    if (!in.launching_ops)
      own = LaunchingHostOps(in.trace, in.index);
    const std::vector<std::int64_t>& launching = in.launching_ops ? *in.launching_ops : own;
    std::map<model::NameId, std::optional<InputDims>> parsed;
    for (std::size_t i : launches) {
      std::int64_t op = i < launching.size() ? launching[i] : -1;
      if (op < 0)
        continue;
      const model::HostOp& host = in.trace.host_ops[static_cast<std::size_t>(op)];
      if (host.input_dims == 0)
        continue;
      auto [it, fresh] = parsed.try_emplace(host.input_dims);
      if (fresh)
        it->second = ParseInputDims(in.trace.Name(host.input_dims));
      if (!it->second)
        continue;
      const model::GpuActivity& a = in.trace.activities[i];
      const Misaligned& m = *decided.At(a.name);
      ++with_shapes;
      std::int64_t multiple = kAlignedBytes / m.element_bytes;
      std::vector<std::int64_t> values = UnalignedDims(*it->second, multiple);
      if (values.empty())
        continue;
      UnalignedSet& set = sets[values];
      set.values = values;
      set.multiple = multiple;
      set.time_ns += a.duration_ns();
      ++set.launches;
      set.op_ns[host.name] += a.duration_ns();
    }
  }
  f.summary += UnalignedDimsText(in.trace, sets, with_shapes, f.count);
  if (before_count > 0)
    f.summary += fmt::format(
        " {} more launch{} ({}) {} before the steady-state window, left out (a start-up, warm-up "
        "steps, the previous step's tail).",
        before_count,
        before_count == 1 ? "" : "es",
        Ms(before_ns),
        before_count == 1 ? "lies" : "lie");
  f.advice =
      "Pad the GEMM dimensions (K, N and the leading dimensions: hidden size, head dimension, "
      "vocabulary, sequence length) to multiples of 8 elements for fp16/bf16 (4 for fp32/tf32, "
      "16 for int8/fp8) so that cuBLAS/CUTLASS can use its aligned kernels; for eager attention, "
      "scaled_dot_product_attention pads internally. Only the kernels' time above what the "
      "aligned kernel takes comes back.";
  f.columns = {{"Kernel"},
               {"Instances"},
               {"Total (ns)", report::ColumnUnit::kDurationNs},
               {"Alignment (elements)"},
               {"Access (bytes)"},
               {"Built for"}};
  std::vector<report::FindingRow> rows;
  for (const auto& [name, m] : sorted) {
    rows.push_back({{std::string(in.trace.Name(name)),
                     std::to_string(m.instances),
                     std::to_string(m.total_ns),
                     std::to_string(m.align),
                     std::to_string(m.align * m.element_bytes),
                     m.arch > 0 ? fmt::format("sm{}", m.arch) : std::string("-")}});
  }
  SetRows(f, std::move(rows), in.options.finding_rows);
  return f;
}

}  // namespace gpuperf::analysis
