// Launch overhead with `nsys stats` cuda_kern_exec_sum definitions, per (launch call, kernel)
// pair joined on correlation: API = call duration, queue = kernel start - call end (counted only
// when positive, nsys' QCount), kernel = kernel duration, total = kernel end - call start.
// A CUDA-graph launch pairs with every kernel of the graph.
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <cstddef>
#include <vector>

#include "analysis/correlation.h"

namespace gpuperf::analysis {

struct LaunchPair {
  std::size_t call = 0;  // index into trace.api_calls
  const model::GpuActivity* kernel = nullptr;
};

// Kernels joined to their launch call. With `keep_duplicate_records`, every API record of the
// correlation pairs (nsys counts both records of a doubly recorded call); otherwise only the
// primary record, so each launch counts once. Orphan kernels are left out.
std::vector<LaunchPair> JoinKernelLaunches(const model::Trace& trace,
                                           const CorrelationIndex& index,
                                           bool keep_duplicate_records);

// launches = distinct calls among `pairs`; distributions are over pairs; api_to_kernel_ratio =
// summed duration of the distinct calls / summed duration of the joined kernels.
report::LaunchOverhead SummarizeLaunches(const model::Trace& trace,
                                         const std::vector<LaunchPair>& pairs);

}  // namespace gpuperf::analysis
