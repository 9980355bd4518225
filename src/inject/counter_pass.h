// The counter pass of `gpuperf baseline --metrics` inside the traced program: CUPTI's range
// profiler (the CUDA 13 host + range-profiler API) with auto ranges and kernel replay, limited to
// the launches LaunchSelection picks, written as an Nsight Compute long CSV next to the spool.
// It runs in a process of its own, after the timed runs, and never together with activity
// tracing, so that replay never touches a timing (docs/recorder.md "Counter pass").
#pragma once

#include "inject/injection_state.h"

namespace gpuperf::inject {

// Subscribes to the context and launch callbacks and prepares the pass. False (with an error
// status in the spool) when nothing can be profiled.
bool StartCounterPass(State& state) noexcept;

// Stops and disables the range profiler of every context, closes the CSV and writes a summary
// status. Called once from Finish().
void FinishCounterPass() noexcept;

}  // namespace gpuperf::inject
