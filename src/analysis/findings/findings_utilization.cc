// nsys gpu-low-util / gpu_time_util: the span of each (pid, device) from its first to its last
// GPU operation is cut into `utilization_chunks` chunks of ceil(span / chunks) ns (the last one
// clipped to the span). A chunk's in-use percent is the summed overlap of all operations with it
// (overlapping operations add up, so it can exceed 100) over its length. Chunks under the
// threshold are flagged; consecutive flagged chunks merge, weighted by chunk length. The part of
// the windows inside one-time work (initialization.h) is start-up: said, and left out of
// time_ns, so that the bound is over the same steady state as the diagnosis.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <tuple>

#include "analysis/core/names.h"
#include "analysis/findings/findings.h"
#include "analysis/timeline/gpu_groups.h"
#include "util/counted.h"
#include "util/intervals.h"

namespace gpuperf::analysis {
namespace {

struct Window {
  double percent;  // rounded to 0.1 as nsys prints it
  std::int64_t duration_ns, start_ns, pid;
  std::int32_t device;
  // Of duration_ns, outside one-time work: no GPU operation of the device running.
  std::int64_t steady_idle_ns;
};

// Summed overlap of `ops` with each chunk.
std::vector<std::int64_t> ChunkBusy(const std::vector<util::Interval>& ops,
                                    std::int64_t start,
                                    std::int64_t chunk,
                                    std::size_t chunks) {
  std::vector<std::int64_t> busy(chunks, 0);
  for (const util::Interval& op : ops) {
    if (op.end <= op.start)
      continue;
    auto first = static_cast<std::size_t>((op.start - start) / chunk);
    auto last = std::min(chunks - 1, static_cast<std::size_t>((op.end - 1 - start) / chunk));
    for (std::size_t i = first; i <= last; ++i) {
      std::int64_t cstart = start + static_cast<std::int64_t>(i) * chunk;
      busy[i] += std::min(op.end, cstart + chunk) - std::max(op.start, cstart);
    }
  }
  return busy;
}

void AddWindows(const PidDevice& key,
                const std::vector<util::Interval>& ops,
                const RuleInput& in,
                std::vector<Window>& out) {
  std::int64_t start = ops.front().start;
  std::int64_t end = start;
  for (const util::Interval& op : ops)
    end = std::max(end, op.end);
  auto chunks = static_cast<std::size_t>(std::max(1, in.options.utilization_chunks));
  auto n = static_cast<std::int64_t>(chunks);
  std::int64_t chunk = (end - start + n - 1) / n;
  if (chunk <= 0)
    return;
  std::vector<std::int64_t> busy = ChunkBusy(ops, start, chunk, chunks);
  std::vector<util::Interval> merged = util::MergeIntervals(ops);
  double weighted = 0;
  std::int64_t run_start = -1, run_end = 0;
  auto flush = [&] {
    if (run_start < 0)
      return;
    double percent = std::round(weighted / static_cast<double>(run_end - run_start) * 10) / 10;
    // The part in the steady-state window: after its start, outside one-time work.
    std::vector<util::Interval> steady = {
        {std::max(run_start, std::min(run_end, in.steady_start_ns)), run_end}};
    if (in.one_time)
      steady = util::Subtract(steady, *in.one_time);
    std::int64_t idle = 0, length = 0;
    for (const util::Interval& part : steady) {
      length += part.end - part.start;
      idle += part.end - part.start - util::CoveredLength(merged, part.start, part.end);
    }
    // A window mostly before the steady state can reach into it where the GPU is busy: that part
    // is no low utilization (the H200 MLP: a 5.98 s window whose 71 ms in the window are 89%
    // busy).
    if (length > 0 && 100.0 * static_cast<double>(length - idle) / static_cast<double>(length) >=
                          in.options.utilization_threshold_percent)
      idle = 0;
    out.push_back({percent, run_end - run_start, run_start, key.first, key.second, idle});
    run_start = -1;
    weighted = 0;
  };
  for (std::size_t i = 0; i < chunks; ++i) {
    std::int64_t cstart = start + static_cast<std::int64_t>(i) * chunk;
    std::int64_t cend = std::min(cstart + chunk, end);
    if (cstart >= cend)
      break;
    auto size = static_cast<double>(cend - cstart);
    double percent = 100.0 * static_cast<double>(busy[i]) / size;
    if (percent >= in.options.utilization_threshold_percent) {
      flush();
      continue;
    }
    if (run_start < 0)
      run_start = cstart;
    run_end = cend;
    weighted += size * percent;
  }
  flush();
}

}  // namespace

std::optional<report::Finding> LowUtilizationRule(const RuleInput& in) {
  std::vector<Window> windows;
  for (const auto& [key, ops] : GpuOpsByPidDevice(in.trace))
    AddWindows(key, ops, in, windows);
  if (windows.empty())
    return std::nullopt;
  report::Finding f;
  f.id = report::finding_id::kGpuLowUtilization;
  f.title = "GPU low utilization";
  f.severity = report::Severity::kWarning;
  f.source = "trace";
  f.count = static_cast<std::int64_t>(windows.size());
  std::int64_t total_ns = 0;
  std::int64_t start_up_ns = 0;  // inside one-time work: not the steady state the diagnosis is of
  std::int64_t start_up_windows = 0;
  std::int64_t steady_idle_ns = 0;
  for (const Window& w : windows) {
    total_ns += w.duration_ns;
    std::int64_t inside =
        in.one_time ? util::CoveredLength(*in.one_time, w.start_ns, w.start_ns + w.duration_ns) : 0;
    start_up_ns += inside;
    start_up_windows += inside > 0 ? 1 : 0;
    steady_idle_ns += w.steady_idle_ns;
  }
  // The bound (time_ns over the steady-state window) counts only what could go: the idle inside
  // the windows' steady-state part, not their busy time (b200: its whole 78.9 ms of windows bound
  // 27.8x beside an idle bound of 9.17x).
  f.time_ns = steady_idle_ns;
  f.summary = fmt::format(
      "{} ({} in total) where GPU operations covered less than {:.0f}% of the time "
      "(span cut into {} equal chunks per device); the GPU idled {} of it in parts of the "
      "steady-state window (after its start, outside one-time work) under that share too, "
      "which is all the bound counts.",
      util::Counted(f.count, "window", "windows"),
      Ms(total_ns),
      in.options.utilization_threshold_percent,
      in.options.utilization_chunks,
      Ms(steady_idle_ns));
  if (start_up_ns > 0) {
    f.summary += fmt::format(
        " {} of it ({} of the windows) lies inside one-time work (start-up: section "
        "Initialization), which the diagnosis leaves out of the steady state.",
        Ms(start_up_ns),
        start_up_windows);
  }
  // Idle only outside the steady state (a start-up, warm-up steps): it costs the steady state
  // nothing, so it is information (the H200 MLP: 5.55 s of start-up).
  if (f.time_ns == 0) {
    f.severity = report::Severity::kInfo;
    f.summary +=
        " None of it is in a low-utilization part of the steady-state window: it costs the steady "
        "state nothing.";
  }
  // What the host did in these windows is the idle attribution's (Diagnosis): this finding only
  // locates them.
  f.advice =
      "This is time utilization, not resource utilization. The Diagnosis attributes the GPU "
      "idle time (host work, launch calls, synchronizations, queued work) from the trace's host "
      "records; where they do not cover a window, host-side ranges (NVTX, CPU sampling) over it "
      "would.";
  f.columns = {{"In-Use (%)"},
               {"Duration (ns)", report::ColumnUnit::kDurationNs},
               {"Start (ns)", report::ColumnUnit::kStartNs},
               {"PID"},
               {"Device ID"}};
  SetTopRows(
      f,
      windows,
      [](const Window& a, const Window& b) {
        return std::tie(a.percent, a.duration_ns, a.start_ns, a.pid, a.device) <
               std::tie(b.percent, b.duration_ns, b.start_ns, b.pid, b.device);
      },
      [](const Window& w) {
        return report::FindingRow{{fmt::format("{:.1f}", w.percent),
                                   std::to_string(w.duration_ns),
                                   std::to_string(w.start_ns),
                                   IdCell(w.pid),
                                   std::to_string(w.device)}};
      },
      in.options.finding_rows);
  return f;
}

}  // namespace gpuperf::analysis
