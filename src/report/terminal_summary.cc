#include "report/terminal_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "report/markdown_escape.h"
#include "report/plain_text.h"
#include "report/row_order.h"
#include "util/units_format.h"

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
    std::string shortened;
    std::string_view word = text.substr(start, end - start);
    if (word.size() > width) {  // a kernel name longer than the line: shortened, never overflowing
      shortened = Shorten(word, width);
      word = shortened;
    }
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

// A path too long for the line keeps its end, where the file name is: "…/h100/trace.json.gz".
std::string LeftShortened(const std::string& path, std::size_t max_chars) {
  std::size_t chars = 0;
  for (unsigned char c : path)
    chars += (c & 0xC0) != 0x80 ? 1 : 0;
  if (chars <= max_chars)
    return path;
  std::size_t drop = chars - max_chars + 1;  // + the "…"
  std::size_t at = 0;
  while (at < path.size() && drop > 0) {
    ++at;
    while (at < path.size() && (static_cast<unsigned char>(path[at]) & 0xC0) == 0x80)
      ++at;
    --drop;
  }
  return "…" + path.substr(at);
}

// `first` before the first line, `rest` before the others.
std::string Indent(std::string_view text, std::string_view first, std::string_view rest) {
  std::string out(first);
  for (char c : text) {
    out += c;
    if (c == '\n')
      out += rest;
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
  // The name takes what the 36 columns of numbers leave of the width.
  const std::size_t name_chars =
      std::min(options.name_chars, options.width > 36 + 20 ? options.width - 36 : 20);
  for (std::size_t i = 0; i < shown; ++i) {
    const KernelRow& k = *order[i];
    out += fmt::format("  {:>3}. {:>6} {:>9} {:>9}x  {}\n",
                       i + 1,
                       util::FormatPercent(k.time_percent),
                       util::FormatDuration(static_cast<double>(k.duration_ns.total)),
                       util::FormatCount(k.duration_ns.count),
                       SanitizeForTerminal(Shorten(k.name, name_chars)));
  }
  out += "\n";
}

// The decision first: the class, its status, what dominates, the next experiment. The full
// argument (triage, support, falsifier) is in report.md.
void AppendDiagnosis(std::string& out,
                     const AnalysisReport& report,
                     const TerminalOptions& options,
                     const Painter& paint) {
  const Diagnosis& d = report.diagnosis;
  if (d.bottleneck == Bottleneck::kNone)
    return;
  // The analysis' label, as the headline and report.md print it ("GPU-bound, kernel class
  // unknown", where the class alone read "unknown").
  const bool finding = d.status == DiagnosisStatus::kFinding;
  out += paint.Bold(fmt::format("Diagnosis: {} {}",
                                finding ? "bottleneck" : "hypothesis",
                                SanitizeForTerminal(d.label))) +
         fmt::format(" ({}; evidence: {})\n",
                     finding ? "finding" : "not a finding",
                     d.evidence == EvidenceTier::kNone ? "missing"
                                                       : SanitizeForTerminal(ToString(d.evidence)));
  auto item = [&](std::string_view name, const std::string& text) {
    if (!text.empty())
      out +=
          Indent(
              Wrap(fmt::format("{}: {}", name, PlainText(text)), options.width - 4), "  ", "    ") +
          "\n";
  };
  if (!d.support.empty())
    item("Evidence", d.support.front());
  item("Next experiment", d.next_experiment);
  if (d.bound_speedup)
    item("At most",
         fmt::format(
             "{:.2f}x on the whole program if it fully succeeds{}{}{}{}",
             *d.bound_speedup,
             d.bound_speedup_overlapped
                 ? fmt::format("; {:.2f}x if the host work only moves beside the GPU",
                               *d.bound_speedup_overlapped)
                 : std::string(),
             d.bound_speedup_across_inputs
                 ? fmt::format(", {:.2f}x if the next input is prepared beside it",
                               *d.bound_speedup_across_inputs)
                 : std::string(),
             d.bound_speedup_unrecorded_graph_work
                 ? fmt::format("; {:.2f}x if the graphs' idle holds unrecorded work",
                               *d.bound_speedup_unrecorded_graph_work)
                 : std::string(),
             d.bound_speedup_piecewise_graphs
                 ? fmt::format("; {:.2f}x with piecewise graphs", *d.bound_speedup_piecewise_graphs)
                 : std::string()));
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
    std::string severity = SanitizeForTerminal(ToString(f.severity));
    std::string line =
        Wrap(fmt::format("[{}] {}: {}", severity, PlainText(f.title), PlainText(f.summary)),
             options.width > 4 ? options.width - 4 : options.width);
    // Colour after wrapping, so that escape codes never count as columns.
    if (f.severity == Severity::kWarning)
      line.replace(1, severity.size(), paint.Yellow(severity));
    out += Indent(line, "  ", "    ") + "\n";
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
  out += paint.Bold("gpuperf: " + LeftShortened(SanitizeForTerminal(report.source.path),
                                                options.width > 9 ? options.width - 9 : 20)) +
         "\n\n";
  AppendDiagnosis(out, report, options, paint);  // the decision first
  if (!report.headline.empty()) {
    out += Wrap(PlainText(report.headline), options.width) + "\n\n";
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
