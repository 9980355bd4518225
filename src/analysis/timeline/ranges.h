// NVTX ranges, user annotations and ProfilerStep ranges: count and time per (kind, name), like
// `nsys stats` nvtx_sum, plus the GPU time that falls inside each name's instances.
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <vector>

namespace gpuperf::analysis {

// Rows sorted by kind, then total time descending, then name. The name is "domain:name" when the
// range has a domain (nsys prints "MPI:MPI_Send"). time_percent is of all ranges of the kind.
// gpu_time_ns = length of (union of the instances' windows) ∩ (union of all GPU activities);
// gpu_user_annotation instances only see the GPU work of their own device. Ranges that end
// before they start are skipped (the importer counts them in diagnostics).
std::vector<report::RangeRow> RangeTable(const model::Trace& trace);

}  // namespace gpuperf::analysis
