#include "analysis/timeline/sync_drain.h"

#include <algorithm>

#include "analysis/core/statistics.h"

namespace gpuperf::analysis {

std::vector<util::Interval> HostCausedIdle(const IdleAttribution& idle) {
  return util::UnionOf(idle.round_trip_gaps, idle.other_gaps);
}

DrainCost DrainCostOf(const IdleAttribution& idle,
                      const std::vector<util::Interval>& caused,
                      std::vector<util::Interval> waits,
                      const std::vector<util::Interval>& other_waits) {
  DrainCost out;
  if (static_cast<std::int64_t>(waits.size()) < kMinDrainCycles + 1)
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
    // Time that is neither idle nor queued counts as busy: one-time work left out of the
    // attribution counts so too, which only lowers the credit.
    std::int64_t gpu = cycle - util::CoveredLength(caused, from, to) -
                       util::CoveredLength(idle.queued_gaps_at, from, to);
    // Idle after another blocking call in the cycle is that call's doing.
    std::int64_t credit_end = to;
    auto other = std::upper_bound(
        other_waits.begin(), other_waits.end(), from, [](std::int64_t t, const util::Interval& w) {
          return t < w.end;
        });
    if (other != other_waits.end() && other->start < to)
      credit_end = std::max(from, other->start);
    std::int64_t back =
        std::min(util::CoveredLength(caused, from, credit_end), cycle - std::max(host, gpu));
    if (back <= 0)
      continue;
    out.idle_ns += back;
    cycles.push_back(static_cast<double>(cycle));
    hosts.push_back(static_cast<double>(host));
    gpus.push_back(static_cast<double>(gpu));
  }
  if (considered < kMinDrainCycles)
    return DrainCost{};
  out.loop_cycles = considered;
  out.cycles = static_cast<std::int64_t>(cycles.size());
  if (out.cycles > 0) {
    out.cycle_ns = static_cast<std::int64_t>(Median(cycles));
    out.cycle_min_ns = static_cast<std::int64_t>(*std::min_element(cycles.begin(), cycles.end()));
    out.cycle_max_ns = static_cast<std::int64_t>(*std::max_element(cycles.begin(), cycles.end()));
    out.host_ns = static_cast<std::int64_t>(Median(hosts));
    out.gpu_ns = static_cast<std::int64_t>(Median(gpus));
  }
  return out;
}

}  // namespace gpuperf::analysis
