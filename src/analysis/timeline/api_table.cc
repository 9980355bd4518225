// cuda_api_sum: every host API record, grouped by the name as recorded. nsys 2022 writes some
// calls twice ("cudaMemcpy" and "cudaMemcpy_v3020", one record nested in the other); grouping
// by the recorded name keeps them apart exactly as `nsys stats` prints them.
#include <algorithm>
#include <map>

#include "analysis/core/names.h"
#include "analysis/core/statistics.h"
#include "analysis/timeline/tables.h"

namespace gpuperf::analysis {

std::vector<report::ApiRow> ApiTable(const model::Trace& trace) {
  std::map<model::NameId, std::vector<std::int64_t>> groups;
  for (const model::ApiCall& call : trace.api_calls) {
    groups[call.name].push_back(call.duration_ns());
  }
  std::vector<report::ApiRow> rows;
  std::int64_t all_time = 0;
  for (auto& [name, durations] : groups) {
    report::ApiRow row;
    row.raw_name = std::string(trace.Name(name));
    row.name = std::string(StripVersionSuffix(row.raw_name));
    row.duration_ns = Summarize(durations);
    all_time += row.duration_ns.total;
    rows.push_back(std::move(row));
  }
  for (report::ApiRow& row : rows) {
    row.time_percent =
        Percent(static_cast<double>(row.duration_ns.total), static_cast<double>(all_time));
  }
  std::sort(rows.begin(), rows.end(), [](const report::ApiRow& a, const report::ApiRow& b) {
    if (a.duration_ns.total != b.duration_ns.total)
      return a.duration_ns.total > b.duration_ns.total;
    if (a.name != b.name)
      return a.name < b.name;
    return a.raw_name < b.raw_name;
  });
  return rows;
}

}  // namespace gpuperf::analysis
