// Writers for `gpuperf compare`: compare.json for CI (docs/compare.md) and compare.md for a
// pull request, in the report order of docs/method.md ("Report order").
#pragma once

#include "gpuperf/compare.h"

#include <nlohmann/json.hpp>

#include <string>

#include "report/tool_info.h"

namespace gpuperf::report {

nlohmann::ordered_json CompareToJson(const compare::CompareReport& report, const ToolInfo& tool);

std::string CompareToMarkdown(const compare::CompareReport& report,
                              const ToolInfo& tool,
                              std::size_t top_rows);

}  // namespace gpuperf::report
