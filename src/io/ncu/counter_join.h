// `gpuperf analyze TRACE --counters FILE.csv`: attaches the counters of an Nsight Compute import
// to the kernels of a timeline trace (Kineto, nsys), so that the roofline uses the trace's real
// durations and the counters' FLOPs and bytes.
#pragma once

#include "gpuperf/trace.h"

#include <cstdint>
#include <string>

namespace gpuperf::io::ncu {

// The kernel-name key the join matches on: the trailing parameter list is dropped and white
// space removed, because ncu and CUPTI demangle parameters differently ("T1 *" / "float*") and
// space template brackets differently ("> >" / ">>").
std::string JoinKey(std::string_view kernel_name);

// The bare function name (no namespace, template arguments or parameters): ncu's
// `--print-kernel-base function` writes only this, and such names join on it.
std::string BaseName(std::string_view kernel_name);

struct JoinSummary {
  std::int64_t joined = 0;        // ncu launches attached to a trace kernel
  std::int64_t unjoined = 0;      // ncu launches with no trace kernel left to take them
  std::int64_t ncu_launches = 0;  // kernel launches in `counters`
};

// For each kernel name, the i-th profiled launch (ncu ID order) joins the i-th instance of that
// name in the trace (start-time order) among those without counters yet, so that several files
// (one per process of a counter pass) join one after another. Joined counters are appended to
// trace.counters; the summary is also counted in trace.diagnostics ("counters_joined",
// "counters_unjoined") with a note naming up to three kernels that did not join.
JoinSummary JoinCounters(model::Trace& trace, const model::Trace& counters);

}  // namespace gpuperf::io::ncu
