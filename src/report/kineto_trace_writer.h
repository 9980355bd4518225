// A trace as a Kineto-dialect Chrome trace (docs/recorder.md; docs/formats.md, "Kineto"), so that
// `gpuperf analyze`, Perfetto, HTA and TraceLens read what `gpuperf baseline` recorded: the CLI
// writes one per process of a recording, spool -> Trace (io/spool) -> this writer.
//
// Dialect choices: the 2024+ encoding (relative microseconds with exactly three decimals,
// baseTimeNanoseconds a multiple of 7 889 238 s); GPU work on pid = device, tid = stream;
// host API calls on the OS pid/tid; NVTX ranges as `user_annotation` with their "nvtx domain";
// allocations as `[memory]` instants; CUPTI overhead on pid -1 (`overhead`); launch -> GPU work
// arrows as Kineto's "ac2g" flow events (ph "s" on the API call, "f" on the first kernel, copy or
// memset with its correlation id). Every string is valid UTF-8 (an invalid byte becomes U+FFFD).
//
// Written: devices, GPU activities (with graph node ids, Trace::graph_node_ids), API calls,
// syncs, ranges, memory events (with addresses, Trace::memory_addresses), profiler overheads.
// Not written, as no recording has them: host ops, Python frames, OS calls, CPU samples,
// counters.
#pragma once

#include "gpuperf/trace.h"

#include <string>

namespace gpuperf::report {

struct KinetoTraceOptions {
  std::string trace_name;      // "traceName"
  int driver_api_version = 0;  // "cuda_driver_version" (13000); 0 = unknown
};

// The whole document as text. Times are the trace's plus metadata.time_base_ns (absolute).
std::string ToKinetoJson(const model::Trace& trace, const KinetoTraceOptions& options);

}  // namespace gpuperf::report
