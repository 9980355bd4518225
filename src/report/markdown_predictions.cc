// report.md's "Where a speedup can pay off": the Amdahl bounds per kernel and phase that the
// analysis computed (analysis/predictions.h), formatted.
#include <fmt/format.h>

#include <algorithm>

#include "report/markdown_escape.h"
#include "report/markdown_sections.h"
#include "report/markdown_table.h"
#include "util/units_format.h"

namespace gpuperf::report::markdown {
namespace {

std::string Ns(std::int64_t ns) {
  return util::FormatDuration(static_cast<double>(ns));
}

std::string Gain(double speedup) {
  return util::FormatPercent(100.0 * (speedup - 1.0));
}

std::string Limit(const CriticalShare& s) {
  return s.limit_speedup ? util::FormatRatio(*s.limit_speedup) + "×" : "unbounded";
}

// The Amdahl sentence for the top kernel (docs/method.md, "Amdahl bound and critical time"): its
// share, what a modest local speedup buys, the ceiling, and what the roof allows when a floor is
// known.
void AppendLeadSentence(std::string& out, const Predictions& p, const MarkdownOptions& options) {
  const CriticalShare& k = p.kernels.front();
  out += fmt::format("**{}** holds {} of the critical time ({} of {}).",
                     EscapeMarkdown(Shorten(k.name, options.name_chars)),
                     util::FormatPercent(100.0 * k.fraction),
                     Ns(k.critical_ns),
                     Ns(p.summed_wall_ns));
  if (!k.illustrative_gains.empty()) {
    const IllustrativeGain& gain = k.illustrative_gains.front();
    out += fmt::format(" A {}× kernel speedup bounds the program's gain at {} ({} saved);",
                       util::FormatRatio(gain.local_speedup),
                       Gain(gain.bound_speedup),
                       Ns(gain.time_saved_ns));
  }
  out += fmt::format(" {} an infinitely fast kernel gives at most {}.",
                     k.illustrative_gains.empty() ? "Even" : "even",
                     Limit(k));
  if (k.recoverable_ns) {
    // Two bounds for one kernel: say which floor each assumes.
    out += fmt::format(
        " Its roofline floor ({} evidence) allows {}× locally, which would give back {} of wall "
        "time{}.",
        EscapeMarkdown(ToString(k.floor_evidence)),
        util::FormatRatio(k.max_local_speedup.value_or(1.0)),
        Ns(*k.recoverable_ns),
        k.bound_speedup_at_roof
            ? fmt::format(" and bound the program at {}× (Amdahl at the floor; the {} limit "
                          "assumes the kernel takes no time)",
                          util::FormatRatio(*k.bound_speedup_at_roof),
                          Limit(k))
            : std::string());
  }
  out += "\n\n";
}

void AppendKernelTable(std::string& out, const Predictions& p, const MarkdownOptions& options) {
  bool floors = std::any_of(p.kernels.begin(), p.kernels.end(), [](const auto& k) {
    return k.recoverable_ns.has_value();
  });
  std::vector<Column> columns = {{"#", Align::kRight},
                                 {"kernel"},
                                 {"total", Align::kRight},
                                 {"critical", Align::kRight},
                                 {"f", Align::kRight}};
  for (double s : p.illustrative_speedups)
    columns.push_back({fmt::format("gain at {}×", util::FormatRatio(s)), Align::kRight});
  columns.push_back({"limit", Align::kRight});
  if (floors) {
    columns.push_back({"roof allows", Align::kRight});
    columns.push_back({"recoverable", Align::kRight});
  }
  MarkdownTable table(std::move(columns));
  // Rows with no critical time give nothing back at any speedup: left to report.json (nvfuser:
  // 15 rows of "0 ns, 1.00x" under a one-time compile).
  std::size_t shown = 0;
  while (shown < p.kernels.size() && shown < options.top_rows && p.kernels[shown].critical_ns > 0)
    ++shown;
  for (std::size_t i = 0; i < shown; ++i) {
    const CriticalShare& k = p.kernels[i];
    std::vector<std::string> cells = {std::to_string(i + 1),
                                      Shorten(k.name, options.name_chars),
                                      Ns(k.total_ns),
                                      Ns(k.critical_ns),
                                      util::FormatPercent(100.0 * k.fraction)};
    for (std::size_t g = 0; g < p.illustrative_speedups.size(); ++g)
      cells.push_back(g < k.illustrative_gains.size() ? Gain(k.illustrative_gains[g].bound_speedup)
                                                      : "—");
    cells.push_back(Limit(k));
    if (floors) {
      cells.push_back(k.max_local_speedup ? util::FormatRatio(*k.max_local_speedup) + "×"
                                          : "no floor");
      cells.push_back(k.recoverable_ns ? Ns(*k.recoverable_ns) : "—");
    }
    table.AddRow(std::move(cells));
  }
  out += table.Render() + "\n";
  const std::size_t total =
      p.kernels.size() + static_cast<std::size_t>(std::max<std::int64_t>(0, p.kernels_omitted));
  // The rows left out for holding no critical time are said as such (linear: 15 of 16).
  const auto zero = static_cast<std::size_t>(
      std::count_if(p.kernels.begin(), p.kernels.end(), [](const CriticalShare& k) {
        return k.critical_ns <= 0;
      }));
  if (zero > 0 && shown + zero >= p.kernels.size() && shown < total)
    out += fmt::format(
        "_Showing {} of {} kernels; those left out hold no critical time "
        "(report.json has their rows)._\n\n",
        util::FormatCount(std::int64_t(shown)),
        util::FormatCount(std::int64_t(total)));
  else
    AppendShownNote(out, shown, total, "kernels");
}

void AppendPhaseTable(std::string& out, const Predictions& p, const MarkdownOptions& options) {
  out +=
      "Phases (host ranges; their time is the union of their instances in the steady-state "
      "window, one-time work left out, so nested phases overlap; limit: Amdahl's if the phase "
      "took no time, none for a range around (nearly) the whole window or a phase whose GPU work "
      "runs mostly after it, host time the program does not wait for):\n\n";
  MarkdownTable table({{"#", Align::kRight},
                       {"phase"},
                       {"kind"},
                       {"instances", Align::kRight},
                       {"time", Align::kRight},
                       {"f", Align::kRight},
                       {"limit", Align::kRight}});
  std::size_t shown = std::min(p.phases.size(), options.top_rows);
  for (std::size_t i = 0; i < shown; ++i) {
    const CriticalShare& ph = p.phases[i];
    table.AddRow({std::to_string(i + 1),
                  Shorten(ph.name, options.name_chars),
                  std::string(ToString(ph.kind)),
                  util::FormatCount(ph.instances),
                  Ns(ph.critical_ns),
                  util::FormatPercent(100.0 * ph.fraction),
                  ph.limit_speedup ? Limit(ph) : std::string("none")});
  }
  out += table.Render() + "\n";
}

}  // namespace

void AppendPredictions(std::string& out,
                       const AnalysisReport& report,
                       const MarkdownOptions& options) {
  const Predictions& p = report.predictions;
  out += "## Where a speedup can pay off\n\n";
  if (p.wall_ns <= 0 || p.kernels.empty()) {
    out += "The trace holds no kernel time to bound.\n\n";
    return;
  }
  const bool critical = std::any_of(
      p.kernels.begin(), p.kernels.end(), [](const CriticalShare& k) { return k.critical_ns > 0; });
  if (!critical) {
    out += fmt::format(
        "No kernel holds critical time in the {} window: the kernels ran while the host or "
        "other work set its length, so no kernel speedup shortens it (their GPU time is in the "
        "kernel table; report.json has each kernel's row).\n\n",
        Ns(p.wall_ns));
  } else {
    AppendLeadSentence(out, p, options);
    out += fmt::format(
        "Amdahl: a part holding the fraction f of the critical time, made s times faster, bounds "
        "the program at 1 / ((1 − f) + f / s), and at 1 / (1 − f) however fast it gets. Ranked by "
        "{}. {}\n\n",
        p.ranking == "recoverable_ns"
            ? "recoverable time (the roofline floor is known)"
            : "critical time; where a roofline floor is known, the time it allows back is a "
              "column (the speedup a floor allows stops at 2 µs per instance, the minimum kernel "
              "latency)",
        EscapeMarkdown(p.method));
    AppendKernelTable(out, p, options);
  }
  if (!p.phases.empty())
    AppendPhaseTable(out, p, options);
  out += fmt::format(
      "Value of a change = workload frequency × saved time × deployment scale. The saved times "
      "here are per trace window ({}); they are bounds, not results: measure the change "
      "end to end with `gpuperf compare`.\n\n",
      Ns(p.wall_ns));
}

}  // namespace gpuperf::report::markdown
