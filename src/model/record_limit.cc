#include "model/record_limit.h"

namespace gpuperf::model {

std::uint64_t& MaxTraceRecords() {
  static std::uint64_t limit = 10'000'000;
  return limit;
}

std::size_t RecordCount(const Trace& trace) {
  return trace.activities.size() + trace.api_calls.size() + trace.syncs.size() +
         trace.ranges.size() + trace.host_ops.size() + trace.memory_events.size() +
         trace.counters.size() + trace.python_frames.size() + trace.os_calls.size() +
         trace.cpu_samples.size();
}

}  // namespace gpuperf::model
