// cuda_gpu_kern_sum: per kernel name, the nsys stats distribution of durations.
#include <algorithm>
#include <map>
#include <optional>
#include <string_view>

#include "analysis/core/names.h"
#include "analysis/core/statistics.h"
#include "analysis/timeline/tables.h"

namespace gpuperf::analysis {
namespace {

struct KernelGroup {
  std::vector<std::int64_t> durations;
  std::optional<model::Dim3> grid;
  std::optional<model::Dim3> block;
  bool grid_agrees = true;
  bool block_agrees = true;
  std::int64_t short_instances = 0;
  std::int64_t graph_instances = 0;
};

// Tracks whether every instance has the same geometry.
void Agree(std::optional<model::Dim3>& seen, bool& agrees, const model::Dim3& next) {
  if (!seen) {
    seen = next;
  } else if (!(*seen == next)) {
    agrees = false;
  }
}

// The kernel's launch call, or null when the trace has none for it.
const model::ApiCall* LaunchCallOf(const model::Trace& trace,
                                   const CorrelationIndex& index,
                                   const model::GpuActivity& kernel) {
  std::int64_t call = index.PrimaryCall(kernel.correlation, kernel.pid);
  return call < 0 ? nullptr : &trace.api_calls[static_cast<std::size_t>(call)];
}

}  // namespace

std::vector<report::KernelRow> KernelTable(const model::Trace& trace,
                                           const CorrelationIndex& index,
                                           std::int64_t span_ns) {
  std::map<model::NameId, KernelGroup> groups;
  CachedNamePredicate is_graph(trace, IsGraphLaunchApi);
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind != model::ActivityKind::kKernel)
      continue;
    KernelGroup& group = groups[a.name];
    group.durations.push_back(a.duration_ns());
    Agree(group.grid, group.grid_agrees, a.grid);
    Agree(group.block, group.block_agrees, a.block);
    // A graph node shares its launch call with the whole graph, so it is never "shorter".
    if (const model::ApiCall* call = LaunchCallOf(trace, index, a)) {
      if (is_graph(call->name))
        ++group.graph_instances;
      else if (a.duration_ns() < call->duration_ns())
        ++group.short_instances;
    }
  }
  std::vector<report::KernelRow> rows;
  std::int64_t kernel_total = 0;
  for (auto& [name, group] : groups) {
    report::KernelRow row;
    row.name = std::string(trace.Name(name));
    row.duration_ns = Summarize(group.durations);
    if (group.grid_agrees && group.grid)
      row.grid = GeometryString(*group.grid);
    if (group.block_agrees && group.block)
      row.block = GeometryString(*group.block);
    row.short_instances = group.short_instances;
    row.graph_instances = group.graph_instances;
    kernel_total += row.duration_ns.total;
    rows.push_back(std::move(row));
  }
  for (report::KernelRow& row : rows) {
    auto total = static_cast<double>(row.duration_ns.total);
    row.time_percent = Percent(total, static_cast<double>(kernel_total));
    row.wall_percent = Percent(total, static_cast<double>(span_ns));
  }
  std::sort(rows.begin(), rows.end(), [](const report::KernelRow& a, const report::KernelRow& b) {
    if (a.duration_ns.total != b.duration_ns.total)
      return a.duration_ns.total > b.duration_ns.total;
    return a.name < b.name;
  });
  return rows;
}

}  // namespace gpuperf::analysis
