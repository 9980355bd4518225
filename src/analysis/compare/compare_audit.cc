#include <fmt/format.h>

#include <map>
#include <optional>

#include "analysis/compare/compare_parts.h"
#include "analysis/predictions/amdahl.h"

namespace gpuperf::analysis {
namespace {

using compare::CompareReport;
using compare::Side;
using compare::Statistic;

std::optional<double> MeasuredSpeedup(const Statistic& s) {
  if (s.verdict == compare::Verdict::kInconclusive && s.n_before == 0)
    return std::nullopt;
  if (s.median_after <= 0 || s.median_before <= 0)
    return std::nullopt;
  return s.median_before / s.median_after;
}

double KernelTime(const report::AnalysisReport& r) {
  double total = 0;
  for (const auto& k : r.kernels)
    total += static_cast<double>(k.duration_ns.total);
  return total;
}

}  // namespace

void Reconcile(const Side& before, CompareReport& out) {
  std::map<std::string, double> fraction;
  for (const auto& share : before.report.predictions.kernels)
    fraction[share.name] = share.fraction;
  bool e2e_measured = out.verdict_basis == compare::VerdictBasis::kEndToEnd;
  for (const auto& k : out.kernels) {
    if (k.statistic.verdict != compare::Verdict::kFaster &&
        k.statistic.verdict != compare::Verdict::kSlower)
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
    if (k.statistic.verdict == compare::Verdict::kFaster) {
      if (!e2e_measured) {
        r.flag = "no end-to-end measurement: a faster kernel is not yet a faster program";
      } else if (out.end_to_end.verdict != compare::Verdict::kFaster) {
        r.flag = fmt::format(
            "the kernel got faster but the program is {} (end-to-end priority rule): look for "
            "what now limits the program",
            compare::ToString(out.end_to_end.verdict));
      }
    }
    out.reconciliation.push_back(std::move(r));
  }
}

void CompareAudit(const Side& before, const Side& after, CompareReport& out) {
  const report::Audit& b = before.report.audit;
  const report::Audit& a = after.report.audit;
  auto count = [&](const char* metric, std::int64_t x, std::int64_t y) {
    out.audit.push_back(
        {metric, static_cast<double>(x), static_cast<double>(y), "count", std::nullopt});
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
  out.audit.push_back({"peak device memory",
                       peak(b.peak_allocated_bytes),
                       peak(a.peak_allocated_bytes),
                       "bytes",
                       std::nullopt});
  out.audit.push_back(
      {"kernel time", KernelTime(before.report), KernelTime(after.report), "ns", std::nullopt});
  out.audit.push_back({"GPU busy",
                       static_cast<double>(before.report.timeline.busy_ns),
                       static_cast<double>(after.report.timeline.busy_ns),
                       "ns",
                       std::nullopt});
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
                         "ns",
                         std::nullopt});
    out.audit.push_back({"dominant kernel share of kernel time",
                         dominant.time_percent,
                         after_share,
                         "percent",
                         std::nullopt});
  }
  for (compare::AuditRow& row : out.audit) {
    if (row.before && row.after && *row.before != 0)
      row.relative_change = *row.after / *row.before - 1.0;
  }
}

}  // namespace gpuperf::analysis
