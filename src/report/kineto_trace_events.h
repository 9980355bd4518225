// The events of the Kineto trace writer (report/kineto_trace_writer.h), one function per record
// array of the trace; internal to the writer.
#pragma once

#include "gpuperf/trace.h"

#include "report/kineto_json_text.h"

namespace gpuperf::report {

// Kernels, copies and memsets on pid = device, tid = stream; a graph node's id from
// trace.graph_node_ids.
void AddKinetoGpuEvents(const model::Trace& trace, KinetoEventList& events);

// Runtime and driver calls ("cuda_runtime", "cuda_driver") on their pid and tid.
void AddKinetoApiEvents(const model::Trace& trace, KinetoEventList& events);

// Syncs ("cuda_sync") on the GPU rows; one of unknown device on GPU 0's row, its args saying -1.
void AddKinetoSyncEvents(const model::Trace& trace, KinetoEventList& events);

// NVTX ranges as user_annotation with "nvtx domain", other host ranges as user_annotation,
// GPU-projected ones as gpu_user_annotation on pid = device, tid = stream.
void AddKinetoRangeEvents(const model::Trace& trace, KinetoEventList& events);

// Allocations and releases as "[memory]" instants (address from trace.memory_addresses), and
// CUPTI's overhead on pid -1.
void AddKinetoHostInstants(const model::Trace& trace, KinetoEventList& events);

// One "ac2g" arrow per correlation id with both a launching API call and GPU work: "s" on the
// call, "f" (bound to the enclosing slice) on the first activity of that id. Should one id have
// a runtime and a driver call, the runtime call (the one the program made) starts the arrow.
void AddKinetoFlowEvents(const model::Trace& trace, KinetoEventList& events);

}  // namespace gpuperf::report
