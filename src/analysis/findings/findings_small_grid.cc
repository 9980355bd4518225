// Long kernels on at most half as many blocks as the GPU has SMs (docs/metrics.md, "Findings"):
// a block runs on one SM, so a grid of 2 blocks keeps 2 SMs busy and leaves the rest idle however
// long the kernel takes. Occupancy says nothing about it (it is per SM); a short kernel's small
// grid is mostly launch latency, so only kernels averaging kUnderfilledGridMinAvgNs or more count
// (kernel_class.h, which classes them latency-bound by their grid); and collectives use a few
// blocks (channels) by design, their time set by the link, not the SMs.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "analysis/core/names.h"
#include "analysis/findings/findings.h"
#include "analysis/kernel/kernel_class.h"

namespace gpuperf::analysis {
namespace {

struct SmallGrid {
  std::int64_t instances = 0;
  std::int64_t total_ns = 0;
  std::int64_t max_blocks = 0;
  std::int64_t threads_per_block = 0;
  std::int64_t sms = 0;
  bool all_small = true;  // every launch of the name had at most half as many blocks as SMs
};

}  // namespace

std::optional<report::Finding> SmallGridRule(const RuleInput& in) {
  PerName<SmallGrid> by_name(in.trace);
  std::int64_t kernel_ns = 0;
  const model::Device* device = nullptr;
  for (const model::GpuActivity& a : in.trace.activities) {
    if (a.kind != model::ActivityKind::kKernel)
      continue;
    kernel_ns += a.duration_ns();
    if (!device || device->id != a.device)  // runs of one device: look it up on a change
      device = in.trace.FindDevice(a.device);
    std::int64_t blocks = a.grid.Volume();
    if (!device || device->sm_count <= 0 || blocks <= 0)
      continue;
    SmallGrid& g = by_name.At(a.name);
    g.all_small = g.all_small && GridUnderfills(blocks, device->sm_count);
    ++g.instances;
    g.total_ns += a.duration_ns();
    g.max_blocks = std::max(g.max_blocks, blocks);
    g.threads_per_block = a.block.Volume();
    g.sms = device->sm_count;
  }
  std::vector<std::pair<model::NameId, SmallGrid>> flagged;
  for (const auto& [name, g] : by_name.Entries()) {
    // The name test last: it reads the whole name, and only the few candidates need it.
    if (g.all_small && g.instances > 0 && g.total_ns / g.instances >= kUnderfilledGridMinAvgNs &&
        !IsCommunicationKernel(in.trace.Name(name)))
      flagged.emplace_back(name, g);
  }
  if (flagged.empty() || kernel_ns <= 0)
    return std::nullopt;
  std::sort(flagged.begin(), flagged.end(), [&](const auto& a, const auto& b) {
    if (a.second.total_ns != b.second.total_ns)
      return a.second.total_ns > b.second.total_ns;
    return in.trace.Name(a.first) < in.trace.Name(b.first);
  });
  report::Finding f;
  f.id = report::finding_id::kSmallGrid;
  f.title = "Long kernels on few blocks: most SMs idle";
  f.source = "trace";
  f.subject = std::string(in.trace.Name(flagged.front().first));  // the longest in total
  for (const auto& [name, g] : flagged) {
    f.count += g.instances;
    f.time_ns += g.total_ns;
  }
  double share = static_cast<double>(f.time_ns) / static_cast<double>(kernel_ns);
  f.severity = share >= 0.05 ? report::Severity::kWarning : report::Severity::kInfo;
  const SmallGrid& top = flagged.front().second;
  f.summary = fmt::format(
      "{} launches of {} kernels ({}, {:.1f}% of kernel time) run on at most half as many "
      "blocks as the GPU has SMs, so most SMs idle while they run: the longest in total, {}, "
      "launches at most {} "
      "blocks of {} threads on {} SMs, {} per launch (trace: launch grids).",
      f.count,
      flagged.size(),
      Ms(f.time_ns),
      100.0 * share,
      in.trace.Name(flagged.front().first),
      top.max_blocks,
      top.threads_per_block,
      top.sms,
      Ms(top.total_ns / top.instances));
  f.advice =
      "Launch at least one block per SM, better several (gridDim of a few times the SM count, "
      "cudaDevAttrMultiProcessorCount, with a grid-stride loop over the data), or split the work "
      "(more, smaller blocks; a split-K or stream-K GEMM). The kernel then runs at most as fast "
      "as its roof allows: a memory-bound kernel stops at the DRAM bandwidth, which a byte model "
      "(analyze --model) or counters would give.";
  f.columns = {{"Kernel"},
               {"Instances"},
               {"Total (ns)", report::ColumnUnit::kDurationNs},
               {"Avg (ns)", report::ColumnUnit::kDurationNs},
               {"Blocks"},
               {"Threads/block"},
               {"SMs"}};
  std::vector<report::FindingRow> rows;
  for (const auto& [name, g] : flagged) {
    rows.push_back({{std::string(in.trace.Name(name)),
                     std::to_string(g.instances),
                     std::to_string(g.total_ns),
                     std::to_string(g.total_ns / g.instances),
                     std::to_string(g.max_blocks),
                     std::to_string(g.threads_per_block),
                     std::to_string(g.sms)}});
  }
  SetRows(f, std::move(rows), in.options.finding_rows);
  return f;
}

}  // namespace gpuperf::analysis
