// nsys gpu-starv / gpu_gaps: idle stretches between GPU operations of one (pid, device).
// Leading and trailing idle time is not a gap. nsys counts its own profiler overhead as busy;
// the model does not carry it, so a gap that overhead fills in nsys is reported here.
#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "analysis/core/names.h"
#include "analysis/findings/findings.h"
#include "analysis/timeline/gpu_groups.h"

namespace gpuperf::analysis {
namespace {

struct Gap {
  std::int64_t duration_ns, start_ns, pid;
  std::int32_t device;
};

}  // namespace

std::optional<report::Finding> GpuGapsRule(const RuleInput& in) {
  std::vector<Gap> gaps;
  for (auto& [key, ops] : GpuOpsByPidDevice(in.trace)) {
    auto busy = util::MergeIntervals(ops);
    for (std::size_t i = 1; i < busy.size(); ++i) {
      std::int64_t idle = busy[i].start - busy[i - 1].end;
      if (idle >= in.options.gap_threshold_ns) {
        gaps.push_back({idle, busy[i - 1].end, key.first, key.second});
      }
    }
  }
  if (gaps.empty())
    return std::nullopt;
  // The steady-state window's gaps (by their start); those before it are the start-up or warm-up
  // steps the diagnosis leaves out, said apart.
  std::int64_t before = 0, before_ns = 0;
  for (const Gap& g : gaps) {
    if (BeforeWindow(in, g.start_ns)) {
      ++before;
      before_ns += g.duration_ns;
    }
  }
  // All of them before it: the steady state has no gap (the low-utilization finding and the
  // Initialization section say what the start-up held).
  if (before == static_cast<std::int64_t>(gaps.size()))
    return std::nullopt;
  std::erase_if(gaps, [&](const Gap& g) { return BeforeWindow(in, g.start_ns); });
  report::Finding f;
  f.id = report::finding_id::kGpuGaps;
  f.title = "GPU gaps";
  f.severity = report::Severity::kWarning;
  f.source = "trace";
  f.count = static_cast<std::int64_t>(gaps.size());
  for (const Gap& g : gaps)
    f.time_ns += g.duration_ns;
  f.summary = fmt::format(
      "{} stretches of at least {} with no GPU work ({} in total), between the "
      "first and the last GPU operation of a device.",
      f.count,
      Ms(in.options.gap_threshold_ns),
      Ms(f.time_ns));
  if (before > 0) {
    f.summary += fmt::format(
        " {} more ({}) {} before the steady-state window, in what the diagnosis leaves out: left "
        "out here.",
        before,
        Ms(before_ns),
        before == 1 ? "lies" : "lie");
  }
  // Never ask for what the input holds: with host records the Diagnosis names what filled them.
  f.advice =
      in.idle && in.idle->has_host_work_records
          ? "The Diagnosis attributes these gaps from the trace's own host records (operators, "
            "ranges, Python frames, OS calls, CPU samples): its evidence names what filled them."
          : "The trace shows that the GPU waited, not why. Hypotheses: a slow or blocked host "
            "thread, synchronization, or I/O; test them with host-side ranges (NVTX, CPU "
            "sampling) over the gap windows.";
  f.columns = {{"Duration (ns)", report::ColumnUnit::kDurationNs},
               {"Start (ns)", report::ColumnUnit::kStartNs},
               {"PID"},
               {"Device ID"}};
  SetTopRows(
      f,
      gaps,
      [](const Gap& a, const Gap& b) {
        return std::make_tuple(-a.duration_ns, a.start_ns, a.pid, a.device) <
               std::make_tuple(-b.duration_ns, b.start_ns, b.pid, b.device);
      },
      [](const Gap& g) {
        return report::FindingRow{{std::to_string(g.duration_ns),
                                   std::to_string(g.start_ns),
                                   IdCell(g.pid),
                                   std::to_string(g.device)}};
      },
      in.options.finding_rows);
  return f;
}

}  // namespace gpuperf::analysis
