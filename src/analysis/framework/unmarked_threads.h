// Launches from threads that record no operator while another thread of their process does: in
// an NVTX-only recording whose ranges mark the main thread, PyTorch's autograd engine launches
// the backward pass from a thread of its own, and its work shows as "(no operator)" (the H200 MLP
// recording: the backward GEMMs, 29.2 ms). Attributing it to the other thread's range by time
// would guess; the report names the threads instead, and how to mark them.
#pragma once

#include "gpuperf/framework.h"

#include <vector>

#include "analysis/framework/framework_view.h"

namespace gpuperf::analysis::framework {

// By GPU time, descending; empty unless the operators are NVTX ranges (framework operators are
// recorded on every thread that runs them).
std::vector<report::UnmarkedThread> UnmarkedLaunchThreads(const FrameworkInput& input);

// view.unmarked_threads summed into view.unmarked_launches and unmarked_gpu_ns, and that GPU
// time's share of view.total_gpu_ns (set both first).
void SumUnmarkedThreads(report::FrameworkView& view);

}  // namespace gpuperf::analysis::framework
