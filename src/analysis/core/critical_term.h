// The word the diagnosis' sentences use for the time a kernel's speedup can give back: its
// critical time, or, in the GPU phase of a window whose idle phase holds the wall, its time alone
// on the GPU (predictions.gpu_timeline_kernels), which turns critical once that phase is fixed.
#pragma once

#include "gpuperf/report.h"

namespace gpuperf::analysis {

// "critical" or "GPU-phase": "{} time", "the {} kernel time", "the most {} time".
inline const char* CriticalAdjective(const report::Predictions& p) {
  return p.on_gpu_timeline ? "GPU-phase" : "critical";
}

// What "GPU-phase time" means, said once in a statement that uses it.
inline constexpr const char* kGpuPhaseTimeText =
    "GPU-phase time is a kernel's time alone on the GPU (trace): what turns critical once the "
    "idle phase is fixed; until then the host's waits for the GPU cap what any of it gives back.";

}  // namespace gpuperf::analysis
