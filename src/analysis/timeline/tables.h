// The `nsys stats` summary tables: GPU kernels by name (cuda_gpu_kern_sum), memory operations by
// kind (cuda_gpu_mem_time_sum / _size_sum) and host API calls by recorded name (cuda_api_sum).
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <cstdint>
#include <vector>

#include "analysis/core/correlation.h"

namespace gpuperf::analysis {

// One row per kernel name, sorted by total time descending (ties: name ascending).
// time_percent is of all kernel time; wall_percent of `span_ns` (0 when span_ns is 0).
// short_instances counts kernels shorter than their own (primary) launch call.
std::vector<report::KernelRow> KernelTable(const model::Trace& trace,
                                           const CorrelationIndex& index,
                                           std::int64_t span_ns);

// One row per memory operation label ("[CUDA memcpy HtoD]", "[CUDA memset]"), sorted by total
// time descending (ties: label). time_percent is of all memory-operation time.
std::vector<report::MemoryOpRow> MemoryOpTable(const model::Trace& trace);

// One row per API name as recorded (raw_name), displayed without its version suffix (name),
// sorted by total time descending (ties: name, then raw_name). Runtime and driver calls both
// count, as in cuda_api_sum; time_percent is of all API time.
std::vector<report::ApiRow> ApiTable(const model::Trace& trace);

}  // namespace gpuperf::analysis
