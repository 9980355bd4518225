// One reader per nsys table. Each reads its table if present (empty tables are missing from an
// export), appends to the trace, and counts malformed rows in trace.diagnostics as
// "nsys.<what>_<problem>" instead of failing. Only SQLite errors (a corrupt page) fail a reader.
#pragma once

#include "gpuperf/result.h"
#include "gpuperf/trace.h"

#include <cstdint>
#include <limits>
#include <span>
#include <string>

#include "io/nsys/nsys_schema.h"
#include "io/nsys/nsys_strings.h"
#include "io/nsys/sqlite_db.h"

namespace gpuperf::io::nsys {

struct ReadContext {
  const Database& db;
  const Schema& schema;
  StringIds& strings;
  model::Trace& trace;
};

// Metadata, session start, devices, processes and memory events (nsys_target_readers.cc).
Status ReadMetadata(ReadContext& context);
Status ReadDevices(ReadContext& context);
Status ReadProcesses(ReadContext& context);
Status ReadMemoryEvents(ReadContext& context);
// GPU work (nsys_gpu_readers.cc).
Status ReadKernels(ReadContext& context);
Status ReadMemcpys(ReadContext& context);
Status ReadMemsets(ReadContext& context);
// Host side (nsys_host_readers.cc).
Status ReadRuntimeCalls(ReadContext& context);
Status ReadSyncs(ReadContext& context);
Status ReadNvtxRanges(ReadContext& context);
// What host threads did outside CUDA (nsys_os_readers.cc): OS runtime calls (OSRT_API) and CPU
// samples (COMPOSITE_EVENTS with the innermost frame of SAMPLING_CALLCHAINS).
Status ReadOsCalls(ReadContext& context);
Status ReadCpuSamples(ReadContext& context);

// Reserves the trace's vectors for the rows the event tables hold, so that millions of records
// are not copied on every growth. Only an estimate: errors are ignored.
void ReserveCapacity(ReadContext& context);

// --- Helpers shared by the readers. ---

// globalPid / globalTid encode the pid in bits 24..47 and the tid in bits 0..23, as NVIDIA's
// scripts decode them: pid = (globalPid >> 24) & 0xFFFFFF, tid = globalTid & 0xFFFFFF.
inline std::int64_t DecodePid(std::int64_t global_id) {
  return static_cast<std::int64_t>((static_cast<std::uint64_t>(global_id) >> 24) & 0xFFFFFF);
}
inline std::int64_t DecodeTid(std::int64_t global_id) {
  return global_id & 0xFFFFFF;
}

inline std::int32_t SaturateInt32(std::int64_t value) {
  if (value > std::numeric_limits<std::int32_t>::max()) {
    return std::numeric_limits<std::int32_t>::max();
  }
  if (value < std::numeric_limits<std::int32_t>::min()) {
    return std::numeric_limits<std::int32_t>::min();
  }
  return static_cast<std::int32_t>(value);
}

// What ReadSpan counts for the rows of one table ("nsys.<table>_null_time", ...).
struct SpanDiagnostics {
  model::Diagnostic null_time;
  model::Diagnostic negative_time;
  model::Diagnostic end_before_start;
  model::Diagnostic time_out_of_range;
};
inline constexpr SpanDiagnostics kKernelSpan{model::Diagnostic::kNsysKernelNullTime,
                                             model::Diagnostic::kNsysKernelNegativeTime,
                                             model::Diagnostic::kNsysKernelEndBeforeStart,
                                             model::Diagnostic::kNsysKernelTimeOutOfRange};
inline constexpr SpanDiagnostics kMemcpySpan{model::Diagnostic::kNsysMemcpyNullTime,
                                             model::Diagnostic::kNsysMemcpyNegativeTime,
                                             model::Diagnostic::kNsysMemcpyEndBeforeStart,
                                             model::Diagnostic::kNsysMemcpyTimeOutOfRange};
inline constexpr SpanDiagnostics kMemsetSpan{model::Diagnostic::kNsysMemsetNullTime,
                                             model::Diagnostic::kNsysMemsetNegativeTime,
                                             model::Diagnostic::kNsysMemsetEndBeforeStart,
                                             model::Diagnostic::kNsysMemsetTimeOutOfRange};
inline constexpr SpanDiagnostics kRuntimeSpan{model::Diagnostic::kNsysRuntimeNullTime,
                                              model::Diagnostic::kNsysRuntimeNegativeTime,
                                              model::Diagnostic::kNsysRuntimeEndBeforeStart,
                                              model::Diagnostic::kNsysRuntimeTimeOutOfRange};
inline constexpr SpanDiagnostics kSyncSpan{model::Diagnostic::kNsysSyncNullTime,
                                           model::Diagnostic::kNsysSyncNegativeTime,
                                           model::Diagnostic::kNsysSyncEndBeforeStart,
                                           model::Diagnostic::kNsysSyncTimeOutOfRange};
inline constexpr SpanDiagnostics kOsCallSpan{model::Diagnostic::kNsysOsrtNullTime,
                                             model::Diagnostic::kNsysOsrtNegativeTime,
                                             model::Diagnostic::kNsysOsrtEndBeforeStart,
                                             model::Diagnostic::kNsysOsrtTimeOutOfRange};
inline constexpr SpanDiagnostics kNvtxSpan{model::Diagnostic::kNsysNvtxNullTime,
                                           model::Diagnostic::kNsysNvtxNegativeTime,
                                           model::Diagnostic::kNsysNvtxEndBeforeStart,
                                           model::Diagnostic::kNsysNvtxTimeOutOfRange};

// Reads [start, end] from two columns. Returns false, counting one of `counted` (a NULL time, a
// negative start, an end before the start, an end past 2^62 ns), when the row must be skipped.
bool ReadSpan(const Statement& row,
              int start_column,
              int end_column,
              const SpanDiagnostics& counted,
              model::Diagnostics& diagnostics,
              model::TimeNs* start,
              model::TimeNs* end);

// Runs `on_row` for every row of `table` with `columns` selected in order; does nothing when the
// table is missing. `on_row(const Statement&)` reads columns by their position in `columns`.
// `where` (a constant condition on required columns, or nullptr) lets SQLite skip rows without
// handing their columns over.
template <typename OnRow>
Status ForEachRow(ReadContext& context,
                  const char* table,
                  std::span<const ColumnSpec> columns,
                  OnRow&& on_row,
                  const char* where = nullptr) {
  if (!context.schema.HasTable(table))
    return Status::Ok();
  auto sql = context.schema.SelectSql(table, columns, context.db.name());
  if (!sql.ok())
    return sql.error();
  if (where != nullptr)
    *sql += std::string(" WHERE ") + where;
  auto stmt = context.db.Prepare(*sql);
  if (!stmt.ok())
    return stmt.error();
  while (true) {
    auto has_row = stmt->Step();
    if (!has_row.ok())
      return has_row.error();
    if (!*has_row)
      return Status::Ok();
    on_row(*stmt);
  }
}

}  // namespace gpuperf::io::nsys
