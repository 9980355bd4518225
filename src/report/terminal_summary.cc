#include "report/terminal_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "report/markdown_escape.h"
#include "report/row_order.h"
#include "report/units_format.h"

namespace gpuperf::report {
namespace {

class Painter {
 public:
  explicit Painter(bool color) : color_(color) {}
  std::string Bold(std::string_view text) const { return Wrap("1", text); }
  std::string Yellow(std::string_view text) const { return Wrap("33", text); }
  std::string Dim(std::string_view text) const { return Wrap("2", text); }

 private:
  std::string Wrap(std::string_view code, std::string_view text) const {
    if (!color_)
      return std::string(text);
    return fmt::format("\x1b[{}m{}\x1b[0m", code, text);
  }
  bool color_;
};

// Greedy word wrap; words longer than the width stay whole on their own line.
std::string Wrap(std::string_view text, std::size_t width) {
  std::string out;
  std::size_t column = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string_view::npos)
      end = text.size();
    std::string_view word = text.substr(start, end - start);
    if (!word.empty()) {
      if (column > 0 && column + 1 + word.size() > width) {
        out += '\n';
        column = 0;
      } else if (column > 0) {
        out += ' ';
        ++column;
      }
      out += word;
      column += word.size();
    }
    start = end + 1;
  }
  return out;
}

void AppendKernels(std::string& out,
                   const AnalysisReport& report,
                   const TerminalOptions& options,
                   const Painter& paint) {
  if (report.kernels.empty())
    return;
  auto order = KernelsByTotalTime(report.kernels);
  std::size_t shown = std::min(order.size(), options.top_rows);
  out += paint.Bold(fmt::format("Top {} of {} kernels by GPU time", shown, order.size())) + "\n";
  for (std::size_t i = 0; i < shown; ++i) {
    const KernelRow& k = *order[i];
    out += fmt::format("  {:>3}. {:>6} {:>9} {:>9}x  {}\n",
                       i + 1,
                       FormatPercent(k.time_percent),
                       FormatDuration(static_cast<double>(k.duration_ns.total)),
                       FormatCount(k.duration_ns.count),
                       SanitizeForTerminal(Shorten(k.name, options.name_chars)));
  }
  out += "\n";
}

void AppendFindings(std::string& out,
                    const AnalysisReport& report,
                    const TerminalOptions& options,
                    const Painter& paint) {
  if (report.findings.empty())
    return;
  std::size_t shown = std::min(report.findings.size(), options.top_rows);
  out += paint.Bold(fmt::format("Findings ({})", report.findings.size())) + "\n";
  for (std::size_t i = 0; i < shown; ++i) {
    const Finding& f = report.findings[i];
    std::string severity = SanitizeForTerminal(f.severity);
    out += fmt::format("  [{}] {}: {}\n",
                       f.severity == "warning" ? paint.Yellow(severity) : severity,
                       SanitizeForTerminal(f.title),
                       SanitizeForTerminal(f.summary));
  }
  if (shown < report.findings.size()) {
    out += fmt::format("  ... and {} more in the report\n", report.findings.size() - shown);
  }
  out += "\n";
}

}  // namespace

std::string ToTerminalSummary(const AnalysisReport& report, const TerminalOptions& options) {
  Painter paint(options.color);
  std::string out;
  out += paint.Bold("gpuperf: " + SanitizeForTerminal(report.source.path)) + "\n\n";
  if (!report.headline.empty()) {
    out += Wrap(SanitizeForTerminal(report.headline), options.width) + "\n\n";
  }
  if (const auto& join = report.counters_join) {
    out += fmt::format(
        "Counters: {} of {} Nsight Compute launches joined to trace kernels ({} no kernel of "
        "that name left, {} only with another grid or block)\n\n",
        join->joined,
        join->ncu_launches,
        join->no_kernel,
        join->config_mismatch);
  }
  AppendKernels(out, report, options, paint);
  AppendFindings(out, report, options, paint);
  for (const auto& path : options.written) {
    out += paint.Dim("Wrote ") + SanitizeForTerminal(path) + "\n";
  }
  return out;
}

}  // namespace gpuperf::report
