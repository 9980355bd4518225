// GEMM kernels built for misaligned operands (docs/metrics.md, "Findings"): CUTLASS names carry
// the operands' alignment in elements ("_align1") and the architecture the kernel was built for
// ("cutlass_75_"). An alignment of less than 16 bytes means a dimension or leading dimension is
// not a multiple of 16 bytes' worth of elements, so the library picks a kernel without vectorised
// (or, from sm90 on, TMA) loads: often an older architecture's kernel on a newer GPU.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>

#include "analysis/core/names.h"
#include "analysis/findings/findings.h"

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

}  // namespace

std::optional<report::Finding> GemmAlignmentRule(const RuleInput& in) {
  PerName<std::optional<Misaligned>> decided(in.trace);  // each name parsed once
  std::int64_t kernel_ns = 0;
  std::int32_t device_cc = 0;  // the GPUs' highest compute capability, major * 10 + minor
  for (const model::Device& d : in.trace.devices)
    device_cc = std::max(device_cc, d.compute_major * 10 + d.compute_minor);
  for (const model::GpuActivity& a : in.trace.activities) {
    if (a.kind != model::ActivityKind::kKernel)
      continue;
    kernel_ns += a.duration_ns();
    bool fresh = false;
    std::optional<Misaligned>& m = decided.At(a.name, &fresh);
    if (fresh)
      m = ParseMisaligned(in.trace.Name(a.name));
    if (!m)
      continue;
    ++m->instances;
    m->total_ns += a.duration_ns();
  }
  std::vector<std::pair<model::NameId, Misaligned>> sorted;
  for (const auto& [name, m] : decided.Entries()) {
    if (m)
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
      "{} launches of {} CUTLASS GEMM kernels ({}, {:.1f}% of kernel time) are built for "
      "operands aligned to fewer than 16 bytes (alignN in the name: N elements per access): a "
      "matrix dimension or leading dimension is not a multiple of 16 bytes' worth of elements, "
      "so the library could not pick a kernel with full-width (128-bit) loads{} (trace: kernel "
      "names).",
      f.count,
      sorted.size(),
      Ms(f.time_ns),
      100.0 * share,
      older > 0 ? fmt::format("; {} of it runs kernels built for an older architecture than "
                              "the GPU's (sm{}), without its newer instructions",
                              Ms(older),
                              device_cc)
                : std::string());
  f.summary += ceiling;
  f.advice =
      "Pad the GEMM dimensions (K, N and the leading dimensions: hidden size, head dimension, "
      "vocabulary, sequence length) to multiples of 8 elements for fp16/bf16 (4 for fp32/tf32, "
      "16 for int8/fp8) so that cuBLAS/CUTLASS can use its aligned kernels; for eager attention, "
      "scaled_dot_product_attention pads internally. Only the kernels' time above what the "
      "aligned kernel takes comes back.";
  f.columns = {
      "Kernel", "Instances", "Total (ns)", "Alignment (elements)", "Access (bytes)", "Built for"};
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
