// Host-side tables: CUDA runtime/driver calls, synchronization results and NVTX ranges.
#include <array>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "io/nsys/nsys_readers.h"

namespace gpuperf::io::nsys {
namespace {

// NVTX_EVENTS.eventType values (ENUM_NSYS_EVENT_TYPE).
constexpr std::int64_t kNvtxMark = 34;
constexpr std::int64_t kNvtxPushPopRange = 59;
constexpr std::int64_t kNvtxStartEndRange = 60;
constexpr std::int64_t kNvtxDomainCreate = 75;

// Driver API functions are cuXxx (cuLaunchKernel); runtime ones are cudaXxx.
bool IsDriverCall(const std::string* name) {
  if (name == nullptr)
    return false;
  std::string_view view(*name);
  return view.substr(0, 2) == "cu" && view.substr(0, 4) != "cuda";
}

model::SyncKind ToSyncKind(std::optional<std::int64_t> value, model::Diagnostics& diagnostics) {
  if (value && *value >= 1 && *value <= 4)
    return static_cast<model::SyncKind>(*value);
  if (!value || *value != 0)
    diagnostics.Count(model::Diagnostic::kNsysSyncUnknownType);
  return model::SyncKind::kUnknown;
}

}  // namespace

Status ReadRuntimeCalls(ReadContext& context) {
  enum Column { kStart, kEnd, kGlobalTid, kCorrelation, kNameId };
  static constexpr std::array<ColumnSpec, 5> kColumns = {{
      {"start", true},
      {"end", true},
      {"globalTid"},
      {"correlationId"},
      {"nameId"},
  }};
  model::Trace& trace = context.trace;
  return ForEachRow(context, kRuntimeTable, kColumns, [&](const Statement& row) {
    model::ApiCall call;
    if (!ReadSpan(
            row, kStart, kEnd, kRuntimeSpan, trace.diagnostics, &call.start_ns, &call.end_ns)) {
      return;
    }
    // The name stays as recorded ("cudaMemcpy_v3020"); the analysis strips the suffix.
    if (auto name_id = row.Int(kNameId)) {
      call.name = context.strings.Resolve(*name_id, trace);
      if (IsDriverCall(context.strings.Find(*name_id)))
        call.kind = model::ApiKind::kDriver;
    } else {
      trace.diagnostics.Count(model::Diagnostic::kNsysRuntimeNullName);
    }
    if (auto global_tid = row.Int(kGlobalTid)) {
      call.pid = DecodePid(*global_tid);
      call.tid = DecodeTid(*global_tid);
    }
    call.correlation = row.IntOr(kCorrelation, model::kNoId);
    trace.api_calls.push_back(call);
  });
}

Status ReadSyncs(ReadContext& context) {
  enum Column { kStart, kEnd, kDevice, kStream, kCorrelation, kGlobalPid, kSyncType };
  static constexpr std::array<ColumnSpec, 7> kColumns = {{
      {"start", true},
      {"end", true},
      {"deviceId"},
      {"streamId"},
      {"correlationId"},
      {"globalPid"},
      {"syncType"},
  }};
  model::Trace& trace = context.trace;
  return ForEachRow(context, kSyncTable, kColumns, [&](const Statement& row) {
    model::SyncEvent sync;
    if (!ReadSpan(row, kStart, kEnd, kSyncSpan, trace.diagnostics, &sync.start_ns, &sync.end_ns)) {
      return;
    }
    sync.kind = ToSyncKind(row.Int(kSyncType), trace.diagnostics);
    if (auto device = row.Int(kDevice))
      sync.device = SaturateInt32(*device);
    sync.stream = row.IntOr(kStream, model::kNoId);
    sync.correlation = row.IntOr(kCorrelation, model::kNoId);
    if (auto global_pid = row.Int(kGlobalPid))
      sync.pid = DecodePid(*global_pid);
    trace.syncs.push_back(sync);
  });
}

Status ReadNvtxRanges(ReadContext& context) {
  enum Column { kStart, kEnd, kEventType, kText, kTextId, kDomainId, kGlobalTid };
  static constexpr std::array<ColumnSpec, 7> kColumns = {{
      {"start", true},
      {"end"},
      {"eventType", true},
      {"text"},
      {"textId"},
      {"domainId"},
      {"globalTid"},
  }};
  model::Trace& trace = context.trace;
  // Domain names come from DomainCreate rows, which may follow the ranges that use them, so
  // ranges of named domains are fixed up after the scan.
  std::unordered_map<std::int64_t, model::NameId> domain_names;
  std::vector<std::pair<std::size_t, std::int64_t>> pending_domains;
  auto read_text = [&](const Statement& row) -> std::optional<model::NameId> {
    if (auto text = row.Text(kText))
      return trace.strings.Intern(*text);
    if (auto text_id = row.Int(kTextId))
      return context.strings.Resolve(*text_id, trace);
    return std::nullopt;
  };
  Status status = ForEachRow(context, kNvtxTable, kColumns, [&](const Statement& row) {
    std::int64_t type = row.IntOr(kEventType, -1);
    if (type == kNvtxDomainCreate) {
      auto name = read_text(row);
      if (name)
        domain_names[row.IntOr(kDomainId, 0)] = *name;
      return;
    }
    if (type != kNvtxPushPopRange && type != kNvtxStartEndRange) {
      trace.diagnostics.Count(type == kNvtxMark ? model::Diagnostic::kNsysNvtxMarkerSkipped
                                                : model::Diagnostic::kNsysNvtxOtherEventSkipped);
      return;
    }
    if (row.IsNull(kEnd)) {
      trace.diagnostics.Count(model::Diagnostic::kNsysNvtxUnterminatedRange);
      return;
    }
    model::Range range;
    if (!ReadSpan(
            row, kStart, kEnd, kNvtxSpan, trace.diagnostics, &range.start_ns, &range.end_ns)) {
      return;
    }
    range.name = read_text(row).value_or(0);
    if (auto global_tid = row.Int(kGlobalTid)) {
      range.pid = DecodePid(*global_tid);
      range.tid = DecodeTid(*global_tid);
    }
    std::int64_t domain = row.IntOr(kDomainId, 0);
    if (domain != 0)
      pending_domains.emplace_back(trace.ranges.size(), domain);
    trace.ranges.push_back(range);
  });
  if (!status.ok())
    return status;
  for (const auto& [index, domain] : pending_domains) {
    auto it = domain_names.find(domain);
    if (it != domain_names.end()) {
      trace.ranges[index].domain = it->second;
    } else {
      trace.diagnostics.Count(model::Diagnostic::kNsysNvtxUnknownDomain);
    }
  }
  return Status::Ok();
}

}  // namespace gpuperf::io::nsys
