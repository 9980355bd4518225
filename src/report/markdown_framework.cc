// report.md's hierarchy, right under the diagnosis: steps -> modules -> operators -> categories
// -> kernels, a few rows each (docs/method.md, "Report hierarchically").
#include <fmt/format.h>

#include <algorithm>

#include "report/markdown_escape.h"
#include "report/markdown_sections.h"
#include "report/markdown_table.h"
#include "report/row_order.h"
#include "util/units_format.h"
#include "util/utf8.h"

namespace gpuperf::report::markdown {
namespace {

constexpr std::size_t kStepRows = 10;
constexpr std::size_t kModuleRows = 6;
constexpr std::size_t kTreeRows = 20;
constexpr std::size_t kOperatorRows = 10;
constexpr std::size_t kKernelRows = 8;

std::string Ns(std::int64_t ns) {
  return util::FormatDuration(static_cast<double>(ns));
}

std::string Share(double fraction) {
  return util::FormatPercent(100.0 * fraction);
}

void AppendSteps(std::string& out, const FrameworkView& view) {
  if (!view.step_summary)
    return;
  const StepSummary& s = *view.step_summary;
  // One step is no distribution: its median, p95 and MAD would only repeat its wall time.
  if (s.steps < 2)
    out += fmt::format("**Steps** ({}, one step): wall {}",
                       EscapeMarkdown(s.source),
                       util::FormatDuration(s.median_wall_ns));
  else
    out += fmt::format("**Steps** ({}, {}): median {}, p95 {}, MAD {}",
                       EscapeMarkdown(s.source),
                       util::FormatCount(s.steps),
                       util::FormatDuration(s.median_wall_ns),
                       util::FormatDuration(s.p95_wall_ns),
                       util::FormatDuration(s.mad_wall_ns));
  if (s.median_mfu)
    out += fmt::format(
        ", {}MFU {} (modeled FLOPs)", s.steps < 2 ? "" : "median ", Share(*s.median_mfu));
  out += ".";
  if (s.no_mfu_unmodeled_math_fraction)
    out += fmt::format(
        " No MFU: GEMM, convolution and attention kernels holding {} of a step's GPU time (the "
        "first step's) come from operators without a FLOP model, so their FLOPs are missing.",
        Share(*s.no_mfu_unmodeled_math_fraction));
  if (s.warmup_steps == 1) {
    out += fmt::format(
        " The first step ({}) is a warm-up outlier: leave it out of step-time "
        "comparisons.",
        util::FormatDuration(static_cast<double>(view.steps.front().wall_ns)));
  } else if (s.warmup_steps > 1) {
    std::vector<std::string> walls;
    for (std::int64_t i = 0; i < s.warmup_steps && i < static_cast<std::int64_t>(view.steps.size());
         ++i)
      walls.push_back(util::FormatDuration(
          static_cast<double>(view.steps[static_cast<std::size_t>(i)].wall_ns)));
    out += fmt::format(
        " The first {} steps ({}) are warm-up outliers, each against the steps after it: leave "
        "them out of step-time comparisons.",
        s.warmup_steps,
        fmt::join(walls, ", "));
  }
  out += "\n\n";
  MarkdownTable table({{"step"},
                       {"start", Align::kRight},
                       {"wall", Align::kRight},
                       {"GPU busy", Align::kRight},
                       {"GPU idle", Align::kRight},
                       {"GPU time launched", Align::kRight},
                       {"launches", Align::kRight},
                       {"MFU", Align::kRight}});
  std::size_t shown = std::min(view.steps.size(), kStepRows);
  for (std::size_t i = 0; i < shown; ++i) {
    const StepRow& step = view.steps[i];
    table.AddRow({step.name,
                  "+" + Ns(step.start_ns),
                  Ns(step.wall_ns),
                  Ns(step.gpu_busy_ns),
                  Ns(step.idle_ns),
                  Ns(step.kernel_ns),
                  util::FormatCount(step.launches),
                  step.mfu ? Share(*step.mfu) : "-"});
  }
  out += table.Render() + "\n";
  AppendShownNote(out, shown, view.steps.size(), "steps");
}

void AppendModules(std::string& out, const FrameworkView& view, const MarkdownOptions& options) {
  if (view.modules.empty())
    return;
  out +=
      "**Modules** (nn.Module classes; GPU time launched inside their instances, a class "
      "nested in itself counted once):\n\n";
  MarkdownTable table({{"module"},
                       {"calls", Align::kRight},
                       {"GPU time", Align::kRight},
                       {"% of GPU time", Align::kRight},
                       {"of it backward", Align::kRight}});
  std::size_t shown = std::min(view.modules.size(), kModuleRows);
  for (std::size_t i = 0; i < shown; ++i) {
    const ModuleRow& m = view.modules[i];
    table.AddRow({Shorten(m.name, options.name_chars),
                  util::FormatCount(m.calls),
                  Ns(m.kernel_ns),
                  Share(m.fraction),
                  m.backward_ns > 0 ? Ns(m.backward_ns) : "-"});
  }
  out += table.Render() + "\n";
  AppendShownNote(out, shown, view.modules.size(), "modules");
  if (view.module_tree.empty())
    return;
  out +=
      "<details><summary>By layer (module tree, forward work, nodes of at least 1% of GPU "
      "time)</summary>\n\n";
  MarkdownTable tree({{"layer"},
                      {"calls", Align::kRight},
                      {"GPU time", Align::kRight},
                      {"% of GPU time", Align::kRight}});
  std::size_t rows = std::min(view.module_tree.size(), kTreeRows);
  for (std::size_t i = 0; i < rows; ++i) {
    const ModuleTreeNode& n = view.module_tree[i];
    std::string indent;
    for (std::int32_t d = 0; d < n.depth && d < 12; ++d)
      indent += "· ";
    tree.AddRow({indent + Shorten(n.name, options.name_chars),
                 util::FormatCount(n.calls),
                 Ns(n.kernel_ns),
                 Share(n.fraction)});
  }
  out += tree.Render() + "\n";
  AppendShownNote(out, rows, view.module_tree.size(), "module tree nodes");
  out += "</details>\n\n";
}

void AppendOperators(std::string& out, const FrameworkView& view, const MarkdownOptions& options) {
  if (view.operators.empty())
    return;
  out += fmt::format(
      "**Operators** ({}; instances: all of the name; calls: the instances that launch GPU work "
      "themselves (TraceLens' Count), an instance whose work all comes from child operators is "
      "none; GPU time launched by those calls, and under it including child operators, "
      "TraceLens' definitions; \"(no operator) via cudaLaunchKernel\": work launched outside any "
      "operator, grouped by its launch call, as TraceLens does; category: by the operator's "
      "name, else the category holding most of its GPU time, which its top kernel need not "
      "be in):\n\n",
      view.op_source == OperatorSource::kNvtx ? "NVTX ranges" : "framework operators");
  MarkdownTable table({{"operator"},
                       {"category"},
                       {"instances", Align::kRight},
                       {"calls", Align::kRight},
                       {"GPU time", Align::kRight},
                       {"% of GPU time", Align::kRight},
                       {"under it", Align::kRight},
                       {"top kernel"}});
  std::size_t shown = std::min(view.operators.size(), kOperatorRows);
  for (std::size_t i = 0; i < shown; ++i) {
    const OperatorRow& op = view.operators[i];
    table.AddRow({Shorten(op.display_name, options.name_chars),
                  std::string(ToString(op.category)),
                  util::FormatCount(op.instances),
                  util::FormatCount(op.calls),
                  Ns(op.kernel_ns),
                  Share(op.fraction),
                  Ns(op.subtree_kernel_ns),
                  Shorten(op.top_kernel_readable, options.name_chars)});
  }
  out += table.Render() + "\n";
  AppendShownNote(out, shown, view.operators.size(), "operators");
  if (view.unmarked_threads.empty())
    return;
  const UnmarkedThread& top = view.unmarked_threads.front();
  out += fmt::format(
      "{} GPU activities ({} of GPU time, {}) were launched from {} that record{} no NVTX range "
      "while another thread of the process does{}; they are among the \"(no operator)\" rows "
      "above. In PyTorch the autograd engine runs the backward pass on a thread of its own: mark "
      "it with ranges too, or record with torch.autograd.profiler.emit_nvtx(), to name its "
      "operators.\n\n",
      view.unmarked_launches,
      Ns(view.unmarked_gpu_ns),
      Share(view.unmarked_fraction),
      view.unmarked_threads.size() == 1 ? fmt::format("thread {}", top.tid)
                                        : fmt::format("{} threads", view.unmarked_threads.size()),
      view.unmarked_threads.size() == 1 ? "s" : "",
      view.unmarked_threads.size() == 1
          ? std::string()
          : fmt::format(" (most from thread {}: {})", top.tid, Ns(top.gpu_ns)));
}

void AppendCategories(std::string& out, const FrameworkView& view) {
  if (view.categories.empty())
    return;
  out +=
      "**Categories** (every GPU activity in exactly one; decided by the launching operator's "
      "name, else the kernel name, copies and memsets by kind):\n\n";
  MarkdownTable table({{"category"},
                       {"GPU time", Align::kRight},
                       {"% of GPU time", Align::kRight},
                       {"launches", Align::kRight},
                       {"decided by operator / kernel name / kind", Align::kRight},
                       {"top operators"}});
  for (const CategoryRow& c : view.categories) {
    std::string ops;
    for (const std::string& op : c.top_operators_display)
      ops += (ops.empty() ? "" : ", ") + op;
    table.AddRow(
        {std::string(ToString(c.category)),
         Ns(c.kernel_ns),
         Share(c.fraction),
         util::FormatCount(c.launches),
         Ns(c.by_operator_ns) + " / " + Ns(c.by_kernel_name_ns) + " / " + Ns(c.by_activity_ns),
         ops});
  }
  out += table.Render() + "\n";
}

void AppendTopKernels(std::string& out,
                      const AnalysisReport& report,
                      const MarkdownOptions& options) {
  auto order = KernelsByTotalTime(report.kernels);
  if (order.empty())
    return;
  out += "**Top kernels** ([launching operator]; the full table is under Kernels below):\n\n";
  MarkdownTable table({{"kernel"},
                       {"instances", Align::kRight},
                       {"total", Align::kRight},
                       {"% kernel time", Align::kRight}});
  std::size_t shown = std::min(order.size(), kKernelRows);
  for (std::size_t i = 0; i < shown; ++i) {
    const KernelRow& k = *order[i];
    table.AddRow({util::ShortenWithTag(k.readable_name, k.top_operator, options.name_chars),
                  util::FormatCount(k.duration_ns.count),
                  Ns(k.duration_ns.total),
                  util::FormatPercent(k.time_percent)});
  }
  out += table.Render() + "\n";
}

}  // namespace

void AppendHierarchy(std::string& out,
                     const AnalysisReport& report,
                     const MarkdownOptions& options) {
  const FrameworkView& view = report.framework;
  if (view.operators.empty() && view.modules.empty() && !view.step_summary &&
      report.kernels.empty()) {
    return;
  }
  out += "## Where the GPU time goes, by layer\n\n";
  // The tables are the whole trace's: say so where the diagnosis is over a shorter window.
  if (const auto& left_out = report.predictions.preroll; left_out && left_out->gpu_ns > 0)
    out += fmt::format(
        "The tables below cover the whole trace, including the first {} that the diagnosis "
        "leaves out before its steady-state window ({} of GPU busy time there); the diagnosis' "
        "shares are of the window.\n\n",
        Ns(left_out->time_ns),
        Ns(left_out->gpu_ns));
  // Without any launch call (an Nsight Compute CSV) there is nothing to attribute: say nothing.
  if (view.orphan_gpu_ns > 0 && view.total_gpu_ns > 0 &&
      (view.orphan_gpu_ns < view.total_gpu_ns || view.op_source != OperatorSource::kNone)) {
    out += fmt::format(
        "{} of the {} of GPU time ({}) has no launch call in the trace (orphans): no operator, "
        "module or step below holds it.\n\n",
        Ns(view.orphan_gpu_ns),
        Ns(view.total_gpu_ns),
        Share(view.orphan_fraction));
  }
  AppendSteps(out, view);
  AppendModules(out, view, options);
  AppendOperators(out, view, options);
  AppendCategories(out, view);
  AppendTopKernels(out, report, options);
}

}  // namespace gpuperf::report::markdown
