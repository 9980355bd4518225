// Kernels, copies and memsets: the CUPTI_ACTIVITY_KIND_{KERNEL,MEMCPY,MEMSET} tables.
#include <algorithm>
#include <array>
#include <optional>
#include <string>

#include "io/nsys/nsys_readers.h"

namespace gpuperf::io::nsys {
namespace {

using model::ActivityKind;
using model::CopyKind;
using model::GpuActivity;
using model::MemoryKind;

// The columns every GPU activity table shares, first in every select below.
enum CommonColumn { kStart, kEnd, kDevice, kContext, kStream, kCorrelation, kGlobalPid, kCommon };

GpuActivity ReadCommon(const Statement& row, ActivityKind kind) {
  GpuActivity activity;
  activity.kind = kind;
  activity.device = SaturateInt32(row.IntOr(kDevice, 0));
  activity.context = row.IntOr(kContext, model::kNoId);
  activity.stream = row.IntOr(kStream, model::kNoId);
  activity.correlation = row.IntOr(kCorrelation, model::kNoId);
  if (auto global_pid = row.Int(kGlobalPid))
    activity.pid = DecodePid(*global_pid);
  return activity;
}

// CUPTI's copy kinds 0..10 map one to one; 11..13 are the Unified-Memory variants of HtoD,
// DtoH and DtoD, which the model folds into the plain direction.
CopyKind ToCopyKind(std::int64_t value) {
  if (value >= 0 && value <= 10)
    return static_cast<CopyKind>(value);
  if (value == 11)
    return CopyKind::kHtoD;
  if (value == 12)
    return CopyKind::kDtoH;
  if (value == 13)
    return CopyKind::kDtoD;
  return CopyKind::kUnknown;
}

MemoryKind ToMemoryKind(std::optional<std::int64_t> value) {
  if (value && *value >= 0 && *value <= 7)
    return static_cast<MemoryKind>(*value);
  return MemoryKind::kUnknown;
}

// CUDA's launch limits: grid x < 2^31, grid y/z < 2^16, block x/y <= 1024, block z <= 64.
// Values past them are damage; clamping keeps Dim3::Volume() within int64.
model::Dim3 ReadDim3(const Statement& row,
                     int first_column,
                     const std::array<std::int64_t, 3>& max,
                     model::Diagnostics& diagnostics) {
  std::array<std::int32_t, 3> dims{};
  bool clamped = false;
  for (int i = 0; i < 3; ++i) {
    std::int64_t value = row.IntOr(first_column + i, 0);
    std::int64_t limit = max[static_cast<std::size_t>(i)];
    if (value < 0 || value > limit)
      clamped = true;
    dims[static_cast<std::size_t>(i)] =
        static_cast<std::int32_t>(std::clamp<std::int64_t>(value, 0, limit));
  }
  if (clamped)
    diagnostics.Count(model::Diagnostic::kNsysKernelLaunchDimOutOfRange);
  return {dims[0], dims[1], dims[2]};
}

// Bytes are never negative; a negative count is treated as unknown (0).
std::int64_t ReadBytes(const Statement& row, int column) {
  std::int64_t bytes = row.IntOr(column, 0);
  return bytes < 0 ? 0 : bytes;
}

// max(rowid) is a B-tree descent, not a scan. A hostile file can claim any rowid, so the estimate
// is capped by what the file could hold: no row takes fewer than 16 bytes.
std::size_t EstimateRows(const ReadContext& context, const char* table) {
  if (!context.schema.HasTable(table))
    return 0;
  auto stmt = context.db.Prepare(std::string("SELECT max(rowid) FROM \"") + table + "\"");
  if (!stmt.ok())
    return 0;
  auto row = stmt->Step();
  if (!row.ok() || !*row)
    return 0;
  std::int64_t rows = std::clamp<std::int64_t>(stmt->IntOr(0, 0), 0, context.db.SizeBytes() / 16);
  return static_cast<std::size_t>(rows);
}

}  // namespace

void ReserveCapacity(ReadContext& context) {
  model::Trace& trace = context.trace;
  trace.activities.reserve(EstimateRows(context, kKernelTable) +
                           EstimateRows(context, kMemcpyTable) +
                           EstimateRows(context, kMemsetTable));
  trace.api_calls.reserve(EstimateRows(context, kRuntimeTable));
  trace.syncs.reserve(EstimateRows(context, kSyncTable));
  trace.ranges.reserve(EstimateRows(context, kNvtxTable));
  trace.os_calls.reserve(EstimateRows(context, kOsRuntimeTable));
  trace.cpu_samples.reserve(EstimateRows(context, kSampleTable));
}

constexpr model::TimeNs kMaxTimeNs = model::TimeNs{1} << 62;

bool ReadSpan(const Statement& row,
              int start_column,
              int end_column,
              const SpanDiagnostics& counted,
              model::Diagnostics& diagnostics,
              model::TimeNs* start,
              model::TimeNs* end) {
  auto start_ns = row.Int(start_column);
  auto end_ns = row.Int(end_column);
  std::optional<model::Diagnostic> problem;
  if (!start_ns || !end_ns) {
    problem = counted.null_time;
  } else if (*start_ns < 0) {
    // nsys counts from the session start; a negative time is damage, and keeping it could
    // overflow end - start downstream.
    problem = counted.negative_time;
  } else if (*end_ns < *start_ns) {
    problem = counted.end_before_start;
  } else if (*end_ns > kMaxTimeNs) {
    // Past year 2116 in epoch ns: damage; sums and spans of such values would overflow int64.
    problem = counted.time_out_of_range;
  }
  if (problem) {
    diagnostics.Count(*problem);
    return false;
  }
  *start = *start_ns;
  *end = *end_ns;
  return true;
}

Status ReadKernels(ReadContext& context) {
  enum Column {
    kDemangled = kCommon,
    kShort,
    kRegisters,
    kGridX,
    kGridY,
    kGridZ,
    kBlockX,
    kBlockY,
    kBlockZ,
    kStaticShared,
    kDynamicShared,
    kGraphId
  };
  static constexpr std::array<ColumnSpec, 19> kColumns = {{
      {"start", true},
      {"end", true},
      {"deviceId"},
      {"contextId"},
      {"streamId"},
      {"correlationId"},
      {"globalPid"},
      {"demangledName"},
      {"shortName"},
      {"registersPerThread"},
      {"gridX"},
      {"gridY"},
      {"gridZ"},
      {"blockX"},
      {"blockY"},
      {"blockZ"},
      {"staticSharedMemory"},
      {"dynamicSharedMemory"},
      {"graphId"},
  }};
  model::Trace& trace = context.trace;
  return ForEachRow(context, kKernelTable, kColumns, [&](const Statement& row) {
    GpuActivity kernel = ReadCommon(row, ActivityKind::kKernel);
    if (!ReadSpan(
            row, kStart, kEnd, kKernelSpan, trace.diagnostics, &kernel.start_ns, &kernel.end_ns)) {
      return;
    }
    // `nsys stats` shows the demangled name; the short name stands in when it is NULL.
    auto name_id = row.Int(kDemangled);
    if (!name_id)
      name_id = row.Int(kShort);
    if (name_id) {
      kernel.name = context.strings.Resolve(*name_id, trace);
    } else {
      trace.diagnostics.Count(model::Diagnostic::kNsysKernelNullName);
    }
    kernel.registers_per_thread = SaturateInt32(row.IntOr(kRegisters, 0));
    kernel.grid = ReadDim3(row, kGridX, {0x7FFFFFFF, 0xFFFF, 0xFFFF}, trace.diagnostics);
    kernel.block = ReadDim3(row, kBlockX, {1024, 1024, 64}, trace.diagnostics);
    // Saturate each part first so that the sum cannot overflow.
    kernel.shared_memory_bytes =
        SaturateInt32(std::int64_t{SaturateInt32(row.IntOr(kStaticShared, 0))} +
                      SaturateInt32(row.IntOr(kDynamicShared, 0)));
    kernel.graph_id = row.IntOr(kGraphId, model::kNoId);
    trace.activities.push_back(kernel);
  });
}

Status ReadMemcpys(ReadContext& context) {
  enum Column { kBytes = kCommon, kCopyKind, kSrcKind, kDstKind };
  static constexpr std::array<ColumnSpec, 11> kColumns = {{
      {"start", true},
      {"end", true},
      {"deviceId"},
      {"contextId"},
      {"streamId"},
      {"correlationId"},
      {"globalPid"},
      {"bytes"},
      {"copyKind"},
      {"srcKind"},
      {"dstKind"},
  }};
  model::Trace& trace = context.trace;
  return ForEachRow(context, kMemcpyTable, kColumns, [&](const Statement& row) {
    GpuActivity copy = ReadCommon(row, ActivityKind::kMemcpy);
    if (!ReadSpan(
            row, kStart, kEnd, kMemcpySpan, trace.diagnostics, &copy.start_ns, &copy.end_ns)) {
      return;
    }
    copy.bytes = ReadBytes(row, kBytes);
    copy.copy_kind = ToCopyKind(row.IntOr(kCopyKind, 0));
    copy.src_kind = ToMemoryKind(row.Int(kSrcKind));
    copy.dst_kind = ToMemoryKind(row.Int(kDstKind));
    trace.activities.push_back(copy);
  });
}

Status ReadMemsets(ReadContext& context) {
  enum Column { kBytes = kCommon, kMemKind };
  static constexpr std::array<ColumnSpec, 9> kColumns = {{
      {"start", true},
      {"end", true},
      {"deviceId"},
      {"contextId"},
      {"streamId"},
      {"correlationId"},
      {"globalPid"},
      {"bytes"},
      {"memKind"},
  }};
  model::Trace& trace = context.trace;
  return ForEachRow(context, kMemsetTable, kColumns, [&](const Statement& row) {
    GpuActivity memset = ReadCommon(row, ActivityKind::kMemset);
    if (!ReadSpan(
            row, kStart, kEnd, kMemsetSpan, trace.diagnostics, &memset.start_ns, &memset.end_ns)) {
      return;
    }
    memset.bytes = ReadBytes(row, kBytes);
    memset.src_kind = ToMemoryKind(row.Int(kMemKind));  // the model keeps memKind in src_kind
    trace.activities.push_back(memset);
  });
}

}  // namespace gpuperf::io::nsys
