// report.md's occupancy table: one row per kernel name with recorded launch attributes.
#include <fmt/format.h>

#include <algorithm>

#include "report/markdown_escape.h"
#include "report/markdown_sections.h"
#include "report/markdown_table.h"
#include "report/row_order.h"
#include "util/units_format.h"

namespace gpuperf::report::markdown {

void AppendOccupancy(std::string& out,
                     const AnalysisReport& report,
                     const MarkdownOptions& options) {
  std::vector<const KernelRow*> rows;
  for (const KernelRow* row : KernelsByTotalTime(report.kernels)) {
    if (row->occupancy)
      rows.push_back(row);
  }
  if (rows.empty())
    return;
  out += "## Occupancy (theoretical, modeled)\n\n";
  out +=
      "NVIDIA's occupancy calculator on the recorded launch attributes (the most common "
      "configuration of each kernel) and the per-SM limits of the device's compute capability, at "
      "the largest shared-memory carveout: an upper bound on resident warps, not the achieved "
      "occupancy. The \"achieved\" column is measured, from counters "
      "(sm__warps_active.avg.pct_of_peak_sustained_active), where the trace has them. Formulas: "
      "`docs/metrics.md`, \"Occupancy\".\n\n";
  MarkdownTable table({{"#", Align::kRight},
                       {"kernel"},
                       {"cc"},
                       {"threads/block", Align::kRight},
                       {"registers", Align::kRight},
                       {"shared memory", Align::kRight},
                       {"blocks/SM", Align::kRight},
                       {"warps/SM", Align::kRight},
                       {"occupancy", Align::kRight},
                       {"limiter"},
                       {"achieved", Align::kRight}});
  std::size_t shown = std::min(rows.size(), options.top_rows);
  for (std::size_t i = 0; i < shown; ++i) {
    const KernelOccupancy& o = *rows[i]->occupancy;
    table.AddRow({std::to_string(i + 1),
                  Shorten(rows[i]->name, options.name_chars),
                  o.compute_capability,
                  util::FormatCount(o.threads_per_block),
                  std::to_string(o.registers_per_thread),
                  util::FormatBytes(static_cast<double>(o.shared_memory_bytes)),
                  std::to_string(o.active_blocks_per_sm),
                  fmt::format("{} / {}", o.active_warps_per_sm, o.max_warps_per_sm),
                  util::FormatPercent(100.0 * o.theoretical),
                  o.limiter,
                  o.achieved ? util::FormatPercent(100.0 * *o.achieved) : std::string("-")});
  }
  out += table.Render() + "\n";
  AppendShownNote(out, shown, rows.size(), "kernels with launch attributes");
}

}  // namespace gpuperf::report::markdown
