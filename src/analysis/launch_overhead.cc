#include "analysis/launch_overhead.h"

#include <vector>

#include "analysis/statistics.h"

namespace gpuperf::analysis {

std::vector<LaunchPair> JoinKernelLaunches(const model::Trace& trace,
                                           const CorrelationIndex& index,
                                           bool keep_duplicate_records) {
  std::vector<LaunchPair> pairs;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind != model::ActivityKind::kKernel)
      continue;
    if (keep_duplicate_records) {
      index.ForEachCall(a.correlation, a.pid, [&](std::size_t call) { pairs.push_back({call, &a}); });
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
  std::int64_t launches = 0;
  std::int64_t call_time = 0;
  for (const LaunchPair& pair : pairs) {
    const model::ApiCall& call = trace.api_calls[pair.call];
    const model::GpuActivity& k = *pair.kernel;
    api.push_back(call.duration_ns());
    kernel.push_back(k.duration_ns());
    total.push_back(k.end_ns - call.start_ns);
    if (k.start_ns > call.end_ns)
      queue.push_back(k.start_ns - call.end_ns);
    if (k.duration_ns() < call.duration_ns())
      ++out.kernels_shorter_than_launch;
    if (!seen[pair.call]) {
      seen[pair.call] = true;
      ++launches;
      call_time += call.duration_ns();
    }
  }
  out.launches = launches;
  out.api_ns = Summarize(api);
  out.queue_ns = Summarize(queue);
  out.kernel_ns = Summarize(kernel);
  out.total_ns = Summarize(total);
  out.api_to_kernel_ratio = out.kernel_ns.total == 0 ? 0.0
                                                     : static_cast<double>(call_time) /
                                                           static_cast<double>(out.kernel_ns.total);
  return out;
}

}  // namespace gpuperf::analysis
