// Which vendor's tools a diagnosis names, and device kinds gpuperf does not analyse.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/core/names.h"
#include "analysis/core/profiler_options.h"
#include "analysis/diagnosis/diagnosis.h"

namespace gpuperf::analysis {

bool IsPyTorchTrace(const model::Trace& trace) {
  return trace.metadata.framework_profiler && !trace.host_ops.empty();
}

bool IsAmdTrace(const model::Trace& trace) {
  for (const model::Device& d : trace.devices) {
    for (const char* mark : {"AMD", "Instinct", "Radeon", "gfx9", "gfx1"}) {
      if (ContainsNoCase(d.name, mark))
        return true;
    }
  }
  // HIP API names: ROCm traces reuse CUDA's category names, not its API names.
  std::size_t hip = 0, cuda = 0;
  CachedNamePredicate is_hip(trace,
                             [](std::string_view name) { return StartsWithNoCase(name, "hip"); });
  for (const model::ApiCall& c : trace.api_calls) {
    if (is_hip(c.name))
      ++hip;
    else
      ++cuda;
  }
  return hip > cuda;
}

ExperimentContext InputContext(const model::Trace& trace) {
  ExperimentContext context;
  context.amd = IsAmdTrace(trace);
  context.pytorch = IsPyTorchTrace(trace);
  context.shapes_recorded = HostOpsCarryShapes(trace);
  // One pass over the names (fewer than the records that use them).
  for (model::NameId id = 0; id < trace.strings.size(); ++id) {
    std::string_view name = trace.Name(id);
    if (name.empty())
      continue;
    // By the first letter: most names start with none of these.
    if (name[0] == 'v')
      context.vllm = context.vllm || name.starts_with("vllm::");
    // An optimizer step or autograd's backward: a training step, whose capture must hold them.
    else if (name[0] == 'O' || name[0] == 'a')
      context.training = context.training || name.starts_with("Optimizer.step") ||
                         name.starts_with("autograd::engine::evaluate_function");
  }
  return context;
}

ExperimentContext SameInput(const ExperimentContext& base) {
  ExperimentContext context;
  context.amd = base.amd;
  context.pytorch = base.pytorch;
  context.shapes_recorded = base.shapes_recorded;
  context.vllm = base.vllm;
  context.training = base.training;
  context.steady_span = base.steady_span;  // the same report's window
  return context;
}

std::string UnsupportedDevice(const model::Trace& trace) {
  for (model::NameId id = 0; id < trace.strings.size(); ++id) {
    if (ContainsNoCase(trace.Name(id), "mtia"))
      return fmt::format(
          "The trace names an MTIA device (\"{}\"): gpuperf analyses NVIDIA and AMD GPU work "
          "only, so its device work is unsupported here, not absent.",
          trace.Name(id));
  }
  return "";
}

}  // namespace gpuperf::analysis
