// The `roofline` object inside report.json's kernels[] entries (docs/report-schema.md).
#pragma once

#include "gpuperf/roofline.h"

#include <nlohmann/json.hpp>

namespace gpuperf::report {

// Keys are written only when known: a figure the counters or the ceilings cannot give is absent,
// never null or zero.
nlohmann::ordered_json RooflineJson(const KernelRoofline& roofline);

}  // namespace gpuperf::report
