// compare.md, in the report order of docs/method.md ("Report order"): decision and quantified
// result, workload, baseline operating point, limiting operation, predicted mechanism, correctness
// and mechanism evidence, named-operation timing, end-to-end effect, limitations, reproduction.
#include <fmt/format.h>

#include <algorithm>

#include "report/compare_writer.h"
#include "report/markdown_escape.h"
#include "report/markdown_table.h"
#include "util/units_format.h"

namespace gpuperf::report {
namespace {

// A relative change (after / before - 1) as a signed percent: "+3.2%".
std::string Change(double relative_change) {
  return fmt::format("{:+.1f}%", 100.0 * relative_change);
}

// A change as people read it: "+3.2%" within a factor of two, "2.5× slower" / "4.0× faster"
// beyond (so an interval never reads "−98.9% … +10934%").
std::string Readable(const std::optional<compare::ChangeReading>& c) {
  if (!c || !(c->ratio > 0))
    return "n/a";
  if (c->ratio >= 2)
    return fmt::format("{:.3g}× slower", c->factor);
  if (c->ratio <= 0.5)
    return fmt::format("{:.3g}× faster", c->factor);
  return Change(c->relative_change);
}

std::string Interval(const compare::Statistic& s) {
  if (!s.ci_low || !s.ci_high)
    return "n/a";
  if (s.ci_too_wide)
    return "too wide";  // spans more than a factor of four: no information
  return Readable(s.ci_low_change) + " to " + Readable(s.ci_high_change);
}

std::string Value(const std::optional<double>& v, const std::string& unit) {
  if (!v)
    return "n/a";
  if (unit == "ns")
    return util::FormatDuration(*v);
  if (unit == "bytes")
    return util::FormatBytes(*v);
  if (unit == "percent")
    return util::FormatPercent(*v);
  return util::FormatCount(static_cast<std::int64_t>(*v));
}

std::string Env(const std::string& v) {
  return v.empty() ? "unknown" : v;
}

std::string Gpus(const compare::Fingerprint& f) {
  std::vector<std::string> names = f.gpus;
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::string out;
  for (const auto& n : names)
    out += (out.empty() ? "" : ", ") + n;
  return Env(out);
}

void Workload(std::string& out, const compare::CompareReport& r) {
  out += "## Workload\n\n";
  MarkdownTable t({{""}, {"before"}, {"after"}});
  t.AddRow({"input", r.before_path, r.after_path});
  t.AddRow({"kind", std::string(ToString(r.before_kind)), std::string(ToString(r.after_kind))});
  t.AddRow({"command", Env(r.before_env.command), Env(r.after_env.command)});
  t.AddRow({"GPUs", Gpus(r.before_env), Gpus(r.after_env)});
  t.AddRow({"driver", Env(r.before_env.driver), Env(r.after_env.driver)});
  t.AddRow({"CUDA", Env(r.before_env.cuda), Env(r.after_env.cuda)});
  t.AddRow({"clocks", Env(r.before_env.clocks), Env(r.after_env.clocks)});
  out += t.Render() + "\n";
  out += fmt::format("{:.1f}% of kernel time is in kernels that both sides ran.\n\n",
                     100.0 * r.workload_overlap);
}

void OperatingPoint(std::string& out, const compare::CompareReport& r) {
  out += "## Baseline operating point\n\n";
  const compare::Statistic& s = r.end_to_end;
  if (s.n_before > 0) {
    out += fmt::format("Before: median {} over {} samples ({}).\n\n",
                       util::FormatDuration(s.median_before),
                       s.n_before,
                       EscapeMarkdown(r.end_to_end_source));
  } else {
    out += "Before: no end-to-end samples (a single trace or report).\n\n";
  }
  if (!r.before_headline.empty())
    out += EscapeMarkdown(r.before_headline) + "\n\n";
}

void LimitingOperation(std::string& out, const compare::CompareReport& r) {
  out += "## Limiting operation and predicted mechanism\n\n";
  if (r.kernels.empty()) {
    out += "No kernel ran on both sides.\n\n";
  } else {
    const compare::KernelResult& top = r.kernels.front();
    out +=
        fmt::format("The largest kernel before the change is **{}** ({:.1f}% of kernel time).\n\n",
                    EscapeMarkdown(Shorten(top.name, 120)),
                    100.0 * top.share_before);
  }
  out +=
      "gpuperf cannot see the code change: state the mechanism in the pull request in physical "
      "terms (bytes removed, launches removed, synchronizations removed, matrix instructions "
      "selected) and check it against the audit below.\n\n";
}

void Evidence(std::string& out, const compare::CompareReport& r) {
  out += "## Correctness and mechanism evidence\n\n";
  out += "Correctness is not measured by gpuperf: attach the test or accuracy results.\n\n";
  MarkdownTable t(
      {{"metric"}, {"before", Align::kRight}, {"after", Align::kRight}, {"change", Align::kRight}});
  for (const auto& a : r.audit) {
    std::string change = "n/a";
    if (a.before && a.after) {
      // No relative change from 0: "new".
      change =
          *a.before == *a.after ? "=" : (a.relative_change ? Change(*a.relative_change) : "new");
    }
    t.AddRow({Shorten(a.metric, 120), Value(a.before, a.unit), Value(a.after, a.unit), change});
  }
  out += t.Render() + "\n";
  auto list = [&](const char* title, const std::vector<std::string>& names) {
    if (names.empty())
      return;
    out += fmt::format("{} ({}):", title, names.size());
    std::size_t shown = std::min<std::size_t>(names.size(), 10);
    for (std::size_t i = 0; i < shown; ++i)
      out += (i == 0 ? " " : ", ") + EscapeMarkdown(Shorten(names[i], 80));
    out += names.size() > shown ? ", …\n\n" : "\n\n";
  };
  list("Kernels only before", r.only_before);
  list("Kernels only after", r.only_after);
  list("Operators only before", r.only_before_operators);
  list("Operators only after", r.only_after_operators);
}

void KernelTiming(std::string& out, const compare::CompareReport& r, std::size_t top_rows) {
  out += "## Named-operation timing\n\n";
  if (r.kernels.empty()) {
    out += "No kernel to compare.\n\n";
    return;
  }
  MarkdownTable t({{"#", Align::kRight},
                   {"kernel"},
                   {"verdict"},
                   {"n", Align::kRight},
                   {"median before", Align::kRight},
                   {"median after", Align::kRight},
                   {"change", Align::kRight},
                   {"CI", Align::kRight},
                   {"p", Align::kRight},
                   {"share", Align::kRight}});
  std::size_t shown = std::min(r.kernels.size(), top_rows);
  for (std::size_t i = 0; i < shown; ++i) {
    const compare::KernelResult& k = r.kernels[i];
    const compare::Statistic& s = k.statistic;
    t.AddRow({std::to_string(i + 1),
              Shorten(k.name, 100),
              std::string(compare::ToString(s.verdict)),
              fmt::format("{}/{}", s.n_before, s.n_after),
              util::FormatDuration(s.median_before),
              util::FormatDuration(s.median_after),
              Readable(s.change),
              Interval(s),
              s.p_value ? fmt::format("{:.3g}", *s.p_value) : "n/a",
              util::FormatPercent(100.0 * k.share_before)});
  }
  out += t.Render() + "\n";
  std::size_t total = r.kernels.size() + static_cast<std::size_t>(r.kernels_omitted);
  if (shown < total)
    out += fmt::format(
        "_Showing {} of {} kernels; compare.json has {}._\n\n", shown, total, r.kernels.size());
}

// Operators matched by name, then categories and modules by total GPU time.
void FrameworkTiming(std::string& out, const compare::CompareReport& r, std::size_t top_rows) {
  if (!r.operators.empty()) {
    out += "### By operator (per call, direct GPU time)\n\n";
    MarkdownTable t({{"operator"},
                     {"verdict"},
                     {"calls", Align::kRight},
                     {"median before", Align::kRight},
                     {"median after", Align::kRight},
                     {"total before", Align::kRight},
                     {"total after", Align::kRight},
                     {"share", Align::kRight}});
    std::size_t shown = std::min(r.operators.size(), top_rows);
    for (std::size_t i = 0; i < shown; ++i) {
      const compare::KernelResult& k = r.operators[i];
      const compare::Statistic& s = k.statistic;
      t.AddRow({Shorten(k.name, 100),
                std::string(compare::ToString(s.verdict)),
                fmt::format("{}/{}", s.n_before, s.n_after),
                util::FormatDuration(s.median_before),
                util::FormatDuration(s.median_after),
                util::FormatDuration(static_cast<double>(k.total_before_ns)),
                util::FormatDuration(static_cast<double>(k.total_after_ns)),
                util::FormatPercent(100.0 * k.share_before)});
    }
    out += t.Render() + "\n";
  }
  auto changes = [&](const char* title, const std::vector<compare::GroupChange>& rows) {
    if (rows.empty())
      return;
    out += fmt::format("### By {} (total GPU time)\n\n", title);
    MarkdownTable t(
        {{title}, {"before", Align::kRight}, {"after", Align::kRight}, {"change", Align::kRight}});
    std::size_t shown = std::min(rows.size(), top_rows);
    for (std::size_t i = 0; i < shown; ++i) {
      const compare::GroupChange& c = rows[i];
      t.AddRow({Shorten(c.name, 100),
                util::FormatDuration(static_cast<double>(c.before_ns)),
                util::FormatDuration(static_cast<double>(c.after_ns)),
                c.relative_change ? Change(*c.relative_change) : (c.after_ns > 0 ? "new" : "n/a")});
    }
    out += t.Render() + "\n";
  };
  changes("category", r.categories);
  changes("module", r.modules);
}

void EndToEnd(std::string& out, const compare::CompareReport& r) {
  out += "## End-to-end effect\n\n";
  const compare::Statistic& s = r.end_to_end;
  out += fmt::format("**{}**: {}\n\n", compare::ToString(s.verdict), EscapeMarkdown(s.reason));
  if (r.reconciliation.empty())
    return;
  out +=
      "Predicted (Amdahl, with BEFORE's critical-time fraction f and the measured kernel "
      "speedup) against measured:\n\n";
  MarkdownTable t({{"kernel"},
                   {"kernel speedup", Align::kRight},
                   {"f before", Align::kRight},
                   {"predicted program", Align::kRight},
                   {"measured program", Align::kRight},
                   {"flag"}});
  for (const auto& c : r.reconciliation) {
    t.AddRow({Shorten(c.kernel, 100),
              fmt::format("{:.3f}×", c.kernel_speedup),
              util::FormatPercent(100.0 * c.fraction_before),
              fmt::format("{:.4f}×", c.predicted_end_to_end_speedup),
              c.measured_end_to_end_speedup ? fmt::format("{:.4f}×", *c.measured_end_to_end_speedup)
                                            : "not measured",
              c.flag});
  }
  out += t.Render() + "\n";
}

void Limitations(std::string& out, const compare::CompareReport& r) {
  out += "## Limitations\n\n";
  for (const auto& l : r.limitations)
    out += "- " + EscapeMarkdown(l) + "\n";
  for (const auto& d : r.env_differences)
    out += fmt::format("- {} differs{}: before {}, after {}\n",
                       EscapeMarkdown(d.field),
                       d.gating ? " (makes the sides incomparable)" : " (recorded, not gating)",
                       EscapeMarkdown(Shorten(d.before, 200)),
                       EscapeMarkdown(Shorten(d.after, 200)));
  out += "\n";
}

void Reproduction(std::string& out, const compare::CompareReport& r, const ToolInfo& tool) {
  out += "## Reproduction\n\n";
  out += fmt::format("- Command: gpuperf compare {} {} --threshold {}%{}\n",
                     EscapeMarkdown(r.before_path),
                     EscapeMarkdown(r.after_path),
                     100.0 * r.options.threshold,
                     r.options.allow_different_env ? " --allow-different-env" : "");
  out += fmt::format("- Before sha256: {}\n", Env(r.before_sha256));
  out += fmt::format("- After sha256: {}\n", Env(r.after_sha256));
  out += fmt::format("- Executable sha256: before {}, after {}\n",
                     Env(r.before_env.executable_sha256),
                     Env(r.after_env.executable_sha256));
  out += fmt::format("- Method: {}\n", EscapeMarkdown(r.method));
  out += fmt::format("- Written by {}{} (compare schema {})\n",
                     EscapeMarkdown(tool.name),
                     tool.version.empty() ? "" : " " + EscapeMarkdown(tool.version),
                     compare::kCompareSchemaVersion);
}

}  // namespace

std::string CompareToMarkdown(const compare::CompareReport& r,
                              const ToolInfo& tool,
                              std::size_t top_rows) {
  std::string out;
  // The summary's two lines carry names from traces: escape everything but our bold verdict.
  std::size_t newline = r.summary.find('\n');
  std::string first = r.summary.substr(0, newline);
  std::string second = newline == std::string::npos ? "" : r.summary.substr(newline + 1);
  std::size_t bold_end = first.find("**", 2);
  if (first.rfind("**", 0) == 0 && bold_end != std::string::npos) {
    out += first.substr(0, bold_end + 2) + EscapeMarkdown(first.substr(bold_end + 2));
  } else {
    out += EscapeMarkdown(first);
  }
  out += "  \n" + EscapeMarkdown(second) + "\n\n";
  Workload(out, r);
  OperatingPoint(out, r);
  LimitingOperation(out, r);
  Evidence(out, r);
  KernelTiming(out, r, top_rows);
  FrameworkTiming(out, r, top_rows);
  EndToEnd(out, r);
  Limitations(out, r);
  Reproduction(out, r, tool);
  return out;
}

}  // namespace gpuperf::report
