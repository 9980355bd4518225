// What removing some of the host's waits for the GPU gives back, run forward (docs/metrics.md,
// "Waits"). Two shifts: how much sooner the host runs, and how much sooner the GPU does.
// Without a wait the host runs its length sooner; the GPU follows only through its idle with no
// work queued (it waited for the host there), never by more than the host's shift. At a wait the
// host keeps, the host waits for GPU work that moved only as far as the GPU did: from there both
// run sooner by the GPU's shift, and so does everything after. At the end the program finishes
// when the later of the host and the GPU does; a wait that ends the recording delays no host work
// after it. A wait next to GPU idle thus gives back that idle (a round trip shortened); in a
// window where the GPU waits for the host, its whole length. At a wait for something outside the
// process's GPU work whose end a sooner arrival does not move (a DataLoader's worker processes
// with the batch not ready), the host only waits longer: from there it runs on time, and the GPU
// work it launches does too.
#pragma once

#include <cstdint>
#include <vector>

#include "util/intervals.h"

namespace gpuperf::analysis {

class RunForward {
 public:
  RunForward() = default;
  // `host_waits`: every host wait for the GPU (HostWaits::merged); `paced_idle`: the GPU's idle
  // with no work queued (sorted, disjoint); `host_end` and `gpu_end`: where the host's and the
  // GPU's last work in the steady-state window end; `outside_waits`: the host's waits for work
  // outside the process whose end is fixed (IdleAttribution::loader_waits; sorted, disjoint).
  RunForward(std::vector<util::Interval> host_waits,
             std::vector<util::Interval> paced_idle,
             std::int64_t host_end,
             std::int64_t gpu_end,
             std::vector<util::Interval> outside_waits = {});

  // False until built from a trace's waits (a default one: no run-forward, only the idle next to
  // the waits counts).
  bool ready() const { return ready_; }
  // How much sooner the program ends when `removed` (merged, sorted waits) no longer block the
  // host: at most their summed length. Costs two searches plus the waits between the first and
  // last removed one, so a finding's row asks for its own wait cheaply.
  std::int64_t Gain(const std::vector<util::Interval>& removed) const;
  // Where the first host wait for the GPU that starts at or after `t` starts; `otherwise` when
  // none does (or when not ready).
  std::int64_t NextWaitFrom(std::int64_t t, std::int64_t otherwise) const;

 private:
  // The GPU's idle with no work queued inside [start, end].
  std::int64_t Slack(std::int64_t start, std::int64_t end) const {
    return paced_.Within(start, end);
  }

  std::vector<util::Interval> waits_;
  std::vector<util::Interval> outside_;
  util::PrefixCover paced_;
  std::int64_t host_end_ = 0;
  std::int64_t gpu_end_ = 0;
  bool ready_ = false;
};

}  // namespace gpuperf::analysis
