// The input checked against the model (input_check.cc): a resized learned embedding says the
// input is not the size the model was built for; one loaded input run through the model several
// times says the runs may repeat one computation.
#pragma once

#include "gpuperf/framework.h"
#include "gpuperf/report.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace gpuperf::analysis {

// Where the experiment for the input as it is starts in a checked next_experiment.
inline constexpr std::string_view kIfIntended = "For the input as it is: ";

// Sets d.input_check (and d.input_check_bound_speedup for repeated runs, over the steady window
// `window_ns`) and puts the checks before d's experiment, in its scope and its evidence; nothing
// when the view shows neither or d has no experiment.
void PrependInputCheck(report::Diagnosis& d,
                       const report::FrameworkView& view,
                       std::int64_t window_ns);

}  // namespace gpuperf::analysis
