// The kernel-count audit (docs/method.md, "Kernel-count audit"): launches, copies, syncs,
// allocations.
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include "analysis/core/correlation.h"

namespace gpuperf::analysis {

// Host calls are counted once per call (primary records only, see CorrelationIndex).
// synchronizations = blocking sync API calls (device, stream, event, context) + sync records of
// those kinds whose correlation is not such a call (Kineto cuda_sync without its runtime event).
// allocations/frees come from the allocator events when the trace has device ones, else from
// device malloc/free API calls. peak_allocated_bytes = max Total Allocated over device events.
report::Audit ComputeAudit(const model::Trace& trace, const CorrelationIndex& index);

// A synchronization record that blocks the host (event, stream, context), not a stream wait.
bool IsHostBlockingSync(model::SyncKind kind);

}  // namespace gpuperf::analysis
