// Finding rules (report::Finding with stable ids), mirroring `nsys analyze` where it has a rule
// (docs/formats.md, "nsys analyze rules"; docs/metrics.md, "Findings"). A rule returns nothing when
// the trace shows no problem or lacks the data.
#pragma once

#include "gpuperf/analyze.h"
#include "gpuperf/finding_ids.h"
#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/core/correlation.h"
#include "analysis/kernel/kernel_floor.h"
#include "analysis/timeline/blocked_launches.h"
#include "analysis/timeline/idle_attribution.h"

namespace gpuperf::analysis {

// Under this share of the steady-state window a finding's cost is immaterial (1.005x at most):
// BoundFindings makes such a warning information, and a rule says no more about it.
inline constexpr double kMaterialFraction = 0.005;

struct RuleInput {
  const model::Trace& trace;
  const CorrelationIndex& index;
  const AnalyzeOptions& options;
  const report::Timeline& timeline;      // the default (all activities) timeline
  const report::LaunchOverhead& launch;  // primary launch records only
  // The idle attribution of the window: wait-type rules size their GPU cost with it (absent:
  // they report host time only).
  const IdleAttribution* idle = nullptr;
  // One-time work (initialization.h), merged: launch calls inside it are no steady-state launch
  // overhead (absent: every call counts).
  const std::vector<util::Interval>* one_time = nullptr;
  // Where the steady-state window starts (after a pre-roll, a start-up or warm-up steps left
  // out); the wait-type, launch-overhead, gap and misaligned-GEMM rules count what lies in it
  // and say how much they left out before it (BeforeWindow).
  std::int64_t steady_start_ns = std::numeric_limits<std::int64_t>::min();
  // Roofline floors by kernel name (kernel_floor.h): a rule about slow kernels caps the time a
  // change gives back at what lies above the floor (absent: no cap).
  const std::map<std::string, KernelFloor>* kernel_floors = nullptr;
  // LaunchingHostOps(trace, index), computed once for the shape models and the rules (absent: a
  // rule that needs it computes it).
  const std::vector<std::int64_t>* launching_ops = nullptr;
  // Launches blocked in a deep queue (blocked_launches.h): their time is a wait for the GPU, not
  // launch cost (absent: none is set apart).
  const std::vector<BlockedLaunch>* blocked_launches = nullptr;
};

// Whether a record starting at `start_ns` lies before the steady-state window: a wait-type
// rule counts the window's records and says how many it left out before it; when none is inside,
// those before it are the finding, said to cost the steady state nothing.
inline bool BeforeWindow(const RuleInput& in, std::int64_t start_ns) {
  return start_ns < in.steady_start_ns;
}

// The waits that start before the steady-state window: how many, and how long they blocked.
struct LeftOut {
  std::int64_t count = 0;
  std::int64_t blocked_ns = 0;
};
LeftOut LeftOutBefore(const RuleInput& in, const std::vector<util::Interval>& waits);

// " 2 more (40.0 ms blocked) lie before the steady-state window, left out ..." for waits left out,
// " All of them ... lie before ..." when `all` (none inside), or "" for none.
std::string BeforeWindowText(const LeftOut& left_out, bool all);

// Fills host_blocked_ns and gpu_idle_caused_ns of a wait-type finding from its waits.
void SetWaitCost(report::Finding& finding,
                 const RuleInput& in,
                 std::vector<util::Interval> waits,
                 std::vector<util::Interval> data_waits = {});

// "; they caused 1.234 ms of GPU idle time (the rest of the time the GPU was busy or ...)"
// for a wait-type finding with an idle attribution, else "".
std::string IdleCausedText(const report::Finding& finding);

// The cell "GPU idle caused (ns)" of one wait: "-" without an idle attribution.
std::string CausedCell(const RuleInput& in,
                       std::int64_t start,
                       std::int64_t end,
                       bool data_wait = false);

// Memory-operation rules (findings_memory.cc). Rows list every API record of a matching copy,
// as nsys does (a doubly recorded call gives two rows); count and time_ns count each copy once.
std::optional<report::Finding> SyncMemcpyRule(const RuleInput& in);  // "sync_memcpy"
std::optional<report::Finding> PageableAsyncMemcpyRule(
    const RuleInput& in);                                            // "pageable_async_memcpy"
std::optional<report::Finding> SyncMemsetRule(const RuleInput& in);  // "sync_memset"

// Host-blocking synchronization calls and sync records (findings_sync.cc): "sync_api".
std::optional<report::Finding> SyncApiRule(const RuleInput& in);

// Idle stretches of at least options.gap_threshold_ns per (pid, device) between the first and
// the last GPU operation (findings_gaps.cc): "gpu_gaps".
std::optional<report::Finding> GpuGapsRule(const RuleInput& in);

// nsys gpu_time_util (findings_utilization.cc): "gpu_low_utilization".
std::optional<report::Finding> LowUtilizationRule(const RuleInput& in);

// Kernels shorter than their own launch call (findings_launch.cc): "launch_overhead".
std::optional<report::Finding> LaunchOverheadRule(const RuleInput& in);

// " N kernels ran through M graph launches ..." (a good sign), or "" without graph launches.
std::string GraphSentence(const report::LaunchOverhead& launch);

// The GPU idle for at least half of its span (findings_launch.cc): "gpu_idle_dominant".
std::optional<report::Finding> GpuIdleRule(const RuleInput& in);

// CUTLASS GEMM kernels built for operands aligned to fewer than 16 bytes (alignN in the name),
// often an older architecture's kernel (findings_gemm_alignment.cc): "gemm_misaligned".
std::optional<report::Finding> GemmAlignmentRule(const RuleInput& in);

// Kernels (not collectives) averaging 50 us or more whose every launch has at most half as many
// blocks as the GPU has SMs (findings_small_grid.cc): "small_grid".
std::optional<report::Finding> SmallGridRule(const RuleInput& in);

// OS runtime calls of the launching threads covering at least 1% of the steady window in GPU
// idle with no CUDA call (findings_host_calls.cc): "host_os_calls".
std::optional<report::Finding> HostOsCallsRule(const RuleInput& in);

// Device allocations and frees outside one-time work, at least 8 allocations, and allocations
// never freed when no framework allocator holds them (findings_allocations.cc):
// "device_alloc_churn".
std::optional<report::Finding> DeviceAllocChurnRule(const RuleInput& in);

// All rules in a fixed order.
std::vector<report::Finding> RunRules(const RuleInput& in);

// Orders `items` by `less` (a total order, so the result does not depend on the sort), formats
// the first `limit` (all when limit < 0) with `format` and counts the rest in rows_omitted.
// Formatting only the kept rows matters on traces with millions of matching records.
template <class Item, class Less, class Format>
void SetTopRows(report::Finding& finding,
                std::vector<Item>& items,
                Less less,
                Format format,
                std::int64_t limit) {
  std::size_t keep = items.size();
  if (limit >= 0 && static_cast<std::size_t>(limit) < keep)
    keep = static_cast<std::size_t>(limit);
  std::partial_sort(
      items.begin(), items.begin() + static_cast<std::ptrdiff_t>(keep), items.end(), less);
  std::vector<report::FindingRow> rows;
  rows.reserve(keep);
  for (std::size_t i = 0; i < keep; ++i)
    rows.push_back(format(items[i]));
  finding.rows_omitted = static_cast<std::int64_t>(items.size() - keep);
  finding.rows = std::move(rows);
}

// Keeps the first `limit` rows (all when limit < 0) and counts the rest in rows_omitted.
void SetRows(report::Finding& finding, std::vector<report::FindingRow> rows, std::int64_t limit);

// Durations in prose, three significant digits in the largest fitting unit: "12.3 ms", "46.9 s".
std::string Ms(std::int64_t ns);
// "write (12.9 ms), fclose (179 µs)": names with their times, in the order given.
std::string TimedNames(const std::vector<std::pair<std::string, std::int64_t>>& names);

}  // namespace gpuperf::analysis
