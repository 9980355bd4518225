// The audit, range and diagnostics sections of report.md (markdown_sections.h).
#include <fmt/format.h>

#include "report/markdown_escape.h"
#include "report/markdown_sections.h"
#include "report/markdown_table.h"
#include "report/row_order.h"
#include "util/units_format.h"

namespace gpuperf::report::markdown {

void AppendAudit(std::string& out, const AnalysisReport& report) {
  const Audit& a = report.audit;
  out += "## Kernel-count audit\n\n";
  MarkdownTable table({{"metric"}, {"value", Align::kRight}});
  table.AddRow({"kernel launches (executions on the GPU)", util::FormatCount(a.kernel_launches)});
  table.AddRow({"launch API calls", util::FormatCount(a.launch_calls)});
  table.AddRow({"distinct kernels", util::FormatCount(a.distinct_kernels)});
  table.AddRow({"graph launches", util::FormatCount(a.graph_launches)});
  table.AddRow({"host-to-device copies", util::FormatCount(a.memcpy_htod)});
  table.AddRow({"device-to-host copies", util::FormatCount(a.memcpy_dtoh)});
  table.AddRow({"device-to-device copies", util::FormatCount(a.memcpy_dtod)});
  table.AddRow({"other copies", util::FormatCount(a.memcpy_other)});
  table.AddRow({"memsets", util::FormatCount(a.memsets)});
  table.AddRow({"host-device synchronizations", util::FormatCount(a.synchronizations)});
  table.AddRow({"device allocations", util::FormatCount(a.allocations)});
  table.AddRow({"device frees", util::FormatCount(a.frees)});
  table.AddRow({"peak allocated memory",
                a.peak_allocated_bytes < 0
                    ? "not recorded"
                    : util::FormatBytes(static_cast<double>(a.peak_allocated_bytes))});
  auto order = KernelsByTotalTime(report.kernels);
  if (!order.empty()) {
    const KernelRow& top = *order.front();
    table.AddRow({"dominant kernel", Shorten(top.name, 80)});
    table.AddRow({"dominant kernel median time", util::FormatDuration(top.duration_ns.med)});
    table.AddRow({"dominant kernel % of kernel time", util::FormatPercent(top.time_percent)});
  }
  out += table.Render() + "\n";
}

void AppendRanges(std::string& out, const AnalysisReport& report, const MarkdownOptions& options) {
  if (report.ranges.empty())
    return;  // most traces have none; no section beats an empty one
  out += "## Ranges\n\n";
  MarkdownTable table({{"range"},
                       {"kind"},
                       {"instances", Align::kRight},
                       {"total", Align::kRight},
                       {"% of kind", Align::kRight},
                       {"med", Align::kRight},
                       {"GPU time inside", Align::kRight}});
  std::size_t shown = std::min(report.ranges.size(), options.top_rows);
  for (std::size_t i = 0; i < shown; ++i) {
    const RangeRow& r = report.ranges[i];
    table.AddRow({Shorten(r.name, options.name_chars),
                  std::string(ToString(r.kind)),
                  util::FormatCount(r.duration_ns.count),
                  util::FormatDuration(static_cast<double>(r.duration_ns.total)),
                  util::FormatPercent(r.time_percent),
                  util::FormatDuration(r.duration_ns.med),
                  util::FormatDuration(static_cast<double>(r.gpu_time_ns))});
  }
  out += table.Render() + "\n";
  AppendShownNote(out, shown, report.ranges.size(), "ranges");
}

void AppendDiagnostics(std::string& out, const AnalysisReport& report) {
  out += "## Import diagnostics\n\n";
  if (report.diagnostics.empty() && report.diagnostic_notes.empty()) {
    out += "The importer skipped or repaired no records.\n\n";
    return;
  }
  if (!report.diagnostics.empty()) {
    MarkdownTable table({{"counter"}, {"count", Align::kRight}});
    for (const auto& d : report.diagnostics)
      table.AddRow({d.name, util::FormatCount(d.count)});
    out += table.Render() + "\n";
  }
  for (const auto& note : report.diagnostic_notes)
    out += "- " + EscapeMarkdown(note) + "\n";
  if (!report.diagnostic_notes.empty())
    out += "\n";
}

}  // namespace gpuperf::report::markdown
