// Launch overhead with `nsys stats` cuda_kern_exec_sum definitions, per (launch call, kernel)
// pair joined on correlation: API = call duration, queue = kernel start - call end (counted only
// when positive, nsys' QCount), kernel = kernel duration, total = kernel end - call start.
// A CUDA-graph launch pairs with every kernel of the graph; call time counts each call once.
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <cstddef>
#include <optional>
#include <vector>

#include "analysis/core/correlation.h"

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

// A median launch-queue depth of at least this means work waits in the queue: the GPU, not the
// host, sets the pace (a launch reaches an idle GPU in 5-20 us).
inline constexpr std::int64_t kQueuedNs = 50'000;

// Fewer distinct launch calls than this give no verdict: the p90 (nearest rank) of 50 rests on 5
// launches above it, and a window of fewer launches is mostly first launches (module loading,
// warm-up) whose calls say nothing about the steady state's pace.
inline constexpr std::int64_t kMinQueueLaunches = 50;

// Host-blocking synchronizations (device, stream, event and context synchronize; synchronous
// copies), primary records only: each one drains the launch queue.
std::int64_t HostBlockingSyncs(const model::Trace& trace, const CorrelationIndex& index);

// Launch-queue depth per distinct launch call: its first kernel's start - the call's end
// (0 when the kernel started first), median and p90 (nearest rank below), and the verdict at
// kQueuedNs. The verdict is "undetermined" when the depth cannot say who sets the pace: fewer
// than kMinQueueLaunches launch calls (unless they carry that many kernels, graph launches, and
// every one of them is queued), most kernels starting before their call returned (the
// calls themselves were slow, so their end is no queue entry), or at least one host-blocking
// synchronization (`host_syncs`) per two launch calls (the program drains the queue itself).
// Absent without pairs.
std::optional<report::LaunchQueue> LaunchQueueDepth(const model::Trace& trace,
                                                    const std::vector<LaunchPair>& pairs,
                                                    std::int64_t host_syncs = 0);

}  // namespace gpuperf::analysis
