#include "analysis/timeline/sync_drain.h"

#include <algorithm>
#include <string_view>
#include <unordered_set>

#include "analysis/core/names.h"

namespace gpuperf::analysis {
namespace {

// The other calls that block the host until the GPU is done: a cycle's idle after one of them is
// that call's doing.
bool OtherBlockingCall(std::string_view name) {
  name = StripVersionSuffix(name);
  return IsSyncMemcpyApi(name) || IsSyncMemsetApi(name) ||
         (IsDeviceFreeApi(name) && name.find("Async") == std::string_view::npos);
}

}  // namespace

bool IsDeviceOrStreamSyncRecord(model::SyncKind kind) {
  return kind == model::SyncKind::kStream || kind == model::SyncKind::kContext;
}

ThreadWaits DeviceSyncWaits(const model::Trace& trace, const CorrelationIndex& index) {
  ThreadWaits out;
  std::unordered_set<std::int64_t> call_correlations;
  CachedNamePredicate is_sync(trace, IsDeviceOrStreamSyncApi);
  for (std::size_t i = 0; i < trace.api_calls.size(); ++i) {
    const model::ApiCall& call = trace.api_calls[i];
    if (!is_sync(call.name))
      continue;
    if (call.correlation != model::kNoId)
      call_correlations.insert(call.correlation);
    if (index.IsPrimary(i))
      out[{call.pid, call.tid}].push_back({call.start_ns, call.end_ns});
  }
  for (const model::SyncEvent& s : trace.syncs) {
    if (IsDeviceOrStreamSyncRecord(s.kind) && !call_correlations.contains(s.correlation))
      out[{s.pid, s.tid}].push_back({s.start_ns, s.end_ns});
  }
  return out;
}

DrainCost CostliestLoopDrain(const model::Trace& trace,
                             const CorrelationIndex& index,
                             const IdleAttribution& idle,
                             const ThreadWaits& waits) {
  DrainCost drain;
  if (std::none_of(waits.begin(), waits.end(), [](const auto& t) {
        return static_cast<std::int64_t>(t.second.size()) > kMinDrainCycles;
      }))
    return drain;
  const std::vector<util::Interval> host_caused = HostCausedIdle(idle);
  ThreadWaits other_waits;
  CachedNamePredicate is_other(trace, OtherBlockingCall);
  for (std::size_t i = 0; i < trace.api_calls.size(); ++i) {
    const model::ApiCall& call = trace.api_calls[i];
    if (is_other(call.name) && index.IsPrimary(i))
      other_waits[{call.pid, call.tid}].push_back({call.start_ns, call.end_ns});
  }
  for (const auto& [thread, list] : waits) {
    std::vector<util::Interval> others = util::MergeIntervals(std::move(other_waits[thread]));
    DrainCost d = DrainCostOf(idle, host_caused, list, others);
    if (d.loop_cycles > 0 && (drain.loop_cycles == 0 || d.idle_ns > drain.idle_ns))
      drain = d;
  }
  return drain;
}

std::int64_t WaitRemovalNs(const model::Trace& trace,
                           const CorrelationIndex& index,
                           const IdleAttribution& idle,
                           const ThreadWaits& waits) {
  DrainCost drain = CostliestLoopDrain(trace, index, idle, waits);
  if (drain.loop_cycles > 0)
    return drain.idle_ns;
  std::vector<util::Interval> all;
  for (const auto& [thread, list] : waits)
    all.insert(all.end(), list.begin(), list.end());
  return idle.CausedBy(std::move(all));
}

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
  std::int64_t considered = 0;
  for (std::size_t i = 1; i < waits.size(); ++i) {
    std::int64_t from = waits[i - 1].end, to = waits[i].end;
    std::int64_t host = waits[i].start - from;
    if (to <= from || host < 0)
      continue;  // overlapping waits: no cycle between them
    ++considered;
    // One-time work's idle (context creation, a first cuDNN call) is no part of the steady
    // window: left out of the cycle and of the host's part, so the sums stay inside the window
    // (resnet: 14.4 s of cycles in a 12.1 s window); what comes back is the same.
    const std::int64_t one_time = util::CoveredLength(idle.excluded_gaps, from, to);
    host -= util::CoveredLength(idle.excluded_gaps, from, waits[i].start);
    std::int64_t cycle = to - from - one_time;
    auto idle_in = [&](std::int64_t start, std::int64_t end) {
      return util::CoveredLength(caused, start, end) +
             util::CoveredLength(idle.queued_gaps_at, start, end);
    };
    // Time that is neither idle nor queued counts as busy (one-time work's idle is out of the
    // cycle already).
    std::int64_t gpu = cycle - idle_in(from, to);
    std::int64_t floor = std::max(host, gpu);
    // The last wait of a host-bound loop: the GPU work running during it trails the host's
    // launches and no next cycle overlaps it (with the GPU the slower, it is in G already).
    if (i + 1 == waits.size() && host >= gpu) {
      std::int64_t wait = waits[i].end - std::max(waits[i].start, from);
      floor = std::max(floor, host + wait - idle_in(std::max(waits[i].start, from), to));
    }
    // Idle after another blocking call in the cycle is that call's doing.
    std::int64_t credit_end = to;
    auto other = std::upper_bound(
        other_waits.begin(), other_waits.end(), from, [](std::int64_t t, const util::Interval& w) {
          return t < w.end;
        });
    if (other != other_waits.end() && other->start < to)
      credit_end = std::max(from, other->start);
    std::int64_t back = std::min(util::CoveredLength(caused, from, credit_end), cycle - floor);
    if (back <= 0)
      continue;
    out.idle_ns += back;
    ++out.cycles;
    out.cycle_ns += cycle;
    out.host_ns += host;
    out.gpu_ns += gpu;
    out.floor_ns += floor;
    out.refill_cycles += host < gpu ? 1 : 0;
    out.cycle_min_ns = out.cycles == 1 ? cycle : std::min(out.cycle_min_ns, cycle);
    out.cycle_max_ns = std::max(out.cycle_max_ns, cycle);
  }
  if (considered < kMinDrainCycles)
    return DrainCost{};
  out.loop_cycles = considered;
  // The first wait is in no cycle (a cycle runs from one wait's end to the next's). In a
  // host-bound loop its removal moves all later host work, and the GPU work that trails it,
  // sooner by its length (a synchronize-every-kernel loop of ten waits: 4.6 us back by replay,
  // 4.1 us from the cycles alone). Where the host would stay ahead, the idle inside the first wait
  // (the host woke late) is what it costs. A wait before the window enters as an empty one.
  if (out.cycles > 0) {
    const util::Interval& first = waits.front();
    std::int64_t back = 0;
    if (2 * out.refill_cycles <= out.cycles) {
      back = first.end - first.start;
    } else {
      // The host would stay ahead: the idle while it still waited (it woke late) is the wait's.
      back = util::CoveredLength(caused, first.start, first.end);
    }
    out.first_wait_ns =
        std::max<std::int64_t>(0, std::min(back, util::TotalLength(caused) - out.idle_ns));
    out.idle_ns += out.first_wait_ns;
  }
  return out;
}

}  // namespace gpuperf::analysis
