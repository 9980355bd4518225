// The writers of `gpuperf predict` (the predict model, include/gpuperf/predict.h): its JSON, whose
// keys are a CI contract, and its text for the terminal. They only format.
#pragma once

#include "gpuperf/predict.h"

#include <nlohmann/json.hpp>

#include <string>

namespace gpuperf::report {

// `gpuperf predict --format json`: kernel_regex, kernels_matched, fraction, local_speedup,
// bound_speedup, time_saved_ns, limit_speedup, critical_ns, total_ns, wall_ns, device_groups,
// roof_max_local_speedup, rests_on, method, in that order. Ratios rounded to 6 decimals; an
// infinite limit is null.
nlohmann::ordered_json PredictJson(const predict::Prediction& prediction);

// `gpuperf predict`'s text: the first five matched names (terminal-safe), f, s, the bound, the
// time saved, the limit and one "rests on:" line per assumption.
std::string PredictText(const predict::Prediction& prediction);

}  // namespace gpuperf::report
