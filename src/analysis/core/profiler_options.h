// The PyTorch profiler options that add per-operator host work (Python stacks, shapes, allocator
// events, FLOP estimates, module hierarchy): every figure over host time is over the profiled
// host, which an unprofiled run may not have.
#pragma once

#include "gpuperf/trace.h"

#include <string>
#include <string_view>

namespace gpuperf::analysis {

// Whether the trace's framework operators carry input shapes (record_shapes).
bool HostOpsCarryShapes(const model::Trace& trace);

// The options that add per-operator host work, as the header or the events say: "Python stacks
// and shapes (with_stack, record_shapes)"; "" when it was recorded without them.
std::string RecordedProfilerOptions(const model::Trace& trace, bool shapes_recorded);

// The options the trace was recorded with, said of `what` a statement or finding rests on ("The
// trace was recorded with Python stacks and shapes (with_stack, record_shapes): the profiler's
// per-operator work inflates <what>; ..."); "" when it was recorded without them.
std::string ProfilerOverheadText(const model::Trace& trace,
                                 bool shapes_recorded,
                                 std::string_view what);

}  // namespace gpuperf::analysis
