#include "report/markdown_sections.h"

#include "gpuperf/finding_ids.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "report/evidence_cells.h"
#include "report/markdown_escape.h"
#include "report/markdown_table.h"
#include "report/row_order.h"
#include "util/units_format.h"

namespace gpuperf::report::markdown {
namespace {

std::string Ns(double ns) {
  return util::FormatDuration(ns);
}
std::string Ns(std::int64_t ns) {
  return util::FormatDuration(static_cast<double>(ns));
}

std::size_t Shown(std::size_t total, const MarkdownOptions& options) {
  return std::min(total, options.top_rows);
}

// The advice's own bound where it removes more than the finding's calls (pytorch-kineto 2021-06:
// the copies' waits bound 1.00x while pinning with non_blocking also removes 10 syncs, 16.6 ms).
std::string AdviceBoundText(const Finding& f) {
  if (!f.advice_gpu_idle_ns || !f.advice_bound_speedup)
    return "";
  return fmt::format(
      "; following the advice, which removes more than these calls (above), gives back at most "
      "{} of GPU idle: {}×",
      Ns(*f.advice_gpu_idle_ns),
      util::FormatRatio(*f.advice_bound_speedup));
}

// The copies' own GPU time, which the wait bound leaves out: what pinned host buffers take off it
// where the datasheet gives the host link (review 60: "the Diagnosis bounds that" pointed at
// nothing on an RTX 2080 Ti).
std::string CopyTimeText(const Finding& f) {
  const std::string head = ". This counts the waiting only: the copies' own GPU time is not in it";
  if (!f.pinned_saving_ns)
    return head +
           "; pinned host buffers shorten it, by an amount no datasheet entry bounds here "
           "(none gives this GPU's host link)";
  if (*f.pinned_saving_ns <= 0)
    return head +
           ", and pinned host buffers would not shorten it at the host link's datasheet "
           "peak (copies under 1 MiB take their latency; larger ones already run at it)";
  return head + fmt::format(
                    "; pinned host buffers would take at most {} off the steady window's "
                    "pageable copies of 1 MiB or more (at the host link's datasheet peak)",
                    Ns(*f.pinned_saving_ns));
}

// `origin_ns`: the first GPU activity's start, which evidence timestamps are shown from.
void AppendFinding(std::string& out,
                   std::size_t number,
                   const Finding& f,
                   std::int64_t origin_ns,
                   const MarkdownOptions& options) {
  out += fmt::format(
      "### {}. {} ({})\n\n", number, EscapeMarkdown(f.title), EscapeMarkdown(ToString(f.severity)));
  out += EscapeMarkdown(f.summary) + "\n\n";
  // A copy that waits is two costs: the wait (the bound here) and the copy's own GPU time, which
  // pinned host buffers shorten and this bound does not hold (review18: "1.00x" read as "pinning
  // gains nothing" beside the Diagnosis' pinned bound).
  const bool copies = f.id == finding_id::kSyncMemcpy || f.id == finding_id::kPageableAsyncMemcpy;
  if (f.gpu_idle_caused_ns && f.wall_fraction && f.bound_speedup_if_removed) {
    out += fmt::format(
        "**Bound:** its calls held the host for {} and caused {} of GPU idle time, {} of the "
        "steady-state wall time; removing {} entirely bounds the gain at {}× (a wait costs "
        "only the GPU idle it causes, next to it or later where the GPU waits for the host){}{}."
        "\n\n",
        Ns(f.host_blocked_ns.value_or(0)),
        Ns(*f.gpu_idle_caused_ns),
        util::FormatPercent(100.0 * *f.wall_fraction),
        copies ? "the waits" : "them",
        util::FormatRatio(*f.bound_speedup_if_removed),
        AdviceBoundText(f),
        copies ? CopyTimeText(f) : "");
  } else if (f.gpu_idle_caused_ns) {
    out += fmt::format(
        "**Bound:** its calls held the host for {} and caused no GPU idle time: removing them "
        "gains nothing.\n\n",
        Ns(f.host_blocked_ns.value_or(0)));
  } else if (f.recoverable_ns && f.wall_fraction && f.bound_speedup_if_removed) {
    out += fmt::format(
        "**Bound:** of its {}, about {} comes back ({}), {} of the steady-state wall time: "
        "about {}× (an estimate at that assumption, not a ceiling; it also assumes all of it "
        "delays the program).\n\n",
        Ns(f.time_ns),
        Ns(*f.recoverable_ns),
        EscapeMarkdown(f.recoverable_basis),
        util::FormatPercent(100.0 * *f.wall_fraction),
        util::FormatRatio(*f.bound_speedup_if_removed));
  } else if (f.wall_fraction && f.bound_speedup_if_removed &&
             (f.id == finding_id::kGpuGaps || f.id == finding_id::kGpuLowUtilization ||
              f.id == finding_id::kGpuIdleDominant)) {
    // Idle is a symptom: only the Diagnosis' lever has a causal bound (b200: 5.63x here beside
    // the graphs' 4.17x there read as a second, larger promise).
    out += fmt::format(
        "**Bound:** {} is {} of the steady-state wall time; were all of it gone the program would "
        "be {}× faster. That counts this idle only and is no lever's bound: idle is a symptom, "
        "and the Diagnosis says which of it a change removes and bounds that.\n\n",
        Ns(f.time_ns),
        util::FormatPercent(100.0 * *f.wall_fraction),
        util::FormatRatio(*f.bound_speedup_if_removed));
  } else if (f.wall_fraction && f.bound_speedup_if_removed) {
    out += fmt::format(
        "**Bound:** {} is {} of the steady-state wall time; removing it entirely bounds the gain "
        "at "
        "{}× (an upper bound: it assumes all of it delays the program).\n\n",
        Ns(f.time_ns),
        util::FormatPercent(100.0 * *f.wall_fraction),
        util::FormatRatio(*f.bound_speedup_if_removed));
  }
  if (!f.advice.empty())
    out += "**Advice:** " + EscapeMarkdown(f.advice) + "\n\n";
  if (f.columns.empty() || f.rows.empty())
    return;
  std::vector<Column> columns;
  for (const FindingColumn& column : f.columns)
    columns.push_back({EvidenceColumn(column)});
  MarkdownTable table(std::move(columns));
  std::size_t shown = Shown(f.rows.size(), options);
  for (std::size_t i = 0; i < shown; ++i) {
    std::vector<std::string> cells;
    for (std::size_t c = 0; c < f.rows[i].cells.size(); ++c) {
      const std::string& cell = f.rows[i].cells[c];
      cells.push_back(c < f.columns.size() ? EvidenceCell(f.columns[c].unit, cell, origin_ns)
                                           : Shorten(cell, options.name_chars));
      cells.back() = Shorten(cells.back(), options.name_chars);
    }
    table.AddRow(std::move(cells));
  }
  out += table.Render() + "\n";
  std::size_t total =
      f.rows.size() + static_cast<std::size_t>(std::max<std::int64_t>(0, f.rows_omitted));
  AppendShownNote(out, shown, total, "evidence rows");
}

}  // namespace

void AppendShownNote(std::string& out, std::size_t shown, std::size_t total, const char* what) {
  if (shown >= total)
    return;
  out += fmt::format("_Showing {} of {} {}; report.json has more._\n\n",
                     util::FormatCount(std::int64_t(shown)),
                     util::FormatCount(std::int64_t(total)),
                     what);
}

void AppendFindings(std::string& out,
                    const AnalysisReport& report,
                    const MarkdownOptions& options) {
  out += "## Findings\n\n";
  if (report.findings.empty()) {
    out += "No finding rule fired on this trace.\n\n";
    return;
  }
  for (std::size_t i = 0; i < report.findings.size(); ++i) {
    AppendFinding(out, i + 1, report.findings[i], report.timeline.first_start_ns, options);
  }
}

void AppendKernels(std::string& out, const AnalysisReport& report, const MarkdownOptions& options) {
  out += "## Kernels\n\n";
  if (report.kernels.empty()) {
    out += "The trace holds no kernel executions.\n\n";
    return;
  }
  MarkdownTable table({{"#", Align::kRight},
                       {"kernel"},
                       {"instances", Align::kRight},
                       {"total", Align::kRight},
                       {"% kernel time", Align::kRight},
                       {"avg", Align::kRight},
                       {"med", Align::kRight},
                       {"min", Align::kRight},
                       {"max", Align::kRight},
                       {"grid"},
                       {"block"}});
  auto order = KernelsByTotalTime(report.kernels);
  std::size_t shown = Shown(order.size(), options);
  for (std::size_t i = 0; i < shown; ++i) {
    const KernelRow& k = *order[i];
    const Distribution& d = k.duration_ns;
    table.AddRow({std::to_string(i + 1),
                  Shorten(k.name, options.name_chars),
                  util::FormatCount(d.count),
                  Ns(d.total),
                  util::FormatPercent(k.time_percent),
                  Ns(d.avg),
                  Ns(d.med),
                  Ns(d.min),
                  Ns(d.max),
                  k.grid,
                  k.block});
  }
  out += table.Render() + "\n";
  AppendShownNote(out, shown, order.size(), "kernels");
}

void AppendMemoryOps(std::string& out,
                     const AnalysisReport& report,
                     const MarkdownOptions& options) {
  out += "## Memory operations\n\n";
  if (report.memory_ops.empty()) {
    out += "The trace holds no copies or memsets.\n\n";
    return;
  }
  MarkdownTable table({{"operation"},
                       {"count", Align::kRight},
                       {"total", Align::kRight},
                       {"% memory time", Align::kRight},
                       {"avg", Align::kRight},
                       {"med", Align::kRight},
                       {"total size", Align::kRight},
                       {"avg size", Align::kRight}});
  std::size_t shown = Shown(report.memory_ops.size(), options);
  for (std::size_t i = 0; i < shown; ++i) {
    const MemoryOpRow& row = report.memory_ops[i];
    table.AddRow({Shorten(row.operation, options.name_chars),
                  util::FormatCount(row.duration_ns.count),
                  Ns(row.duration_ns.total),
                  util::FormatPercent(row.time_percent),
                  Ns(row.duration_ns.avg),
                  Ns(row.duration_ns.med),
                  util::FormatBytes(static_cast<double>(row.size_bytes.total)),
                  util::FormatBytes(row.size_bytes.avg)});
  }
  out += table.Render() + "\n";
  AppendShownNote(out, shown, report.memory_ops.size(), "operations");
}

void AppendApi(std::string& out, const AnalysisReport& report, const MarkdownOptions& options) {
  out += "## CUDA API calls\n\n";
  if (report.api.empty()) {
    out += "The trace holds no runtime or driver API calls.\n\n";
    return;
  }
  MarkdownTable table({{"API"},
                       {"calls", Align::kRight},
                       {"total", Align::kRight},
                       {"% API time", Align::kRight},
                       {"avg", Align::kRight},
                       {"med", Align::kRight},
                       {"max", Align::kRight}});
  std::size_t shown = Shown(report.api.size(), options);
  for (std::size_t i = 0; i < shown; ++i) {
    const ApiRow& row = report.api[i];
    const Distribution& d = row.duration_ns;
    // Traces may record both "cudaMemcpy" and "cudaMemcpy_v3020"; show which row is which.
    std::string name = row.raw_name.empty() || row.raw_name == row.name
                           ? row.name
                           : row.name + " (" + row.raw_name + ")";
    table.AddRow({Shorten(name, options.name_chars),
                  util::FormatCount(d.count),
                  Ns(d.total),
                  util::FormatPercent(row.time_percent),
                  Ns(d.avg),
                  Ns(d.med),
                  Ns(d.max)});
  }
  out += table.Render() + "\n";
  AppendShownNote(out, shown, report.api.size(), "API names");
  // nsys 2022 records some calls twice, one record nested in the other: the table keeps both as
  // nsys stats does, and says which rows are the same calls.
  std::vector<std::string> doubled;
  for (const ApiRow& row : report.api) {
    if (row.raw_name.empty() || row.raw_name == row.name)
      continue;
    bool plain = std::any_of(report.api.begin(), report.api.end(), [&](const ApiRow& other) {
      return other.raw_name == row.name;
    });
    if (plain)
      doubled.push_back(EscapeMarkdown(row.raw_name));
  }
  if (!doubled.empty())
    out += fmt::format(
        "Rows with a version suffix ({}) are the same calls as the row without it, recorded "
        "twice by the profiler (one record nested in the other): their \"% API time\" counts "
        "those calls twice, as nsys stats does; the findings and the diagnosis count each call "
        "once.\n\n",
        fmt::join(doubled, ", "));
}

void AppendLaunch(std::string& out, const AnalysisReport& report) {
  const LaunchOverhead& l = report.launch;
  out += "## Launch overhead\n\n";
  if (l.launches == 0) {
    out += "No launch call could be joined to a kernel (no correlation ids).\n\n";
    return;
  }
  MarkdownTable table({{"metric"}, {"value", Align::kRight}});
  table.AddRow({"launch calls joined to a kernel", util::FormatCount(l.launches)});
  table.AddRow({"launch call, med (avg)", Ns(l.api_ns.med) + " (" + Ns(l.api_ns.avg) + ")"});
  table.AddRow(
      {"kernels queued after their launch call returned", util::FormatCount(l.queue_ns.count)});
  table.AddRow({"launch call end to kernel start (queued only), med (avg)",
                Ns(l.queue_ns.med) + " (" + Ns(l.queue_ns.avg) + ")"});
  table.AddRow(
      {"kernel duration, med (avg)", Ns(l.kernel_ns.med) + " (" + Ns(l.kernel_ns.avg) + ")"});
  table.AddRow({"launch call start to kernel end, med (avg)",
                Ns(l.total_ns.med) + " (" + Ns(l.total_ns.avg) + ")"});
  table.AddRow(
      {"kernels shorter than their launch call", util::FormatCount(l.kernels_shorter_than_launch)});
  table.AddRow({"launch call time / kernel time", util::FormatRatio(l.api_to_kernel_ratio)});
  out += table.Render() + "\n";
}

}  // namespace gpuperf::report::markdown
