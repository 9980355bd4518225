// `analyze --format csv`: one CSV file per table of report.json, for spreadsheets and scripts.
// The tables that are nsys's keep `nsys stats --format csv` column names and order (2024+ report
// names: cuda_gpu_kern_sum, cuda_gpu_mem_time_sum, cuda_api_sum), with gpuperf's extra columns
// after them; durations are integer ns as nsys writes them. RFC 4180 quoting.
#pragma once

#include "gpuperf/report.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuperf::report {

// (file name, content) for kernels.csv, operators.csv, memory_ops.csv, api.csv, findings.csv.
std::vector<std::pair<std::string, std::string>> ToCsvFiles(const AnalysisReport& report);

// One field, quoted when it holds a comma, quote, CR or LF (quotes doubled).
std::string CsvField(std::string_view text);

}  // namespace gpuperf::report
