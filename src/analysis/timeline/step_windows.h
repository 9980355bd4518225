// The steps of a trace: the windows a training or serving loop's iterations occupy. The step
// table (framework/step_table.cc) measures them; the idle attribution leaves out what lies after
// the last of them (idle_attribution.h, unobserved_tail_ns). One discovery for both.
#pragma once

#include "gpuperf/trace.h"

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "util/user_regex.h"

namespace gpuperf::analysis {

struct StepWindow {
  std::string name;
  model::TimeNs start_ns = 0;
  model::TimeNs end_ns = 0;
  std::int64_t pid = model::kNoId;
  bool operator<(const StepWindow& o) const {
    return std::tie(start_ns, end_ns, name) < std::tie(o.start_ns, o.end_ns, o.name);
  }
  bool operator==(const StepWindow& o) const {
    return start_ns == o.start_ns && end_ns == o.end_ns && name == o.name;
  }
};

// ProfilerStep#N from annotations (and 2021's "Operator" events, which arrive as host ops), or
// every host range / operator whose name matches `pattern` (null: ProfilerStep), sorted, unique.
std::vector<StepWindow> FindSteps(const model::Trace& trace, const util::UserRegex* pattern);

// Without ProfilerStep ranges: from one optimizer.step() call's start to the next, per process.
std::vector<StepWindow> OptimizerSteps(const model::Trace& trace);

// The steps that bound the steady-state window, as the step table finds them: the ranges and
// operators named by `pattern` (--step-range; none found: none), else ProfilerStep, both marked by
// the program; else Optimizer.step, derived from the optimizer's calls (not marked).
struct WindowSteps {
  std::vector<StepWindow> steps;
  bool marked = false;
};
WindowSteps FindWindowSteps(const model::Trace& trace, const util::UserRegex* pattern);

// The steps without a user pattern: ProfilerStep, else Optimizer.step.
std::vector<StepWindow> DefaultSteps(const model::Trace& trace);

}  // namespace gpuperf::analysis
