// ProbeCuda in a child process with a deadline: cuInit on a GPU in a bad state (fallen off the
// bus, a wedged driver) can block for minutes, and `gpuperf baseline` must exit within seconds
// with a clear message instead. The child writes its ProbeResult to a pipe as JSON.
#pragma once

#include <string>

#include "record/cuda_probe.h"

namespace gpuperf::record {

// The default deadline: cuInit takes well under a second normally, a few seconds with many GPUs
// and persistence mode off.
inline constexpr int kProbeTimeoutMs = 30'000;

// Runs `probe` (ProbeCuda by default) in a forked child. A child that does not answer within
// `timeout_ms` is killed: kDriverError, "the CUDA driver did not answer within N s ...". A child
// that crashes or writes nothing: kDriverError naming the signal or exit code.
ProbeResult ProbeCudaIsolated(int timeout_ms = kProbeTimeoutMs,
                              ProbeResult (*probe)() = &ProbeCuda);

// The pipe format, exposed for tests: ProbeResult to JSON text and back (nullopt-like failure:
// status kDriverError with a message saying the answer was unreadable).
std::string ProbeResultToJson(const ProbeResult& result);
ProbeResult ProbeResultFromJson(const std::string& text);

}  // namespace gpuperf::record
