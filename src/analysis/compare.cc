#include "analysis/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "analysis/amdahl.h"
#include "analysis/compare_stats.h"

namespace gpuperf::analysis {
namespace {

using compare::CompareReport;
using compare::Side;
using compare::Statistic;

constexpr double kSignificantKernelShare = 0.05;
constexpr double kSameCoverage = 0.80;

Statistic ToStatistic(const SampleComparison& c) {
  return Statistic{std::string(ToString(c.verdict)),
                   c.method,
                   c.n_before,
                   c.n_after,
                   c.median_before,
                   c.median_after,
                   c.ratio,
                   c.ci_low,
                   c.ci_high,
                   c.p_value,
                   c.reason};
}

CompareStatsOptions StatsOptions(const compare::Options& o) {
  CompareStatsOptions s;
  s.threshold = o.threshold;
  s.alpha = o.alpha;
  s.min_repeats = o.min_repeats;
  return s;
}

std::string Joined(const std::vector<std::string>& values) {
  std::set<std::string> unique(values.begin(), values.end());
  std::string out;
  for (const std::string& v : unique)
    out += (out.empty() ? "" : ", ") + v;
  return out;
}

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
      k.statistic = ToStatistic(CompareSummaries(SummaryOf(row->duration_ns),
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

std::string VerdictFromKernels(const CompareReport& out) {
  double same_share = 0;
  bool slower = false, faster = false;
  for (const auto& k : out.kernels) {
    const std::string& v = k.statistic.verdict;
    if (k.share_before >= kSignificantKernelShare) {
      slower |= v == "slower";
      faster |= v == "faster";
    }
    if (v == "same")
      same_share += k.share_before;
  }
  if (slower)
    return "slower";
  if (faster)
    return "faster";
  return same_share >= kSameCoverage ? "same" : "inconclusive";
}

std::optional<double> MeasuredSpeedup(const Statistic& s) {
  if (s.verdict == "inconclusive" && s.n_before == 0)
    return std::nullopt;
  if (s.median_after <= 0 || s.median_before <= 0)
    return std::nullopt;
  return s.median_before / s.median_after;
}

void Reconcile(const Side& before, CompareReport& out) {
  std::map<std::string, double> fraction;
  for (const auto& share : before.report.predictions.kernels)
    fraction[share.name] = share.fraction;
  bool e2e_measured = out.verdict_basis == "end_to_end";
  for (const auto& k : out.kernels) {
    if (k.statistic.verdict != "faster" && k.statistic.verdict != "slower")
      continue;
    auto f = fraction.find(k.name);
    if (f == fraction.end() || k.statistic.median_after <= 0)
      continue;
    compare::Reconciliation r;
    r.kernel = k.name;
    r.kernel_speedup = k.statistic.median_before / k.statistic.median_after;
    r.fraction_before = f->second;
    r.predicted_end_to_end_speedup = AmdahlSpeedup(f->second, r.kernel_speedup);
    if (e2e_measured)
      r.measured_end_to_end_speedup = MeasuredSpeedup(out.end_to_end);
    if (k.statistic.verdict == "faster") {
      if (!e2e_measured) {
        r.flag = "no end-to-end measurement: a faster kernel is not yet a faster program";
      } else if (out.end_to_end.verdict != "faster") {
        r.flag = fmt::format(
            "the kernel got faster but the program is {} (end-to-end priority rule): look for "
            "what now limits the program",
            out.end_to_end.verdict);
      }
    }
    out.reconciliation.push_back(std::move(r));
  }
}

double KernelTime(const report::AnalysisReport& r) {
  double total = 0;
  for (const auto& k : r.kernels)
    total += static_cast<double>(k.duration_ns.total);
  return total;
}

void Audit(const Side& before, const Side& after, CompareReport& out) {
  const report::Audit& b = before.report.audit;
  const report::Audit& a = after.report.audit;
  auto count = [&](const char* metric, std::int64_t x, std::int64_t y) {
    out.audit.push_back({metric, static_cast<double>(x), static_cast<double>(y), "count"});
  };
  count("kernel launches", b.kernel_launches, a.kernel_launches);
  count("distinct kernels", b.distinct_kernels, a.distinct_kernels);
  count("graph launches", b.graph_launches, a.graph_launches);
  count("device allocations", b.allocations, a.allocations);
  count("host-device synchronizations", b.synchronizations, a.synchronizations);
  count("device-to-device copies", b.memcpy_dtod, a.memcpy_dtod);
  count("host-to-device copies", b.memcpy_htod, a.memcpy_htod);
  count("device-to-host copies", b.memcpy_dtoh, a.memcpy_dtoh);
  auto peak = [](std::int64_t v) { return v < 0 ? std::nullopt : std::optional<double>(v); };
  out.audit.push_back(
      {"peak device memory", peak(b.peak_allocated_bytes), peak(a.peak_allocated_bytes), "bytes"});
  out.audit.push_back({"kernel time", KernelTime(before.report), KernelTime(after.report), "ns"});
  out.audit.push_back({"GPU busy",
                       static_cast<double>(before.report.timeline.busy_ns),
                       static_cast<double>(after.report.timeline.busy_ns),
                       "ns"});
  if (!before.report.kernels.empty()) {
    const report::KernelRow& dominant = before.report.kernels.front();
    std::optional<double> after_median, after_share;
    for (const auto& k : after.report.kernels) {
      if (k.name == dominant.name) {
        after_median = k.duration_ns.med;
        after_share = k.time_percent;
      }
    }
    out.audit.push_back({"dominant kernel median (" + dominant.name + ")",
                         dominant.duration_ns.med,
                         after_median,
                         "ns"});
    out.audit.push_back(
        {"dominant kernel share of kernel time", dominant.time_percent, after_share, "percent"});
  }
}

std::string Signed(double ratio) {
  return fmt::format("{:+.1f}%", 100.0 * (ratio - 1.0));
}

std::string Upper(std::string text) {
  for (char& c : text)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

void Summarize(CompareReport& out) {
  std::string first;
  if (out.verdict == "incomparable") {
    std::vector<std::string> fields;
    for (const auto& d : out.env_differences) {
      if (d.gating)
        fields.push_back(d.field);
    }
    first = fmt::format("**gpuperf compare: INCOMPARABLE**: the sides differ in {}.",
                        fields.empty() ? std::string("workload") : Joined(fields));
  } else if (out.verdict_basis == "end_to_end") {
    const Statistic& s = out.end_to_end;
    first = fmt::format(
        "**gpuperf compare: {}**: end-to-end median {:.6g} ms → {:.6g} ms ({}; {:.0f}% CI {} to "
        "{}; p = {:.3g}; n = {}/{}; {}).",
        Upper(out.verdict),
        s.median_before / 1e6,
        s.median_after / 1e6,
        Signed(s.ratio),
        100.0 * (1.0 - out.options.alpha),
        Signed(s.ci_low),
        Signed(s.ci_high),
        s.p_value,
        s.n_before,
        s.n_after,
        out.end_to_end_source);
  } else if (out.verdict_basis == "identical_inputs") {
    first = "**gpuperf compare: SAME**: both sides are the same bytes (equal sha256).";
  } else {
    first = fmt::format(
        "**gpuperf compare: {}** from per-kernel timings ({}); no end-to-end samples to test.",
        Upper(out.verdict),
        out.end_to_end.reason);
  }
  std::map<std::string, int> counts;
  const compare::KernelResult* largest = nullptr;
  for (const auto& k : out.kernels) {
    ++counts[k.statistic.verdict];
    if ((k.statistic.verdict == "faster" || k.statistic.verdict == "slower") &&
        (largest == nullptr || k.share_before > largest->share_before))
      largest = &k;
  }
  std::string second = fmt::format("Kernels: {} slower, {} faster, {} same, {} inconclusive",
                                   counts["slower"],
                                   counts["faster"],
                                   counts["same"],
                                   counts["inconclusive"]);
  if (!out.only_before.empty() || !out.only_after.empty())
    second += fmt::format(
        "; {} only before, {} only after", out.only_before.size(), out.only_after.size());
  if (largest != nullptr)
    second += fmt::format("; the largest changed kernel ({:.1f}% of kernel time) went {}",
                          100.0 * largest->share_before,
                          Signed(largest->statistic.ratio));
  out.summary = first + "\n" + second + ".";
}

}  // namespace

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
    out.end_to_end.verdict = "inconclusive";
    out.end_to_end.reason = "no end-to-end samples on at least one side";
  }
  CompareKernels(before, after, options, out);
  if (out.kernels.size() > options.kernels_kept) {
    out.kernels_omitted = static_cast<std::int64_t>(out.kernels.size() - options.kernels_kept);
  }

  bool e2e_testable = out.end_to_end.n_before >= options.min_repeats &&
                      out.end_to_end.n_after >= options.min_repeats;
  const bool identical = !before.sha256.empty() && before.sha256 == after.sha256;
  if (gating && !options.allow_different_env) {
    out.verdict = "incomparable";
    out.verdict_basis = "environment";
  } else if (identical) {
    out.verdict = "same";  // nothing can differ; the statistics below are shown as computed
    out.verdict_basis = "identical_inputs";
  } else if (e2e_testable) {
    out.verdict = out.end_to_end.verdict;
    out.verdict_basis = "end_to_end";
  } else {
    out.verdict = VerdictFromKernels(out);
    out.verdict_basis = "kernels";
  }
  Audit(before, after, out);
  Reconcile(before, out);
  if (out.kernels.size() > options.kernels_kept)
    out.kernels.resize(options.kernels_kept);

  if (out.verdict_basis == "kernels")
    out.limitations.push_back(
        "No end-to-end distribution (fewer than the minimum samples per side): the verdict comes "
        "from kernel timings, and a faster kernel is not yet a faster program.");
  out.limitations.push_back(
      "Kernel instances are treated as independent samples; instances of one run share its "
      "clocks and thermal state, so p-values of per-kernel verdicts are optimistic.");
  if (before.kind == "report" || after.kind == "report")
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
