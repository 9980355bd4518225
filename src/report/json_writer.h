// report.json: the machine-readable form of an AnalysisReport. Key names and meanings are a
// contract documented in docs/report-schema.md and versioned by report::kReportSchemaVersion.
#pragma once

#include "gpuperf/report.h"

#include <nlohmann/json.hpp>

#include <string>

#include "report/tool_info.h"

namespace gpuperf::report {

// The evidence tier of every figure that comes straight from the trace's records.
inline constexpr const char* kEvidenceTrace = "trace";

// Builds report.json. Key order is fixed (ordered_json). Non-finite doubles become null;
// fractional values are rounded to 3 decimals (ns, bytes) or 4 decimals (percent, ratio).
// Audit counts the trace does not record (-1 in the model) become null.
nlohmann::ordered_json ToJson(const AnalysisReport& report, const ToolInfo& tool = {});

// Serialises with two-space indentation and a final newline. Invalid UTF-8 in names taken from
// a trace is replaced by U+FFFD instead of throwing.
std::string DumpJson(const nlohmann::ordered_json& json);

}  // namespace gpuperf::report
