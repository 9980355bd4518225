// report.json's framework view: `operators`, `categories`, `modules`, `module_tree`, `steps`
// and `step_summary` (docs/report-schema.md).
#pragma once

#include "gpuperf/framework.h"

#include <nlohmann/json.hpp>

namespace gpuperf::report {

// Adds the framework keys to the top level of report.json.
void AddFrameworkJson(nlohmann::ordered_json& json, const FrameworkView& view);

}  // namespace gpuperf::report
