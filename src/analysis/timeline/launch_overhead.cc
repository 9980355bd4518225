#include "analysis/timeline/launch_overhead.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/core/names.h"
#include "analysis/core/statistics.h"
#include "util/units_format.h"

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

namespace {

// Why the depth gives no verdict, or "" when it does.
std::string Undetermined(const report::LaunchQueue& q, std::int64_t negative, std::int64_t syncs) {
  std::vector<std::string> why;
  if (q.launches < kMinQueueLaunches)
    why.push_back(fmt::format(
        "{} launch calls are too few for a verdict (at least {})", q.launches, kMinQueueLaunches));
  if (negative * 2 > q.launches)
    why.push_back(
        fmt::format("{} of {} kernels started before their launch call returned, so the "
                    "calls themselves were slow (module loading, a blocking launch) and "
                    "their end is no queue entry",
                    negative,
                    q.launches));
  if (syncs * 2 >= q.launches)
    why.push_back(
        fmt::format("the host waits for the GPU {} time{} for {} launch calls (synchronize "
                    "calls, synchronous copies), so the program drains the queue itself",
                    syncs,
                    syncs == 1 ? "" : "s",
                    q.launches));
  std::string text;
  for (const std::string& part : why)
    text += (text.empty() ? "" : "; ") + part;
  return text;
}

}  // namespace

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
  auto ms = [](std::int64_t ns) { return util::FormatDuration(static_cast<double>(ns)); };
  if (std::string why = Undetermined(out, negative, host_syncs); !why.empty()) {
    out.verdict = report::QueueVerdict::kUndetermined;
    out.sentence = fmt::format(
        "Neither GPU- nor host-bound by the launch queue: {} (depth, kernel start - launch-call "
        "end: median {}, p90 {}; trace).",
        why,
        ms(out.median_ns),
        ms(out.p90_ns));
    return out;
  }
  bool gpu_bound = out.median_ns >= kQueuedNs;
  out.verdict = gpu_bound ? report::QueueVerdict::kGpuBound : report::QueueVerdict::kHostBound;
  out.sentence = gpu_bound
                     ? fmt::format(
                           "GPU-bound while it launches: the host runs {} ahead of the GPU (median "
                           "launch-queue depth, "
                           "kernel start - launch-call end; p90 {}; {} launch calls, trace).",
                           ms(out.median_ns),
                           ms(out.p90_ns),
                           out.launches)
                     : fmt::format(
                           "Host-bound: kernels start a median {} after their launch call returns "
                           "(p90 {}; {} launch calls, trace): the GPU waits for the host.",
                           ms(out.median_ns),
                           ms(out.p90_ns),
                           out.launches);
  return out;
}

}  // namespace gpuperf::analysis
