// What an Nsight Systems export holds: its tables and their columns. Tables that had no events
// are missing, and columns come and go between schema versions (docs/formats.md, "Differences
// between versions"), so every reader asks the schema before it selects.
#pragma once

#include "gpuperf/result.h"

#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>

#include "io/nsys/sqlite_db.h"

namespace gpuperf::io::nsys {

// One column a reader wants. A missing optional column reads as NULL; a missing required one
// makes the table unreadable.
struct ColumnSpec {
  const char* name;
  bool required = false;
};

class Schema {
 public:
  // Lists the tables, loads the columns of the tables gpuperf reads, and rejects a SQLite file
  // that is not an nsys export with "<name>: SQLite database is not an Nsight Systems export ...".
  static Result<Schema> Load(const Database& db);

  bool HasTable(std::string_view table) const { return tables_.count(std::string(table)) > 0; }
  bool HasColumn(std::string_view table, std::string_view column) const;
  // EXPORT_META_DATA (nsys <= 2023.2), META_DATA_EXPORT (later), or "" when neither exists.
  const std::string& metadata_table() const { return metadata_table_; }

  // "SELECT a, b, NULL, ... FROM table": columns in the order given, so that callers read them by
  // position. Fails when the table lacks a required column.
  Result<std::string> SelectSql(std::string_view table,
                                std::span<const ColumnSpec> columns,
                                const std::string& input_name) const;

 private:
  std::set<std::string> tables_;
  std::map<std::string, std::set<std::string>, std::less<>> columns_;
  std::string metadata_table_;
};

// Table names, as nsys writes them.
inline constexpr char kKernelTable[] = "CUPTI_ACTIVITY_KIND_KERNEL";
inline constexpr char kMemcpyTable[] = "CUPTI_ACTIVITY_KIND_MEMCPY";
inline constexpr char kMemsetTable[] = "CUPTI_ACTIVITY_KIND_MEMSET";
inline constexpr char kRuntimeTable[] = "CUPTI_ACTIVITY_KIND_RUNTIME";
inline constexpr char kSyncTable[] = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
inline constexpr char kNvtxTable[] = "NVTX_EVENTS";
inline constexpr char kOsRuntimeTable[] = "OSRT_API";
inline constexpr char kSampleTable[] = "COMPOSITE_EVENTS";
inline constexpr char kSampleCallchainTable[] = "SAMPLING_CALLCHAINS";
inline constexpr char kStringTable[] = "StringIds";
inline constexpr char kGpuTable[] = "TARGET_INFO_GPU";
inline constexpr char kProcessTable[] = "PROCESSES";
inline constexpr char kSessionStartTable[] = "TARGET_INFO_SESSION_START_TIME";
inline constexpr char kMemoryUsageTable[] = "CUDA_GPU_MEMORY_USAGE_EVENTS";

}  // namespace gpuperf::io::nsys
