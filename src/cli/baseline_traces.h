// The Kineto traces of a recording: one per process of every measured run, staged in the
// recording's directory (runs/run-NNN/<host>.<pid>[.r<rank>].json[.gz]). The spool is mapped to
// the model once, as for the analysis: spool -> Trace (io/spool) -> Kineto JSON
// (report/kineto_trace_writer.h), gzip with --gzip, written new through the durable writer.
#pragma once

#include "record/baseline.h"

namespace gpuperf::cli {

// Writes the traces of every run into `session.tmp()` and lists them in each run's trace_files. A
// run whose traces cannot be written gets a problem and makes the recording incomplete; the
// other runs are still written.
void StageRunTraces(record::BaselineSession& session);

}  // namespace gpuperf::cli
