#include "analysis/core/profiler_options.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <vector>

namespace gpuperf::analysis {

bool HostOpsCarryShapes(const model::Trace& trace) {
  return std::any_of(trace.host_ops.begin(), trace.host_ops.end(), [](const model::HostOp& op) {
    return op.input_dims != 0;
  });
}

std::string RecordedProfilerOptions(const model::Trace& trace, bool shapes_recorded) {
  // The profiler's per-op work (Python stacks, shapes) is host time too: a bound over host time
  // is over the profiled host, which an unprofiled run may not have. The header's flags
  // (2022+), else what the events carry (2021-era traces: per-event shapes, Python frames).
  const auto& p = trace.metadata.properties;
  auto on = [&](const char* key) {
    auto it = p.find(key);
    return it != p.end() && it->second != "0" && it->second != "false";
  };
  // Each option the profiler ran with that adds per-operator host work, as the header or the
  // events say: what it records and the keyword that turns it on.
  std::vector<std::string_view> what_recorded, keywords;
  auto option = [&](bool held, std::string_view recorded, std::string_view keyword) {
    if (!held)
      return;
    what_recorded.push_back(recorded);
    keywords.push_back(keyword);
  };
  option(on("with_stack") || !trace.python_frames.empty(), "Python stacks", "with_stack");
  option(on("record_shapes") || shapes_recorded, "shapes", "record_shapes");
  // Allocator events beside framework operators: the PyTorch profiler's (a CUPTI recording's
  // memory records cost nothing per operator).
  option(on("profile_memory") || (!trace.memory_events.empty() && !trace.host_ops.empty()),
         "allocator events",
         "profile_memory");
  option(on("with_flops"), "FLOP estimates", "with_flops");
  option(on("with_modules"), "module hierarchy", "with_modules");
  if (what_recorded.empty())
    return "";
  std::string listed;
  for (std::size_t i = 0; i < what_recorded.size(); ++i)
    listed += fmt::format("{}{}",
                          i == 0                          ? ""
                          : i + 1 == what_recorded.size() ? " and "
                                                          : ", ",
                          what_recorded[i]);
  return fmt::format("{} ({})", listed, fmt::join(keywords, ", "));
}

std::string ProfilerOverheadText(const model::Trace& trace,
                                 bool shapes_recorded,
                                 std::string_view what) {
  const std::string options = RecordedProfilerOptions(trace, shapes_recorded);
  if (options.empty())
    return "";
  return fmt::format(
      "The trace was recorded with {}: the profiler's per-operator work inflates {}; confirm it "
      "with an unprofiled timing of the same steps (trace).",
      options,
      what);
}

}  // namespace gpuperf::analysis
