#include "analysis/timeline/launch_overhead.h"

#include <algorithm>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/core/names.h"
#include "analysis/core/statistics.h"

namespace gpuperf::analysis {

std::vector<LaunchPair> JoinKernelLaunches(const model::Trace& trace,
                                           const CorrelationIndex& index,
                                           bool keep_duplicate_records) {
  std::vector<LaunchPair> pairs;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind != model::ActivityKind::kKernel)
      continue;
    if (keep_duplicate_records) {
      index.ForEachCall(a.correlation, a.pid, [&](std::size_t call) {
        pairs.push_back({call, &a});
      });
    } else if (std::int64_t call = index.PrimaryCall(a.correlation, a.pid); call >= 0) {
      pairs.push_back({static_cast<std::size_t>(call), &a});
    }
  }
  return pairs;
}

report::LaunchOverhead SummarizeLaunches(const model::Trace& trace,
                                         const std::vector<LaunchPair>& pairs) {
  report::LaunchOverhead out;
  std::vector<std::int64_t> api, queue, kernel, total;
  std::vector<bool> seen(trace.api_calls.size(), false);  // a graph launch runs many kernels
  CachedNamePredicate is_graph(trace, IsGraphLaunchApi);
  for (const LaunchPair& pair : pairs) {
    const model::ApiCall& call = trace.api_calls[pair.call];
    const model::GpuActivity& k = *pair.kernel;
    bool graph = is_graph(call.name);
    api.push_back(call.duration_ns());
    kernel.push_back(k.duration_ns());
    total.push_back(k.end_ns - call.start_ns);
    if (k.start_ns > call.end_ns)
      queue.push_back(k.start_ns - call.end_ns);
    // A graph node shares one launch call with the whole graph: it is not "shorter than its
    // launch".
    if (!graph && k.duration_ns() < call.duration_ns())
      ++out.kernels_shorter_than_launch;
    if (graph)
      ++out.graph_kernels;
    if (!seen[pair.call]) {
      seen[pair.call] = true;
      ++out.launches;
      out.call_time_ns += call.duration_ns();
      out.graph_launches += graph ? 1 : 0;
    }
  }
  out.api_ns = Summarize(api);
  out.queue_ns = Summarize(queue);
  out.kernel_ns = Summarize(kernel);
  out.total_ns = Summarize(total);
  out.api_to_kernel_ratio = out.kernel_ns.total == 0 ? 0.0
                                                     : static_cast<double>(out.call_time_ns) /
                                                           static_cast<double>(out.kernel_ns.total);
  return out;
}

std::int64_t HostBlockingSyncs(const model::Trace& trace, const CorrelationIndex& index) {
  CachedNamePredicate blocks(trace, [](std::string_view name) {
    name = StripVersionSuffix(name);
    return IsBlockingSyncApi(name) || IsSyncMemcpyApi(name);
  });
  std::int64_t syncs = 0;
  for (std::size_t i = 0; i < trace.api_calls.size(); ++i)
    syncs += index.IsPrimary(i) && blocks(trace.api_calls[i].name) ? 1 : 0;
  return syncs;
}

std::optional<report::LaunchQueue> LaunchQueueDepth(const model::Trace& trace,
                                                    const std::vector<LaunchPair>& pairs,
                                                    std::int64_t host_syncs) {
  // Per distinct call, its first kernel's start: indexed like api_calls (an export holds millions).
  constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();
  std::vector<std::int64_t> first_start(trace.api_calls.size(), kNone);
  for (const LaunchPair& pair : pairs)
    first_start[pair.call] = std::min(first_start[pair.call], pair.kernel->start_ns);
  std::vector<std::int64_t> depth;
  std::int64_t negative = 0;
  for (std::size_t call = 0; call < first_start.size(); ++call) {
    if (first_start[call] == kNone)
      continue;
    std::int64_t raw = first_start[call] - trace.api_calls[call].end_ns;
    negative += raw < 0 ? 1 : 0;
    depth.push_back(std::max<std::int64_t>(0, raw));
  }
  if (depth.empty())
    return std::nullopt;
  std::sort(depth.begin(), depth.end());
  auto at = [&](double q) {
    return depth[static_cast<std::size_t>(q * static_cast<double>(depth.size() - 1))];
  };
  report::LaunchQueue out;
  out.launches = static_cast<std::int64_t>(depth.size());
  out.median_ns = at(0.5);
  out.p90_ns = at(0.9);
  out.started_early = negative;
  out.host_syncs = host_syncs;
  // Few calls carrying many kernels (graph launches), every one of them queued: the host is ahead
  // at each, which settles who sets the pace (vllm_hip_graphs: 5 calls, 425 kernels, every call
  // 6.4 ms or more ahead of its first kernel).
  const bool all_queued_many_kernels =
      depth.front() >= kQueuedNs && static_cast<std::int64_t>(pairs.size()) >= kMinQueueLaunches;
  out.too_few_launches = out.launches < kMinQueueLaunches && !all_queued_many_kernels;
  out.slow_launch_calls = negative * 2 > out.launches;
  out.host_drains_queue = host_syncs * 2 >= out.launches;
  if (out.too_few_launches || out.slow_launch_calls || out.host_drains_queue)
    out.verdict = report::QueueVerdict::kUndetermined;
  else
    out.verdict = out.median_ns >= kQueuedNs ? report::QueueVerdict::kGpuBound
                                             : report::QueueVerdict::kHostBound;
  return out;
}

}  // namespace gpuperf::analysis
