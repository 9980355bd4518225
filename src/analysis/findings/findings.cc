#include "analysis/findings/findings.h"

#include <fmt/format.h>

#include "analysis/core/names.h"
#include "util/units_format.h"

namespace gpuperf::analysis {

void SetRows(report::Finding& finding, std::vector<report::FindingRow> rows, std::int64_t limit) {
  auto size = static_cast<std::int64_t>(rows.size());
  if (limit >= 0 && size > limit) {
    finding.rows_omitted = size - limit;
    rows.resize(static_cast<std::size_t>(limit));
  }
  finding.rows = std::move(rows);
}

void SetWaitCost(report::Finding& finding,
                 const RuleInput& in,
                 std::vector<util::Interval> waits,
                 std::vector<util::Interval> data_waits) {
  std::int64_t blocked = 0;
  for (const auto* list : {&waits, &data_waits}) {
    for (const util::Interval& w : *list)
      blocked += w.end - w.start;
  }
  finding.host_blocked_ns = blocked;
  if (in.idle) {
    std::vector<util::Interval> all = waits;
    all.insert(all.end(), data_waits.begin(), data_waits.end());
    finding.gpu_idle_queued_ns = in.idle->QueuedDuring(std::move(all));
    IdleAttribution::WaitIdle idle = in.idle->CausedSplit(std::move(waits), std::move(data_waits));
    finding.gpu_idle_caused_ns = idle.caused_ns;
    finding.gpu_idle_later_ns = idle.caused_ns - idle.adjacent_ns;
  }
  finding.columns.push_back({"GPU idle caused (ns)", report::ColumnUnit::kDurationNs});
}

LeftOut LeftOutBefore(const RuleInput& in, const std::vector<util::Interval>& waits) {
  LeftOut out;
  for (const util::Interval& w : waits) {
    if (BeforeWindow(in, w.start)) {
      ++out.count;
      out.blocked_ns += w.end - w.start;
    }
  }
  return out;
}

std::string BeforeWindowText(const LeftOut& left_out, bool all) {
  if (left_out.count == 0)
    return "";
  if (all)
    return fmt::format(
        " {} ({} blocked) {} before the steady-state window, in what the diagnosis leaves out (a "
        "start-up, warm-up steps, the previous step's tail): none is in the steady state, so "
        "they cost it nothing.",
        left_out.count == 1 ? std::string("It") : fmt::format("All {} of them", left_out.count),
        Ms(left_out.blocked_ns),
        left_out.count == 1 ? "lies" : "lie");
  return fmt::format(
      " {} more ({} blocked) {} before the steady-state window, in what the diagnosis leaves out "
      "(a start-up, warm-up steps, the previous step's tail): left out here.",
      left_out.count,
      Ms(left_out.blocked_ns),
      left_out.count == 1 ? "lies" : "lie");
}

std::string CausedCell(const RuleInput& in, std::int64_t start, std::int64_t end, bool data_wait) {
  if (!in.idle)
    return "-";
  return std::to_string(data_wait ? in.idle->CausedBy({}, {{start, end}})
                                  : in.idle->CausedBy({{start, end}}));
}

std::string IdleCausedText(const report::Finding& finding) {
  if (!finding.gpu_idle_caused_ns)
    return "";
  std::string queued;
  if (finding.gpu_idle_queued_ns.value_or(0) > 0)
    queued = fmt::format(
        " ({} more idle lies inside them with the next GPU work already queued: the GPU waited "
        "on a device-side dependency, not on these calls)",
        Ms(*finding.gpu_idle_queued_ns));
  const std::int64_t later = finding.gpu_idle_later_ns.value_or(0);
  if (later > 0)
    return fmt::format(
        "; they caused {} of GPU idle time ({} next to them; {} later: where the GPU waits for "
        "the host, they delay the host's later work and the GPU work it launches, until a wait "
        "for the GPU the host keeps absorbs the delay; trace){}: only that can come back",
        Ms(*finding.gpu_idle_caused_ns),
        Ms(*finding.gpu_idle_caused_ns - later),
        Ms(later),
        queued);
  return fmt::format(
      "; they caused {} of GPU idle time (the idle they overlap, trace){}: only that can come "
      "back",
      Ms(*finding.gpu_idle_caused_ns),
      queued);
}

std::string Ms(std::int64_t ns) {
  return util::FormatDuration(static_cast<double>(ns));
}

std::string TimedNames(const std::vector<std::pair<std::string, std::int64_t>>& names) {
  std::string text;
  for (const auto& [name, ns] : names)
    text += fmt::format("{}{} ({})", text.empty() ? "" : ", ", WithoutAddresses(name), Ms(ns));
  return text;
}

std::vector<report::Finding> RunRules(const RuleInput& in) {
  std::vector<report::Finding> findings;
  for (auto rule : {SyncMemcpyRule,
                    PageableAsyncMemcpyRule,
                    SyncMemsetRule,
                    SyncApiRule,
                    DeviceAllocChurnRule,
                    GpuGapsRule,
                    LowUtilizationRule,
                    LaunchOverheadRule,
                    GpuIdleRule,
                    GemmAlignmentRule,
                    SmallGridRule,
                    HostOsCallsRule}) {
    if (auto finding = rule(in))
      findings.push_back(std::move(*finding));
  }
  return findings;
}

}  // namespace gpuperf::analysis
