#include "analysis/timeline/step_windows.h"

#include <algorithm>
#include <map>
#include <string_view>

#include "analysis/core/names.h"

namespace gpuperf::analysis {
namespace {

bool IsHostRange(model::RangeKind kind) {
  return kind != model::RangeKind::kGpuUserAnnotation;
}

}  // namespace

// ProfilerStep#N from annotations (and 2021's "Operator" events, which arrive as host ops), or
// every host range / operator whose name matches `pattern`.
// The pattern runs through util::UserRegex, the one guarded matcher for user regexes: a name too
// long to match safely does not match.
std::vector<StepWindow> FindSteps(const model::Trace& trace, const util::UserRegex* pattern) {
  std::vector<StepWindow> steps;
  auto wanted = [&](std::string_view name) {
    if (!pattern)
      return IsProfilerStepName(name);
    Result<bool> found = pattern->Search(name);
    return found.ok() && *found;
  };
  for (const model::Range& r : trace.ranges) {
    if (IsHostRange(r.kind) && wanted(trace.Name(r.name)))
      steps.push_back({std::string(trace.Name(r.name)), r.start_ns, r.end_ns, r.pid});
  }
  for (const model::HostOp& op : trace.host_ops) {
    if (wanted(trace.Name(op.name)))
      steps.push_back({std::string(trace.Name(op.name)), op.start_ns, op.end_ns, op.pid});
  }
  std::sort(steps.begin(), steps.end());
  steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
  return steps;
}

// Without ProfilerStep ranges, a training loop still marks its iterations: PyTorch records each
// optimizer.step() as "Optimizer.step#<Class>.step". An iteration runs from one such call's start
// to the next's (the last call closes the last whole iteration), per process. Two calls at least.
std::vector<StepWindow> OptimizerSteps(const model::Trace& trace) {
  std::map<std::int64_t, std::vector<model::TimeNs>> starts;  // by pid
  std::map<std::int64_t, std::string> names;
  auto note = [&](model::NameId id, std::int64_t pid, model::TimeNs start) {
    std::string_view name = trace.Name(id);
    if (!name.starts_with("Optimizer.step#"))
      return;
    starts[pid].push_back(start);
    names.try_emplace(pid, name);
  };
  for (const model::HostOp& op : trace.host_ops)
    note(op.name, op.pid, op.start_ns);
  // Older profilers record it as a user annotation (a host range), not an operator.
  for (const model::Range& r : trace.ranges) {
    if (IsHostRange(r.kind))
      note(r.name, r.pid, r.start_ns);
  }
  std::vector<StepWindow> steps;
  for (auto& [pid, list] : starts) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    for (std::size_t i = 1; i < list.size(); ++i)
      steps.push_back({names[pid], list[i - 1], list[i], pid});
  }
  std::sort(steps.begin(), steps.end());
  return steps;
}

WindowSteps FindWindowSteps(const model::Trace& trace, const util::UserRegex* pattern) {
  WindowSteps out{FindSteps(trace, pattern), true};
  if (out.steps.empty() && !pattern)
    out = {OptimizerSteps(trace), false};
  return out;
}

std::vector<StepWindow> DefaultSteps(const model::Trace& trace) {
  return FindWindowSteps(trace, nullptr).steps;
}

}  // namespace gpuperf::analysis
