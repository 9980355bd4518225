#include "analysis/compare/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "analysis/compare/compare_parts.h"
#include "analysis/compare/compare_stats.h"

namespace gpuperf::analysis {
namespace {

using compare::CompareReport;
using compare::Side;
using compare::Statistic;

constexpr double kSignificantKernelShare = 0.05;
constexpr double kSameCoverage = 0.80;

void CheckEnvironment(const Side& before, const Side& after, CompareReport& out) {
  const compare::Fingerprint& b = before.fingerprint;
  const compare::Fingerprint& a = after.fingerprint;
  auto check = [&](const char* field, const std::string& x, const std::string& y, bool gating) {
    if (!x.empty() && !y.empty() && x != y)
      out.env_differences.push_back({field, x, y, gating});
  };
  check("gpus", Joined(b.gpus), Joined(a.gpus), true);
  check("driver", b.driver, a.driver, true);
  check("cuda", b.cuda, a.cuda, true);
  check("clocks", b.clocks, a.clocks, true);
  check("command", b.command, a.command, true);
  // The executable is what a change usually changes: recorded, never gating.
  check("executable_sha256", b.executable_sha256, a.executable_sha256, false);
  for (const auto& [input, sha] : b.inputs) {
    auto it = a.inputs.find(input);
    if (it != a.inputs.end())
      check(("input " + input).c_str(), sha, it->second, true);
  }
}

// Share of kernel time (both sides together) in kernel names that both sides ran.
double WorkloadOverlap(const report::AnalysisReport& b, const report::AnalysisReport& a) {
  std::map<std::string, std::int64_t> before, after;
  for (const auto& k : b.kernels)
    before[k.name] += k.duration_ns.total;
  for (const auto& k : a.kernels)
    after[k.name] += k.duration_ns.total;
  double common = 0, all = 0;
  for (const auto& [name, ns] : before) {
    all += static_cast<double>(ns);
    if (after.contains(name))
      common += static_cast<double>(ns);
  }
  for (const auto& [name, ns] : after) {
    all += static_cast<double>(ns);
    if (before.contains(name))
      common += static_cast<double>(ns);
  }
  return all > 0 ? common / all : 1.0;
}

std::map<std::string, const report::KernelRow*> KernelsByName(const report::AnalysisReport& r) {
  std::map<std::string, const report::KernelRow*> out;
  for (const auto& k : r.kernels)
    out.emplace(k.name, &k);
  return out;
}

SummaryStats SummaryOf(const report::Distribution& d) {
  return SummaryStats{d.count, d.avg, d.stddev, d.med};
}

void CompareKernels(const Side& before,
                    const Side& after,
                    const compare::Options& options,
                    CompareReport& out) {
  auto b = KernelsByName(before.report);
  auto a = KernelsByName(after.report);
  double before_total = 0;
  for (const auto& [name, row] : b)
    before_total += static_cast<double>(row->duration_ns.total);
  for (const auto& [name, row] : b) {
    auto other = a.find(name);
    if (other == a.end()) {
      out.only_before.push_back(name);
      continue;
    }
    compare::KernelResult k;
    k.name = name;
    k.total_before_ns = row->duration_ns.total;
    k.total_after_ns = other->second->duration_ns.total;
    k.share_before =
        before_total > 0 ? static_cast<double>(row->duration_ns.total) / before_total : 0.0;
    auto sb = before.kernel_samples_ns.find(name);
    auto sa = after.kernel_samples_ns.find(name);
    if (sb != before.kernel_samples_ns.end() && sa != after.kernel_samples_ns.end()) {
      k.statistic = ToStatistic(CompareSamples(sb->second, sa->second, StatsOptions(options)));
    } else {
      k.statistic = SummaryStatistic(CompareSummaries(SummaryOf(row->duration_ns),
                                                      SummaryOf(other->second->duration_ns),
                                                      StatsOptions(options)));
    }
    out.kernels.push_back(std::move(k));
  }
  for (const auto& [name, row] : a) {
    if (!b.contains(name))
      out.only_after.push_back(name);
  }
  std::stable_sort(out.kernels.begin(), out.kernels.end(), [](const auto& x, const auto& y) {
    return x.total_before_ns > y.total_before_ns;
  });
}

compare::Verdict VerdictFromKernels(const CompareReport& out) {
  double same_share = 0;
  bool slower = false, faster = false;
  for (const auto& k : out.kernels) {
    const compare::Verdict v = k.statistic.verdict;
    if (k.share_before >= kSignificantKernelShare) {
      slower |= v == compare::Verdict::kSlower;
      faster |= v == compare::Verdict::kFaster;
    }
    if (v == compare::Verdict::kSame)
      same_share += k.share_before;
  }
  if (slower)
    return compare::Verdict::kSlower;
  if (faster)
    return compare::Verdict::kFaster;
  return same_share >= kSameCoverage ? compare::Verdict::kSame : compare::Verdict::kInconclusive;
}

// Spans more than a factor of four: an interval that carries no information.
constexpr double kTooWideFactor = 4;

std::optional<compare::ChangeReading> ReadingOf(const std::optional<double>& ratio) {
  if (!ratio)
    return std::nullopt;
  // A factor only for a positive ratio (a Welch interval can reach below 0).
  const double factor = *ratio >= 1 ? *ratio : *ratio > 0 ? 1.0 / *ratio : 0.0;
  return compare::ChangeReading{*ratio, *ratio - 1.0, factor};
}

// The readings of the ratio and its interval, once the ratio is final.
void ReadChanges(Statistic& s) {
  s.change = ReadingOf(s.ratio);
  s.ci_low_change = ReadingOf(s.ci_low);
  s.ci_high_change = ReadingOf(s.ci_high);
  s.ci_too_wide = s.ci_low && s.ci_high && *s.ci_high > kTooWideFactor * std::max(*s.ci_low, 1e-12);
}

}  // namespace

compare::Statistic ToStatistic(const SampleComparison& c) {
  Statistic s;
  s.verdict = c.verdict;
  s.method = c.method;
  s.n_before = c.n_before;
  s.n_after = c.n_after;
  s.median_before = c.median_before;
  s.median_after = c.median_after;
  if (c.estimated) {
    s.ratio = c.ratio;
    s.ci_low = c.ci_low;
    s.ci_high = c.ci_high;
  }
  if (c.tested)
    s.p_value = c.p_value;
  s.reason = c.reason;
  ReadChanges(s);
  return s;
}

compare::Statistic SummaryStatistic(const SampleComparison& c) {
  Statistic s = ToStatistic(c);
  s.mean_ratio = s.ratio;
  s.ratio.reset();
  if (c.median_before > 0 && c.median_after > 0)
    s.ratio = c.median_after / c.median_before;
  ReadChanges(s);
  return s;
}

CompareStatsOptions StatsOptions(const compare::Options& o) {
  CompareStatsOptions s;
  s.threshold = o.threshold;
  s.alpha = o.alpha;
  s.min_repeats = o.min_repeats;
  return s;
}

compare::CompareReport Compare(const Side& before,
                               const Side& after,
                               const compare::Options& options) {
  CompareReport out;
  out.options = options;
  out.before_path = before.path;
  out.after_path = after.path;
  out.before_kind = before.kind;
  out.after_kind = after.kind;
  out.before_sha256 = before.sha256;
  out.after_sha256 = after.sha256;
  out.before_env = before.fingerprint;
  out.after_env = after.fingerprint;
  out.before_headline = before.report.headline;
  out.after_headline = after.report.headline;
  out.method = fmt::format(
      "Samples (run wall times, iterations, kernel instances): Mann-Whitney U, two-sided, alpha "
      "{}, with a bootstrap {:.0f}% CI of the median ratio; summaries only (report inputs): "
      "Welch's t on the means. A change counts when it is significant and at least {:.1f}%; "
      "'same' needs significance below the threshold or a CI inside +/-{:.1f}%. At least {} "
      "samples per side.",
      options.alpha,
      100.0 * (1.0 - options.alpha),
      100.0 * options.threshold,
      100.0 * options.threshold,
      options.min_repeats);

  CheckEnvironment(before, after, out);
  out.workload_overlap = WorkloadOverlap(before.report, after.report);
  if (out.workload_overlap < options.min_workload_overlap) {
    out.env_differences.push_back(
        {"workload",
         fmt::format("{} kernels", before.report.kernels.size()),
         fmt::format("{} kernels; only {:.1f}% of kernel time is in kernels both sides ran",
                     after.report.kernels.size(),
                     100.0 * out.workload_overlap),
         true});
  }
  bool gating = std::any_of(
      out.env_differences.begin(), out.env_differences.end(), [](auto& d) { return d.gating; });

  if (!before.wall_samples_ns.empty() && !after.wall_samples_ns.empty()) {
    out.end_to_end = ToStatistic(
        CompareSamples(before.wall_samples_ns, after.wall_samples_ns, StatsOptions(options)));
    out.end_to_end_source = before.wall_samples_source == after.wall_samples_source
                                ? before.wall_samples_source
                                : before.wall_samples_source + " / " + after.wall_samples_source;
  } else {
    out.end_to_end.verdict = compare::Verdict::kInconclusive;
    out.end_to_end.reason = "no end-to-end samples on at least one side";
  }
  CompareKernels(before, after, options, out);
  CompareFramework(before, after, options, out);
  if (out.kernels.size() > options.kernels_kept) {
    out.kernels_omitted = static_cast<std::int64_t>(out.kernels.size() - options.kernels_kept);
  }

  bool e2e_testable = out.end_to_end.n_before >= options.min_repeats &&
                      out.end_to_end.n_after >= options.min_repeats;
  const bool identical = !before.sha256.empty() && before.sha256 == after.sha256;
  if (gating && !options.allow_different_env) {
    out.verdict = compare::Verdict::kIncomparable;
    out.verdict_basis = compare::VerdictBasis::kEnvironment;
  } else if (identical) {
    out.verdict =
        compare::Verdict::kSame;  // nothing can differ; the statistics below are shown as computed
    out.verdict_basis = compare::VerdictBasis::kIdenticalInputs;
  } else if (e2e_testable) {
    out.verdict = out.end_to_end.verdict;
    out.verdict_basis = compare::VerdictBasis::kEndToEnd;
  } else {
    out.verdict = VerdictFromKernels(out);
    out.verdict_basis = compare::VerdictBasis::kKernels;
  }
  CompareAudit(before, after, out);
  Reconcile(before, out);
  if (out.kernels.size() > options.kernels_kept)
    out.kernels.resize(options.kernels_kept);

  if (out.verdict_basis == compare::VerdictBasis::kKernels)
    out.limitations.push_back(
        "No end-to-end distribution (fewer than the minimum samples per side): the verdict comes "
        "from kernel timings, and a faster kernel is not yet a faster program.");
  out.limitations.push_back(
      "Kernel instances are treated as independent samples; instances of one run share its "
      "clocks and thermal state, so p-values of per-kernel verdicts are optimistic.");
  if (before.kind == compare::SideKind::kReport || after.kind == compare::SideKind::kReport)
    out.limitations.push_back(
        "A report keeps kernel summaries only: per-kernel verdicts use Welch's t on the means.");
  if (gating && options.allow_different_env)
    out.limitations.push_back(
        "The environments differ (--allow-different-env): the differences below may explain the "
        "result as well as the change does.");
  Summarize(out);
  return out;
}

}  // namespace gpuperf::analysis
