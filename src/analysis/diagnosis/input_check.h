// The input checked against the model (input_check.cc): a resized learned embedding says the
// input is not the size the model was built for; one loaded input run through the model several
// times says the runs may repeat one computation.
#pragma once

#include "gpuperf/framework.h"
#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/timeline/idle_attribution.h"

namespace gpuperf::analysis {

// Where the experiment for the input as it is starts in a checked next_experiment.
inline constexpr std::string_view kIfIntended = "For the input as it is: ";

// Sets d.input_check (and d.input_check_bound_speedup for repeated runs, over the steady window
// `window_ns`) and puts the checks before d's experiment, in its scope and its evidence; nothing
// when the view shows neither or d has no experiment.
void PrependInputCheck(report::Diagnosis& d,
                       const report::FrameworkView& view,
                       std::int64_t window_ns);

// The evidence that the host work in the gaps lies inside repeated runs of one input: how much of
// the idle it fills lies between the end of the first run and the end of the last, and of the
// named host work (`names`, as the idle attribution names it) the instances there. "" without
// repeated runs or without such idle (repeated_host_work.cc).
struct RepeatedHostWork {
  std::int64_t ns = 0;   // of the idle the host work fills, inside the repeats
  std::string evidence;  // the sentence, "" when ns is 0
};
RepeatedHostWork HostWorkInRepeats(const model::Trace& trace,
                                   const IdleAttribution& idle,
                                   const report::FrameworkView& view,
                                   const std::vector<std::string>& names);

}  // namespace gpuperf::analysis
