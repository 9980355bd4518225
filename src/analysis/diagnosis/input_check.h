// The input checked against the model (input_check.cc): a resized learned embedding says the
// input is not the size the model was built for.
#pragma once

#include "gpuperf/framework.h"
#include "gpuperf/report.h"

#include <string>
#include <string_view>

namespace gpuperf::analysis {

// Where the experiment for the input as it is starts in a checked next_experiment.
inline constexpr std::string_view kIfIntended = "For the input as it is: ";

// The resized embedding with the largest growth, as a clause ("its TimesformerEmbeddings resize
// a learned embedding 16x, from 8 to 128 positions (...)"); "" when none.
std::string InputCheck(const report::FrameworkView& view);

// Sets d.input_check and puts the check before d's experiment, in its scope and its evidence;
// nothing when the view resizes no embedding or d has no experiment.
void PrependInputCheck(report::Diagnosis& d, const report::FrameworkView& view);

}  // namespace gpuperf::analysis
