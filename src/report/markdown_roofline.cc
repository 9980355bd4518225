// report.md's roofline table: one row per kernel name with hardware counters or a shape model.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/markdown_escape.h"
#include "report/markdown_sections.h"
#include "report/markdown_table.h"
#include "report/roofline_svg.h"
#include "report/row_order.h"
#include "util/units_format.h"

namespace gpuperf::report::markdown {
namespace {

// Three significant digits with a decimal SI prefix: 6.87e13 FLOP -> "68.7 TFLOP".
std::string Si(double value, const char* unit) {
  static constexpr const char* kPrefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  std::size_t prefix = 0;
  double scaled = std::fabs(value);
  while (scaled >= 999.5 && prefix + 1 < std::size(kPrefixes)) {
    scaled /= 1000;
    ++prefix;
  }
  int decimals = scaled >= 99.95 ? 0 : scaled >= 9.995 ? 1 : 2;
  return fmt::format(
      "{:.{}f} {}{}", value < 0 ? -scaled : scaled, decimals, kPrefixes[prefix], unit);
}

std::string Or(const std::optional<double>& value, const char* unit) {
  return value ? Si(*value, unit) : "n/a";
}

std::string Precision(const KernelRoofline& r) {
  std::string modeled = r.evidence == EvidenceTier::kModeled ? " (modeled)" : "";
  if (r.precision.empty())
    return "n/a" + modeled;
  return (r.unit.empty() ? r.precision : r.precision + " " + r.unit) + modeled;
}

// "% of roof": one roof, or for an unnamed GPU the compute / DRAM fractions over the candidates.
std::string RoofText(const KernelRoofline& r) {
  if (r.roof_fraction)
    return util::FormatPercent(100.0 * *r.roof_fraction);
  auto range = [](const std::optional<std::pair<double, double>>& v) {
    if (!v)
      return std::string("n/a");
    if (std::abs(v->second - v->first) < 0.0005)
      return fmt::format("{:.1f}%", 100.0 * v->first);
    return fmt::format("{:.1f}-{:.1f}%", 100.0 * v->first, 100.0 * v->second);
  };
  if (r.compute_fraction_range || r.memory_fraction_range)
    return "compute " + range(r.compute_fraction_range) + ", DRAM " +
           range(r.memory_fraction_range);
  return "n/a";
}

// L2 and L1 traffic and intensities (lts__t_bytes.sum, l1tex__t_bytes.sum) where counted.
void AppendCacheLevels(std::string& out,
                       const std::vector<const KernelRow*>& rows,
                       std::size_t shown,
                       const MarkdownOptions& options) {
  MarkdownTable table({{"#", Align::kRight},
                       {"kernel"},
                       {"L2 bytes", Align::kRight},
                       {"L2 FLOP/byte", Align::kRight},
                       {"L2 / DRAM bytes", Align::kRight},
                       {"L1 bytes", Align::kRight},
                       {"L1 FLOP/byte", Align::kRight}});
  bool any = false;
  auto ratio = [](const std::optional<double>& v) {
    return v ? fmt::format("{:.3g}", *v) : std::string("n/a");
  };
  for (std::size_t i = 0; i < shown; ++i) {
    const KernelRoofline& r = *rows[i]->roofline;
    if (!r.l2_bytes && !r.l1_bytes)
      continue;
    any = true;
    table.AddRow({std::to_string(i + 1),
                  Shorten(rows[i]->name, options.name_chars),
                  Or(r.l2_bytes, "B"),
                  ratio(r.l2_arithmetic_intensity),
                  ratio(r.l2_over_dram_bytes),
                  Or(r.l1_bytes, "B"),
                  ratio(r.l1_arithmetic_intensity)});
  }
  if (!any)
    return;
  out +=
      "### Cache levels (hardware counters)\n\n"
      "Traffic through L2 (`lts__t_bytes.sum`) and L1/TEX (`l1tex__t_bytes.sum`) "
      "and the FLOPs over it: a kernel far below both roofs that moves many times its DRAM "
      "bytes through the caches waits on the cache hierarchy, not on DRAM. No cache roofs: "
      "the datasheets give none.\n\n";
  out += table.Render() + "\n";
}

}  // namespace

void AppendRoofline(std::string& out,
                    const AnalysisReport& report,
                    const MarkdownOptions& options) {
  std::vector<const KernelRow*> rows;
  for (const KernelRow* row : KernelsByTotalTime(report.kernels)) {
    if (row->roofline)
      rows.push_back(row);
  }
  if (rows.empty())
    return;
  auto modeled = std::count_if(rows.begin(), rows.end(), [](const KernelRow* row) {
    return row->roofline->evidence == EvidenceTier::kModeled;
  });
  out += modeled == 0 ? "## Roofline (hardware counters)\n\n"
         : static_cast<std::size_t>(modeled) == rows.size()
             ? "## Roofline (shape models)\n\n"
             : "## Roofline (hardware counters and shape models)\n\n";
  if (static_cast<std::size_t>(modeled) < rows.size()) {
    out += fmt::format(
        "FLOPs and DRAM bytes are Nsight Compute counters summed over each kernel's instances with "
        "counters; roofs are the peaks (datasheet or measured: see \"Ceilings used\") for the "
        "precision the kernel spends most time on. "
        "\"latency\": under {} of both roofs; \"cache\": that, with L1/TEX or L2 traffic "
        "many times the DRAM bytes at under one FLOP per byte of it (no on-chip reuse). "
        "Formulas: `docs/metrics.md`, \"Roofline\".\n\n",
        util::FormatPercent(100.0 * kLatencyBoundFraction));
  } else {
    out += fmt::format(
        "Roofs are the peaks (datasheet or measured: see \"Ceilings used\") for the precision of "
        "the modelled work. \"latency\": under {} "
        "of both roofs. Formulas: `docs/metrics.md`, \"Roofline\".\n\n",
        util::FormatPercent(100.0 * kLatencyBoundFraction));
  }
  if (modeled > 0) {
    out +=
        "Rows marked \"(modeled)\" have no counters: their FLOPs and bytes come from the user "
        "model file (`--model`) or from the recorded shapes of the PyTorch ops that launched them "
        "(operand bytes, not DRAM counters; fp16/bf16 GEMMs, convolutions and attention assumed "
        "to run on tensor cores, fp32 cuDNN convolutions allowed TF32 on TF32 tensor cores). The "
        "notes say which source each row used. Formulas: `docs/metrics.md`, \"Shape models\" and "
        "\"User model file\".\n\n";
  }
  // The CLI writes roofline.svg beside report.md under the same predicate.
  if (HasRooflineChart(report))
    out += "![Roofline chart of the hot kernels](roofline.svg)\n\n";
  MarkdownTable table({{"#", Align::kRight},
                       {"kernel"},
                       {"instances", Align::kRight},
                       {"precision"},
                       {"FLOPs", Align::kRight},
                       {"DRAM bytes", Align::kRight},
                       {"FLOP/byte", Align::kRight},
                       {"achieved", Align::kRight},
                       {"bandwidth", Align::kRight},
                       {"% of roof", Align::kRight},
                       {"floor", Align::kRight},
                       {"bound"}});
  std::size_t shown = std::min(rows.size(), options.top_rows);
  for (std::size_t i = 0; i < shown; ++i) {
    const KernelRoofline& r = *rows[i]->roofline;
    table.AddRow({std::to_string(i + 1),
                  Shorten(rows[i]->name, options.name_chars),
                  util::FormatCount(r.instances),
                  Precision(r),
                  Or(r.flops, ""),
                  Or(r.dram_bytes, "B"),
                  r.arithmetic_intensity ? fmt::format("{:.3g}", *r.arithmetic_intensity) : "n/a",
                  Or(r.achieved_flops_per_s, "FLOP/s"),
                  Or(r.achieved_bytes_per_s, "B/s"),
                  RoofText(r),
                  r.floor_ns ? util::FormatDuration(static_cast<double>(*r.floor_ns)) : "n/a",
                  std::string(ToString(r.shown_bound))});
  }
  out += table.Render() + "\n";
  AppendShownNote(
      out, shown, rows.size(), modeled > 0 ? "kernels with a roofline" : "kernels with counters");
  if (std::any_of(rows.begin(), rows.end(), [](const KernelRow* row) {
        return !row->roofline->ceiling_candidates.empty();
      })) {
    out +=
        "The trace does not name the GPU: \"% of roof\" gives the compute and DRAM fractions "
        "over every datasheet entry of its compute capability, and a bound only where all "
        "of them agree (name the GPU with `--gpu NAME` for one roof).\n\n";
  }
  AppendCacheLevels(out, rows, shown, options);
  std::vector<std::string> sources;
  for (const KernelRow* row : rows) {
    const std::string& source = row->roofline->ceiling_source;
    if (!source.empty() && std::find(sources.begin(), sources.end(), source) == sources.end())
      sources.push_back(source);
  }
  for (const std::string& source : sources)
    out += "Ceilings: " + EscapeMarkdown(source) + "\n\n";
}

}  // namespace gpuperf::report::markdown
