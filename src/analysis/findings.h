// Finding rules (report::Finding with stable ids), mirroring `nsys analyze` where it has a rule
// (FORMATS.md §6). A rule returns nothing when the trace shows no problem or lacks the data.
#pragma once

#include "gpuperf/analyze.h"
#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/correlation.h"

namespace gpuperf::analysis {

struct RuleInput {
  const model::Trace& trace;
  const CorrelationIndex& index;
  const AnalyzeOptions& options;
  const report::Timeline& timeline;      // the default (all activities) timeline
  const report::LaunchOverhead& launch;  // primary launch records only
};

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

// The GPU idle for at least half of its span (findings_launch.cc): "gpu_idle_dominant".
std::optional<report::Finding> GpuIdleRule(const RuleInput& in);

// All rules in a fixed order.
std::vector<report::Finding> RunRules(const RuleInput& in);

// Keeps the first `limit` rows (all when limit < 0) and counts the rest in rows_omitted.
void SetRows(report::Finding& finding, std::vector<report::FindingRow> rows, std::int64_t limit);

// "12.345 ms": durations in prose.
std::string Ms(std::int64_t ns);

}  // namespace gpuperf::analysis
