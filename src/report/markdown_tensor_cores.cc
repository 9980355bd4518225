// report.md's tensor-core table: one row per kernel name with tensor-core evidence.
#include <fmt/format.h>

#include <algorithm>

#include "report/markdown_escape.h"
#include "report/markdown_sections.h"
#include "report/markdown_table.h"
#include "report/row_order.h"

namespace gpuperf::report::markdown {
namespace {

std::string Instructions(const TensorCoreEvidence& t) {
  std::string text;
  for (const auto& [opcode, count] : t.instructions)
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", count, opcode);
  return text;
}

}  // namespace

void AppendTensorCores(std::string& out,
                       const AnalysisReport& report,
                       const MarkdownOptions& options) {
  std::vector<const KernelRow*> rows;
  for (const KernelRow* row : KernelsByTotalTime(report.kernels)) {
    if (row->tensor_cores)
      rows.push_back(row);
  }
  if (rows.empty())
    return;
  out += "## Tensor cores\n\n";
  out +=
      "Claimed only with evidence: tensor-pipe counters or matrix instructions (HMMA, HGMMA, "
      "IMMA, ...) in the kernel's SASS (`--sass`) are `measured`; a kernel-library naming "
      "convention is `inferred`. Rules: `docs/metrics.md`, \"Tensor cores\".\n\n";
  MarkdownTable table({{"#", Align::kRight},
                       {"kernel"},
                       {"tensor cores"},
                       {"evidence"},
                       {"SASS matrix instructions"},
                       {"detail"}});
  std::size_t shown = std::min(rows.size(), options.top_rows);
  for (std::size_t i = 0; i < shown; ++i) {
    const TensorCoreEvidence& t = *rows[i]->tensor_cores;
    table.AddRow({std::to_string(i + 1),
                  Shorten(rows[i]->name, options.name_chars),
                  t.used ? "yes" : "no",
                  fmt::format("{} ({})", ToString(t.evidence), t.source),
                  Instructions(t),
                  t.detail});
  }
  out += table.Render() + "\n";
  AppendShownNote(out, shown, rows.size(), "kernels with tensor-core evidence");
}

}  // namespace gpuperf::report::markdown
