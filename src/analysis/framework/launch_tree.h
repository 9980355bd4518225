// The host call tree of each thread: operators (cpu_op, or NVTX ranges where the input has no
// operators), Python frames, user annotations and CUDA API calls nested by time on their
// (pid, tid), as TraceLens' Trace2Tree and nsys' NVTX projection nest them. For every API call it
// gives the operator that launched its GPU work and the module frames around it.
#pragma once

#include "gpuperf/report_vocabulary.h"
#include "gpuperf/trace.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/core/correlation.h"

namespace gpuperf::analysis::framework {

inline constexpr std::int32_t kNone = -1;

// One operator instance: 20 bytes, its links only (a trace holds hundreds of thousands of
// them). Name, times, sequence number and direction are its source record's: LaunchTree::Name,
// StartNs, EndNs, Sequence, Backward.
struct OpInstance {
  std::int32_t parent = kNone;  // the enclosing operator instance
  std::int32_t module = kNone;  // innermost module node around it
  std::uint32_t source = 0;     // index into Trace::host_ops, or Trace::ranges for NVTX operators
  // The API calls under it: call_order[first_call, last_call) (contiguous: calls nest by time).
  std::uint32_t first_call = 0;
  std::uint32_t last_call = 0;
};

// One module frame instance ("nn.Module: Linear_3"), linked to its enclosing module frame.
struct ModuleNode {
  std::uint32_t frame = 0;  // index into Trace::python_frames
  std::int32_t parent = kNone;
  std::int32_t depth = 0;
};

// Indices are 32-bit: a model holds far fewer records than 2^31 (model/record_limit.h).
struct LaunchTree {
  const model::Trace* trace = nullptr;  // the trace it was built from
  // What the ops are: kCpuOp, kNvtx, or kNone when the trace has neither.
  report::OperatorSource op_source = report::OperatorSource::kNone;
  std::vector<OpInstance> ops;
  std::vector<ModuleNode> modules;
  // API call indices, each thread's calls contiguous and in time order.
  std::vector<std::uint32_t> call_order;
  // Per API call (indexed like Trace::api_calls):
  std::vector<std::int32_t> launcher;      // TraceLens' launcher operator instance, or kNone
  std::vector<std::int32_t> innermost_op;  // innermost operator around it (for steps, backward)
  std::vector<std::int32_t> module;        // innermost module node around it, or kNone

  // What an operator instance reads from its source record (a host op, or an NVTX range).
  model::NameId Name(const OpInstance& op) const {
    return nvtx_ops ? trace->ranges[op.source].name : trace->host_ops[op.source].name;
  }
  model::TimeNs StartNs(const OpInstance& op) const {
    return nvtx_ops ? trace->ranges[op.source].start_ns : trace->host_ops[op.source].start_ns;
  }
  model::TimeNs EndNs(const OpInstance& op) const {
    return nvtx_ops ? trace->ranges[op.source].end_ns : trace->host_ops[op.source].end_ns;
  }
  // Autograd's sequence number (model::kNoId when not recorded, and for NVTX operators).
  std::int64_t Sequence(const OpInstance& op) const {
    return nvtx_ops ? model::kNoId : trace->host_ops[op.source].sequence;
  }
  // Run by the autograd engine (HostOp::IsBackward).
  bool Backward(const OpInstance& op) const {
    return !nvtx_ops && trace->host_ops[op.source].IsBackward();
  }

  bool nvtx_ops = false;  // ops index Trace::ranges (op_source "nvtx"), not Trace::host_ops
};

// Builds the tree. Module frames are python frames named "nn.Module: <Class>_<n>".
LaunchTree BuildLaunchTree(const model::Trace& trace);

// "nn.Module: TimeSformerAttention_3" -> "TimeSformerAttention_3"; "" when not a module frame.
std::string_view ModuleInstanceName(std::string_view frame_name);
// "TimeSformerAttention_3" -> "TimeSformerAttention".
std::string_view ModuleClassName(std::string_view instance_name);

// GPU activities per API call (its primary call, correlation.h), as offsets into one array.
class CallActivities {
 public:
  CallActivities(const model::Trace& trace, const CorrelationIndex& index);
  // Indices into Trace::activities launched by api_calls[call], in trace order.
  std::span<const std::uint32_t> Of(std::size_t call) const {
    return {activities_.data() + offsets_[call], activities_.data() + offsets_[call + 1]};
  }

 private:
  std::vector<std::uint32_t> offsets_;  // api_calls.size() + 1
  std::vector<std::uint32_t> activities_;
};

}  // namespace gpuperf::analysis::framework
