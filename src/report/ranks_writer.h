// Writers for `gpuperf ranks`: ranks.json (docs/ranks.md) and ranks.md.
#pragma once

#include "gpuperf/ranks.h"

#include <nlohmann/json.hpp>

#include <string>

#include "report/tool_info.h"

namespace gpuperf::report {

nlohmann::ordered_json RanksToJson(const ranks::RanksReport& report, const ToolInfo& tool);
std::string RanksToMarkdown(const ranks::RanksReport& report, const ToolInfo& tool);

}  // namespace gpuperf::report
