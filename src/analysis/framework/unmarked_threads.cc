#include "analysis/framework/unmarked_threads.h"

#include <algorithm>
#include <map>
#include <set>
#include <span>
#include <tuple>
#include <utility>

namespace gpuperf::analysis::framework {

std::vector<report::UnmarkedThread> UnmarkedLaunchThreads(const FrameworkInput& input) {
  const LaunchTree& tree = input.tree;
  const model::Trace& trace = input.trace;
  if (!tree.nvtx_ops || tree.ops.empty())
    return {};
  std::set<std::pair<std::int64_t, std::int64_t>> marked;  // threads that hold an operator
  std::set<std::int64_t> marked_processes;
  for (const OpInstance& op : tree.ops) {
    const model::Range& range = trace.ranges[op.source];
    marked.insert({range.pid, range.tid});
    marked_processes.insert(range.pid);
  }
  std::map<std::pair<std::int64_t, std::int64_t>, report::UnmarkedThread> threads;
  for (std::uint32_t call : tree.call_order) {
    std::span<const std::uint32_t> launched = input.calls.Of(call);
    if (launched.empty() || tree.launcher[call] != kNone)
      continue;
    const model::ApiCall& c = trace.api_calls[call];
    std::pair<std::int64_t, std::int64_t> thread{c.pid, c.tid};
    if (marked.contains(thread) || !marked_processes.contains(c.pid))
      continue;
    report::UnmarkedThread& t = threads[thread];
    t.pid = c.pid;
    t.tid = c.tid;
    t.launches += static_cast<std::int64_t>(launched.size());
    for (std::uint32_t a : launched)
      t.gpu_ns += trace.activities[a].duration_ns();
  }
  std::vector<report::UnmarkedThread> out;
  for (auto& [thread, t] : threads)
    out.push_back(t);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return std::tie(b.gpu_ns, a.pid, a.tid) < std::tie(a.gpu_ns, b.pid, b.tid);
  });
  return out;
}

void SumUnmarkedThreads(report::FrameworkView& view) {
  for (const report::UnmarkedThread& t : view.unmarked_threads) {
    view.unmarked_launches += t.launches;
    view.unmarked_gpu_ns += t.gpu_ns;
  }
  view.unmarked_fraction = view.total_gpu_ns > 0 ? static_cast<double>(view.unmarked_gpu_ns) /
                                                       static_cast<double>(view.total_gpu_ns)
                                                 : 0.0;
}

}  // namespace gpuperf::analysis::framework
