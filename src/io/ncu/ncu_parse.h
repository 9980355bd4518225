// Reads the rows of an Nsight Compute CSV into one record per profiled kernel launch, whichever
// of the three layouts ncu wrote (docs/formats.md, "Layouts"):
//  - "metrics": `--csv --metrics ...`, one row per (launch, metric) with raw metric names;
//  - "details": `--csv --page details`, the same long shape with section labels in "Metric Name"
//    and rule rows (Rule Name/Type/Description) with an empty metric;
//  - "raw": `--csv --page raw`, one row per launch, a column per metric and a units row.
// Program output and ==PROF== / ==WARNING== / ==ERROR== lines may come before or between rows.
#pragma once

#include "gpuperf/result.h"
#include "gpuperf/trace.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/ncu_rules.h"
#include "util/byte_source.h"

namespace gpuperf::io::ncu {

struct Launch {
  std::int64_t id = 0;  // ncu's "ID": the launch's position among profiled launches
  std::int64_t pid = model::kNoId;
  std::string process_name;
  std::string host;
  std::string name;  // "Kernel Name" as printed (demangled, ncu's own spelling)
  std::int64_t context = model::kNoId;
  std::int64_t stream = model::kNoId;
  std::optional<model::Dim3> block;
  std::optional<model::Dim3> grid;
  std::int32_t device = 0;  // ncu's "Device" index
  std::int32_t compute_major = 0;
  std::int32_t compute_minor = 0;
  std::map<std::string, double> metrics;                 // raw name -> value in base units
  std::map<std::string, std::string> device_attributes;  // device__attribute_* (raw page)
  std::vector<model::NcuRuleRow> rules;                  // rule rows of the details page
};

struct ParsedCsv {
  std::string layout;            // "metrics", "details" or "raw"
  std::vector<Launch> launches;  // in order of first appearance (ncu's ID order)
};

// True when `head` holds an ncu CSV header line ("ID","Process ID",...,"Kernel Name",...) at the
// start of a line, possibly after program output.
bool LooksLikeNcuCsv(std::string_view head);

// Reads the whole CSV. Malformed rows and values are counted in `diagnostics`; only a missing
// header fails, with an error that starts with `name`.
Result<ParsedCsv> ParseCsv(util::ByteSource& source,
                           const std::string& name,
                           model::Diagnostics& diagnostics);

}  // namespace gpuperf::io::ncu
