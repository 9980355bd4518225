// OS runtime calls of the threads that launch GPU work, made while the GPU idled and no CUDA call
// ran (docs/metrics.md, "Findings"): file writes, polling, sleeps between GPU work. Nsight Systems
// records them (OSRT_API); the GPU waits for the host meanwhile, so the idle they cover is what
// moving them off the launching thread (or making them asynchronous) can give back.
#include <fmt/format.h>

#include "analysis/findings/findings.h"

namespace gpuperf::analysis {

std::optional<report::Finding> HostOsCallsRule(const RuleInput& in) {
  if (!in.idle || in.idle->os_call_ns <= 0 || in.idle->steady_window_ns <= 0)
    return std::nullopt;
  const IdleAttribution& idle = *in.idle;
  double share = static_cast<double>(idle.os_call_ns) / static_cast<double>(idle.steady_window_ns);
  if (share < 0.01)  // under 1% of the window: said in the idle evidence, not a finding
    return std::nullopt;
  report::Finding f;
  f.id = report::finding_id::kHostOsCalls;
  f.title = "OS calls on the launching thread while the GPU idles";
  f.source = "trace";
  f.severity = share >= 0.05 ? report::Severity::kWarning : report::Severity::kInfo;
  f.count = idle.os_calls_in_gaps;
  f.time_ns = idle.os_call_ns;
  f.summary = fmt::format(
      "{} OS runtime calls of the threads that launch GPU work cover {} of GPU idle with no CUDA "
      "call ({:.1f}% of the steady-state window), most in {}: the GPU waits while the host "
      "writes, polls or sleeps (trace: OS runtime calls).",
      f.count,
      Ms(f.time_ns),
      100.0 * share,
      TimedNames(idle.top_os_calls));
  f.advice =
      "Move the I/O off the launching thread (a writer thread, asynchronous I/O), write less "
      "often (buffer per-step output), or overlap it with GPU work queued ahead; only the GPU "
      "idle these calls cover comes back.";
  f.columns = {{"Call"}, {"GPU idle covered (ns)", report::ColumnUnit::kDurationNs}};
  std::vector<report::FindingRow> rows;
  for (const auto& [name, ns] : idle.top_os_calls)
    rows.push_back({{name, std::to_string(ns)}});
  SetRows(f, std::move(rows), in.options.finding_rows);
  return f;
}

}  // namespace gpuperf::analysis
