// `gpuperf analyze TRACE --counters FILE.csv`: attaches the counters of an Nsight Compute import
// to the kernels of a timeline trace (Kineto, nsys), so that the roofline uses the trace's real
// durations and the counters' FLOPs and bytes.
#pragma once

#include "gpuperf/result.h"
#include "gpuperf/trace.h"

#include <cstdint>
#include <string>

namespace gpuperf::io::ncu {

struct JoinSummary {
  std::int64_t joined = 0;           // ncu launches attached to a trace kernel
  std::int64_t unjoined = 0;         // no_kernel + config_mismatch
  std::int64_t ncu_launches = 0;     // kernel launches in `counters`
  std::int64_t no_kernel = 0;        // no trace kernel of that name left to take them
  std::int64_t config_mismatch = 0;  // kernels of that name left, none with its grid and block
};

// Refuses counters taken on another GPU: an error naming `counters_name` when a device of the
// counters' launches has a compute capability or name (both known) that no device of the
// trace's kernels shares. A trace without device records is not checked.
Status CheckCounterDevices(const model::Trace& trace,
                           const model::Trace& counters,
                           const std::string& counters_name);

// For each kernel name, the i-th profiled launch (ncu ID order) joins the earliest instance of
// that name in the trace (start-time order) without counters yet whose grid and block agree
// (unknown agrees), so that several files (one per process of a counter pass) join one after
// another. Names match at the first level that has the name in the trace: util::SignatureKey,
// util::NormalKey, or util::BaseName for a bare name (util/kernel_name_keys.h). Joined counters are
// appended to trace.counters and their rule rows follow them; the summary is counted in
// trace.diagnostics ("counters_ncu_launches", "counters_joined", "counters_unjoined",
// "counters_no_kernel", "counters_config_mismatch"), with up to three examples of launches that did
// not join in the metadata properties "counters_join_example:<n>" and a note.
JoinSummary JoinCounters(model::Trace& trace, const model::Trace& counters);

}  // namespace gpuperf::io::ncu
