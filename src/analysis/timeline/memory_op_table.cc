// cuda_gpu_mem_time_sum and cuda_gpu_mem_size_sum, one row per operation label.
#include <algorithm>
#include <map>
#include <string>

#include "analysis/core/names.h"
#include "analysis/core/statistics.h"
#include "analysis/timeline/tables.h"

namespace gpuperf::analysis {

std::vector<report::MemoryOpRow> MemoryOpTable(const model::Trace& trace) {
  struct Group {
    std::vector<std::int64_t> durations;
    std::vector<std::int64_t> sizes;
  };
  std::map<std::string, Group> groups;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind == model::ActivityKind::kKernel)
      continue;
    Group& group = groups[MemoryOpLabel(a)];
    group.durations.push_back(a.duration_ns());
    group.sizes.push_back(a.bytes);
  }
  std::vector<report::MemoryOpRow> rows;
  std::int64_t all_time = 0;
  for (auto& [label, group] : groups) {
    report::MemoryOpRow row;
    row.operation = label;
    row.duration_ns = Summarize(group.durations);
    row.size_bytes = Summarize(group.sizes);
    all_time += row.duration_ns.total;
    rows.push_back(std::move(row));
  }
  for (report::MemoryOpRow& row : rows) {
    row.time_percent =
        Percent(static_cast<double>(row.duration_ns.total), static_cast<double>(all_time));
  }
  std::sort(
      rows.begin(), rows.end(), [](const report::MemoryOpRow& a, const report::MemoryOpRow& b) {
        if (a.duration_ns.total != b.duration_ns.total) {
          return a.duration_ns.total > b.duration_ns.total;
        }
        return a.operation < b.operation;
      });
  return rows;
}

}  // namespace gpuperf::analysis
