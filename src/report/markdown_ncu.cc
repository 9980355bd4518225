// report.md's "Nsight Compute evidence": how --counters joined, the Speed-of-Light throughputs
// and the rule results of the details page, per kernel.
#include <fmt/format.h>

#include <algorithm>

#include "report/markdown_escape.h"
#include "report/markdown_sections.h"
#include "report/markdown_table.h"
#include "report/row_order.h"
#include "util/units_format.h"

namespace gpuperf::report::markdown {
namespace {

std::string Pct(const std::optional<double>& fraction) {
  return fraction ? util::FormatPercent(100.0 * *fraction) : "n/a";
}

void AppendJoin(std::string& out, const CounterJoin& join) {
  out += fmt::format(
      "**Counters joined (`--counters`):** {} of {} Nsight Compute launches joined to trace "
      "kernels by name, launch order and launch configuration; {} found no kernel of that name "
      "left in the trace, {} only kernels with another grid or block.\n\n",
      join.joined,
      join.ncu_launches,
      join.no_kernel,
      join.config_mismatch);
  for (const std::string& example : join.examples)
    out += "- not joined: " + EscapeMarkdown(example) + "\n";
  if (!join.examples.empty())
    out += "\n";
}

void AppendSpeedOfLight(std::string& out,
                        const std::vector<const KernelRow*>& rows,
                        const MarkdownOptions& options) {
  MarkdownTable table({{"#", Align::kRight},
                       {"kernel"},
                       {"compute (SM)", Align::kRight},
                       {"memory", Align::kRight},
                       {"DRAM", Align::kRight},
                       {"L1/TEX", Align::kRight},
                       {"L2", Align::kRight},
                       {"instances", Align::kRight}});
  std::size_t shown = 0;
  for (std::size_t i = 0; i < rows.size() && shown < options.top_rows; ++i) {
    if (!rows[i]->speed_of_light)
      continue;
    const SpeedOfLight& s = *rows[i]->speed_of_light;
    table.AddRow({std::to_string(i + 1),
                  Shorten(rows[i]->name, options.name_chars),
                  Pct(s.compute),
                  Pct(s.memory),
                  Pct(s.dram),
                  Pct(s.l1),
                  Pct(s.l2),
                  util::FormatCount(s.instances)});
    ++shown;
  }
  if (shown == 0)
    return;
  out +=
      "### Speed of Light (measured)\n\n"
      "Each unit's throughput as a share of its own peak on the profiled GPU (Nsight "
      "Compute's \"GPU Speed Of Light Throughput\"), averaged over the instances weighted by "
      "duration; \"memory\" is the busiest memory unit. No datasheet is involved.\n\n";
  out += table.Render() + "\n";
}

void AppendRules(std::string& out,
                 const std::vector<const KernelRow*>& rows,
                 const MarkdownOptions& options) {
  MarkdownTable table({{"#", Align::kRight},
                       {"kernel"},
                       {"rule"},
                       {"type"},
                       {"estimated speedup", Align::kRight},
                       {"instances", Align::kRight},
                       {"Nsight Compute says"}});
  std::size_t kernels = 0;
  for (std::size_t i = 0; i < rows.size() && kernels < options.top_rows; ++i) {
    if (rows[i]->ncu_rules.empty())
      continue;
    ++kernels;
    for (const NcuRule& rule : rows[i]->ncu_rules) {
      std::string speedup =
          rule.estimated_speedup_percent
              ? fmt::format("{}{}",
                            util::FormatPercent(*rule.estimated_speedup_percent),
                            rule.speedup_type.empty() ? "" : " (" + rule.speedup_type + ")")
              : std::string();
      table.AddRow({std::to_string(i + 1),
                    Shorten(rows[i]->name, options.name_chars),
                    rule.section + " / " + rule.name,
                    rule.type,
                    speedup,
                    util::FormatCount(rule.instances),
                    rule.description});
    }
  }
  if (kernels == 0)
    return;
  out +=
      "### Nsight Compute rules (measured)\n\n"
      "The rule results of the details page, as Nsight Compute wrote them: OPT an "
      "optimisation with its estimated speedup (local: of the kernel; global: of the "
      "profiled run), WRN a warning, INF information. Per kernel, the largest estimate over "
      "its instances and that instance's text.\n\n";
  out += table.Render() + "\n";
}

}  // namespace

void AppendNcuEvidence(std::string& out,
                       const AnalysisReport& report,
                       const MarkdownOptions& options) {
  std::vector<const KernelRow*> rows = KernelsByTotalTime(report.kernels);
  bool sol = std::any_of(
      rows.begin(), rows.end(), [](const KernelRow* r) { return r->speed_of_light.has_value(); });
  bool rules = std::any_of(
      rows.begin(), rows.end(), [](const KernelRow* r) { return !r->ncu_rules.empty(); });
  if (!sol && !rules && !report.counters_join)
    return;
  out += "## Nsight Compute evidence\n\n";
  if (report.counters_join)
    AppendJoin(out, *report.counters_join);
  AppendSpeedOfLight(out, rows, options);
  AppendRules(out, rows, options);
}

}  // namespace gpuperf::report::markdown
