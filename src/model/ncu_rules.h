// Nsight Compute rule results (the details page's Rule Name / Rule Type / Rule Description /
// Estimated Speedup rows) kept with a trace. They are text, so they do not fit
// KernelCounters::metrics; they travel in TraceMetadata::properties under one key per kernel
// activity ("ncu_rules:<activity index>"), written by the ncu importer, moved by the --counters
// join, and read by the analysis.
#pragma once

#include "gpuperf/trace.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gpuperf::model {

struct NcuRuleRow {
  std::string section;  // "Occupancy"
  std::string name;     // "TheoreticalOccupancy"
  std::string type;     // "OPT", "WRN", "INF"
  std::string description;
  std::string speedup_type;  // "local", "global", ""
  std::optional<double> estimated_speedup_percent;
};

// Replaces the rule rows stored for `activity`; an empty list removes them.
void StoreNcuRules(TraceMetadata& metadata,
                   std::size_t activity,
                   const std::vector<NcuRuleRow>& rules);

// The rule rows stored for `activity`; empty when none (or when the stored text is damaged).
std::vector<NcuRuleRow> LoadNcuRules(const TraceMetadata& metadata, std::size_t activity);

}  // namespace gpuperf::model
