#include <fmt/format.h>

#include <cctype>
#include <map>
#include <optional>
#include <set>

#include "analysis/compare/compare_parts.h"
#include "util/units_format.h"

namespace gpuperf::analysis {
namespace {

using compare::CompareReport;
using compare::Statistic;

std::string Signed(const std::optional<double>& ratio) {
  return ratio ? fmt::format("{:+.1f}%", 100.0 * (*ratio - 1.0)) : std::string("n/a");
}

std::string Human(double ns) {
  return util::FormatDuration(ns);
}

std::string Upper(std::string text) {
  for (char& c : text)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

std::string Joined(const std::vector<std::string>& values) {
  std::set<std::string> unique(values.begin(), values.end());
  std::string out;
  for (const std::string& v : unique)
    out += (out.empty() ? "" : ", ") + v;
  return out;
}

void Summarize(CompareReport& out) {
  std::string first;
  if (out.verdict == compare::Verdict::kIncomparable) {
    std::vector<std::string> fields;
    for (const auto& d : out.env_differences) {
      if (d.gating)
        fields.push_back(d.field);
    }
    first = fmt::format("**gpuperf compare: INCOMPARABLE**: the sides differ in {}.",
                        fields.empty() ? std::string("workload") : Joined(fields));
  } else if (out.verdict_basis == compare::VerdictBasis::kEndToEnd) {
    const Statistic& s = out.end_to_end;
    first = fmt::format(
        "**gpuperf compare: {}**: end-to-end median {} → {} ({}; {:.0f}% CI {} to {}; p = {}; "
        "n = {}/{}; {}).",
        Upper(std::string(compare::ToString(out.verdict))),
        Human(s.median_before),
        Human(s.median_after),
        Signed(s.ratio),
        100.0 * (1.0 - out.options.alpha),
        Signed(s.ci_low),
        Signed(s.ci_high),
        s.p_value ? fmt::format("{:.3g}", *s.p_value) : std::string("n/a"),
        s.n_before,
        s.n_after,
        out.end_to_end_source);
  } else if (out.verdict_basis == compare::VerdictBasis::kIdenticalInputs) {
    first = "**gpuperf compare: SAME**: both sides are the same bytes (equal sha256).";
  } else {
    first = fmt::format(
        "**gpuperf compare: {}** from per-kernel timings ({}); no end-to-end samples to test.",
        Upper(std::string(compare::ToString(out.verdict))),
        out.end_to_end.reason);
  }
  std::map<compare::Verdict, int> counts;
  const compare::KernelResult* largest = nullptr;
  for (const auto& k : out.kernels) {
    ++counts[k.statistic.verdict];
    if ((k.statistic.verdict == compare::Verdict::kFaster ||
         k.statistic.verdict == compare::Verdict::kSlower) &&
        (largest == nullptr || k.share_before > largest->share_before))
      largest = &k;
  }
  std::string second = fmt::format("Kernels: {} slower, {} faster, {} same, {} inconclusive",
                                   counts[compare::Verdict::kSlower],
                                   counts[compare::Verdict::kFaster],
                                   counts[compare::Verdict::kSame],
                                   counts[compare::Verdict::kInconclusive]);
  if (!out.only_before.empty() || !out.only_after.empty())
    second += fmt::format(
        "; {} only before, {} only after", out.only_before.size(), out.only_after.size());
  if (largest != nullptr)
    second += fmt::format("; the largest changed kernel ({:.1f}% of kernel time) went {}",
                          100.0 * largest->share_before,
                          Signed(largest->statistic.ratio ? largest->statistic.ratio
                                                          : largest->statistic.mean_ratio));
  out.summary = first + "\n" + second + ".";
}

}  // namespace gpuperf::analysis
