// The `roofline` object inside report.json's kernels[] entries (docs/report-schema.md).
#pragma once

#include "gpuperf/roofline.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace gpuperf::report {

// Keys are written only when known: a figure the counters or the ceilings cannot give is absent,
// never null or zero.
nlohmann::ordered_json RooflineJson(const KernelRoofline& roofline);

// kernels[].speed_of_light: fractions 0-1 of each unit's own peak, "evidence": "measured".
nlohmann::ordered_json SpeedOfLightJson(const SpeedOfLight& sol);

// kernels[].ncu_rules: Nsight Compute's rule results, largest estimated speedup first.
nlohmann::ordered_json NcuRulesJson(const std::vector<NcuRule>& rules);

}  // namespace gpuperf::report
