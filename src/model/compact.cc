#include "model/compact.h"

namespace gpuperf::model {

void ReleaseSpareCapacity(Trace& trace) {
  trace.activities.shrink_to_fit();
  trace.api_calls.shrink_to_fit();
  trace.syncs.shrink_to_fit();
  trace.ranges.shrink_to_fit();
  trace.host_ops.shrink_to_fit();
  trace.python_frames.shrink_to_fit();
  trace.frame_threads.shrink_to_fit();
  trace.memory_events.shrink_to_fit();
  trace.os_calls.shrink_to_fit();
  trace.cpu_samples.shrink_to_fit();
  trace.counters.shrink_to_fit();
  trace.graph_node_ids.shrink_to_fit();
  trace.memory_addresses.shrink_to_fit();
  trace.range_shapes.shrink_to_fit();
  trace.profiler_overheads.shrink_to_fit();
}

}  // namespace gpuperf::model
