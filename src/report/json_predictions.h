// report.json's `predictions` section (docs/report-schema.md).
#pragma once

#include "gpuperf/report.h"

#include <nlohmann/json.hpp>

namespace gpuperf::report {

nlohmann::ordered_json PredictionsJson(const Predictions& predictions);

// One kernel's or phase's Amdahl inputs; also what `gpuperf predict --format json` prints.
nlohmann::ordered_json CriticalShareJson(const CriticalShare& share);

// A number rounded to `decimals` places, null when not finite (JSON has no infinity).
nlohmann::ordered_json RoundedNumber(double value, int decimals);

}  // namespace gpuperf::report
