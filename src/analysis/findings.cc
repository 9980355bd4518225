#include "analysis/findings.h"

#include <fmt/format.h>

namespace gpuperf::analysis {

void SetRows(report::Finding& finding, std::vector<report::FindingRow> rows, std::int64_t limit) {
  auto size = static_cast<std::int64_t>(rows.size());
  if (limit >= 0 && size > limit) {
    finding.rows_omitted = size - limit;
    rows.resize(static_cast<std::size_t>(limit));
  }
  finding.rows = std::move(rows);
}

std::string Ms(std::int64_t ns) {
  return fmt::format("{:.3f} ms", static_cast<double>(ns) / 1e6);
}

std::vector<report::Finding> RunRules(const RuleInput& in) {
  std::vector<report::Finding> findings;
  for (auto rule : {SyncMemcpyRule,
                    PageableAsyncMemcpyRule,
                    SyncMemsetRule,
                    SyncApiRule,
                    GpuGapsRule,
                    LowUtilizationRule,
                    LaunchOverheadRule,
                    GpuIdleRule}) {
    if (auto finding = rule(in))
      findings.push_back(std::move(*finding));
  }
  return findings;
}

}  // namespace gpuperf::analysis
