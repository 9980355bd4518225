#include "analysis/timeline/sync_drain.h"

#include <algorithm>

#include "analysis/core/statistics.h"

namespace gpuperf::analysis {

std::vector<util::Interval> HostCausedIdle(const IdleAttribution& idle) {
  return util::UnionOf(idle.round_trip_gaps, idle.other_gaps);
}

DrainCost DrainCostOf(const IdleAttribution& idle,
                      const std::vector<util::Interval>& caused,
                      std::vector<util::Interval> waits) {
  DrainCost out;
  // A loop: one cycle alone (a wait before and after a single pass) says nothing of what the
  // next pass's host work would overlap.
  if (waits.size() < 3)
    return out;
  std::sort(waits.begin(), waits.end(), [](const util::Interval& a, const util::Interval& b) {
    return a.end < b.end;
  });
  std::vector<double> cycles, hosts, gpus;
  std::int64_t considered = 0;
  for (std::size_t i = 1; i < waits.size(); ++i) {
    std::int64_t from = waits[i - 1].end, to = waits[i].end;
    std::int64_t host = waits[i].start - from;
    if (to <= from || host < 0)
      continue;  // overlapping waits: no cycle between them
    ++considered;
    std::int64_t cycle = to - from;
    std::int64_t host_caused = util::CoveredLength(caused, from, to);
    // Time that is neither idle nor queued counts as busy: one-time work left out of the
    // attribution counts so too, which only lowers the credit.
    std::int64_t gpu = cycle - host_caused - util::CoveredLength(idle.queued_gaps_at, from, to);
    std::int64_t back = std::min(host_caused, cycle - std::max(host, gpu));
    if (back <= 0)
      continue;
    out.idle_ns += back;
    cycles.push_back(static_cast<double>(cycle));
    hosts.push_back(static_cast<double>(host));
    gpus.push_back(static_cast<double>(gpu));
  }
  if (considered < 2)
    return DrainCost{};
  out.cycles = static_cast<std::int64_t>(cycles.size());
  if (out.cycles > 0) {
    out.cycle_ns = static_cast<std::int64_t>(Median(cycles));
    out.host_ns = static_cast<std::int64_t>(Median(hosts));
    out.gpu_ns = static_cast<std::int64_t>(Median(gpus));
  }
  return out;
}

}  // namespace gpuperf::analysis
