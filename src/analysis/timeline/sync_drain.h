// The GPU idle a repeated draining wait costs (docs/metrics.md, "Sync drain"). A device or stream
// synchronization empties the launch queue: after it the GPU runs each kernel as the host launches
// it and idles between them until the host is ahead again. A per-step `loss.item()` costs that
// refill, not only the round trip at its end. Per cycle (one wait's end to the next wait's end on
// one host thread) the host needs H outside the wait and the GPU is busy G: without the wait the
// cycle takes at least max(H, G), so at most C - max(H, G) of the cycle comes back, and never more
// than the idle of it that the host caused before any other blocking call in the cycle (a
// synchronous copy's own wait is that copy's doing). In a host-bound loop (H >= G) that is the
// wait itself: it delays the next cycle's launches by its length. The last wait of a host-bound
// loop delays no next cycle: the GPU work still running during it trails the host's part, so
// its cycle takes at least H plus that work. The first wait is in no cycle: in a host-bound loop
// it costs its length (without it every later cycle starts sooner), else the idle inside it.
#pragma once

#include "gpuperf/trace.h"

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "analysis/core/correlation.h"
#include "analysis/timeline/idle_attribution.h"
#include "util/intervals.h"

namespace gpuperf::analysis {

// A loop needs this many cycles (four waits): fewer say nothing of what the next pass's host
// work would overlap.
inline constexpr std::int64_t kMinDrainCycles = 3;

struct DrainCost {
  std::int64_t idle_ns = 0;      // summed over the cycles; 0 without a loop
  std::int64_t loop_cycles = 0;  // the cycles of the loop (kMinDrainCycles or more), else 0
  std::int64_t cycles = 0;       // of them, the cycles that give some back
  // Summed over those cycles (sums, not medians: a loop's cycles can come in unlike kinds, and
  // a median of each figure would describe no cycle): their wall, the host's time outside the
  // waits, the GPU's busy time, and the least each would take without the waits.
  std::int64_t cycle_ns = 0;
  std::int64_t host_ns = 0;
  std::int64_t gpu_ns = 0;
  std::int64_t floor_ns = 0;
  std::int64_t cycle_min_ns = 0;
  std::int64_t cycle_max_ns = 0;
  // Of those cycles, the ones where the host needs less time than the GPU: it would stay ahead,
  // and the idle while it refills the drained queue is the wait's doing.
  std::int64_t refill_cycles = 0;
  // Of idle_ns: what the first wait gives back, which no cycle holds: in a host-bound loop its
  // length (it moves every later cycle sooner), else the idle inside it.
  std::int64_t first_wait_ns = 0;
};

// `waits`: the blocking waits of one host thread, any order. `host_caused`: HostCausedIdle(idle),
// computed once for all threads. `other_waits`: the other blocking calls of that thread
// (synchronous copies and memsets), merged.
DrainCost DrainCostOf(const IdleAttribution& idle,
                      const std::vector<util::Interval>& host_caused,
                      std::vector<util::Interval> waits,
                      const std::vector<util::Interval>& other_waits = {});

// The idle the host caused: round trips and the other gaps (not queued idle), merged.
std::vector<util::Interval> HostCausedIdle(const IdleAttribution& idle);

// A sync record (Kineto cuda_sync) of a stream or the whole device (context), not of an event.
bool IsDeviceOrStreamSyncRecord(model::SyncKind kind);

// Blocking waits by host thread (pid, tid).
using ThreadWaits = std::map<std::pair<std::int64_t, std::int64_t>, std::vector<util::Interval>>;

// The device and stream synchronizations of each host thread: the primary API calls
// (cudaDeviceSynchronize, cudaStreamSynchronize ...) and the sync records (Kineto cuda_sync) of
// those kinds that no call matches. Unsorted.
ThreadWaits DeviceSyncWaits(const model::Trace& trace, const CorrelationIndex& index);

// The sync drain of the thread whose waits cost the most (never summed over threads: two
// threads' cycles can share their idle), each thread's synchronous copies, memsets and frees as
// its other blocking calls; loop_cycles 0 when no thread waits in a loop.
DrainCost CostliestLoopDrain(const model::Trace& trace,
                             const CorrelationIndex& index,
                             const IdleAttribution& idle,
                             const ThreadWaits& waits);

// What removing these waits gives back: the costliest loop drain when a thread waits in a loop,
// else the idle they cause (IdleAttribution::CausedBy).
std::int64_t WaitRemovalNs(const model::Trace& trace,
                           const CorrelationIndex& index,
                           const IdleAttribution& idle,
                           const ThreadWaits& waits);

}  // namespace gpuperf::analysis
