// Which GPU time is critical: the time a part of the program holds alone, on the path the program
// waits for. Amdahl's f comes from here, never from invocation counts (docs/method.md,
// "Amdahl bound and critical time"): overlapped time and time the program did not wait for cannot
// come back.
#pragma once

#include "gpuperf/trace.h"

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "analysis/core/correlation.h"

namespace gpuperf::analysis {

// One flag per trace.activities entry: true when finishing the activity earlier would have let
// the program go on earlier. That holds when the next operation of its (pid, device) had already
// been launched when it ended (the GPU queue was waiting behind it), when a host thread was
// blocked in a synchronizing call (device/stream/event sync, synchronous memcpy, sync record) at
// its end, when the next operation has no launch record to tell, or when it is the last
// operation of its device. It fails when the GPU went idle after it until the host issued more
// work: the host, not this activity, was the limit then.
std::vector<bool> CriticalActivities(const model::Trace& trace, const CorrelationIndex& index);

struct CriticalTime {
  std::int64_t exclusive_ns = 0;  // the key runs and no activity with another key on its device
  std::int64_t critical_ns = 0;   // the part of exclusive_ns during which a running activity of
                                  // the key is critical (CriticalActivities)
};

struct CriticalTimes {
  std::unordered_map<std::int64_t, CriticalTime> by_key;
  std::int64_t device_groups = 0;  // (pid, device) pairs with GPU work; times are summed over them
};

// Attributes GPU time per key: a stretch of a (pid, device) in which every running activity has
// the same key belongs to that key. `key(i)` gives trace.activities[i]'s key; every activity
// (kernels, copies, memsets) takes part, so a copy running beside a kernel makes that stretch
// nobody's. Zero-length activities take no time.
CriticalTimes AttributeCriticalTime(const model::Trace& trace,
                                    const std::vector<bool>& critical,
                                    const std::function<std::int64_t(std::size_t)>& key);

// The window the trace covers: first start to last end over GPU activities, host API calls,
// host ops, ranges and sync records. Amdahl's denominator for a trace.
struct TraceWindow {
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::int64_t length_ns() const { return end_ns - start_ns; }
};
TraceWindow ComputeTraceWindow(const model::Trace& trace);

}  // namespace gpuperf::analysis
