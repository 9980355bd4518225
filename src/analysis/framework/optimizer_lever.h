// The optimizer step run as many passes over memory (docs/method.md, "Levers"): PyTorch's foreach
// optimizers (the default) launch one multi_tensor_apply kernel group per arithmetic operation,
// each reading and writing whole parameter, gradient and state lists; a fused step (fused=True,
// apex's FusedAdam, torch.compile of the step) reads and writes each once. A training loop whose
// weights are large against its activations spends a fifth of its GPU time there.
#pragma once

#include "gpuperf/trace.h"

#include <optional>

#include "analysis/framework/levers.h"
#include "util/intervals.h"

namespace gpuperf::analysis::framework {

// The local speedup assumed for a fused step over the foreach passes it replaces, the assumed 2x
// every such bound uses (Diagnosis::bound_speedup_at_2x): below the traffic ratio, since AdamW's
// fused update moves 28 bytes a parameter (reads parameter, gradient and two moments; writes
// three), its foreach step about 80 over its eight passes. Said beside the bound.
inline constexpr double kFusedOptimizerAssumedSpeedup = 2.0;

// The lever for an unfused optimizer step whose kernels start in `window` and hold at least
// `min_time_ns` there; nullopt when the step is fused already or none is found. Its kernels are
// PyTorch's foreach kernels (multi_tensor_apply_kernel) by name, other than fused, norm and
// AMP-unscale ones; the class comes from "Optimizer.step#<Class>.step" operators or user
// annotations, and a fused class (apex's FusedAdam) gets no lever.
std::optional<Lever> UnfusedOptimizerLever(const model::Trace& trace,
                                           util::Interval window,
                                           std::int64_t min_time_ns);

}  // namespace gpuperf::analysis::framework
