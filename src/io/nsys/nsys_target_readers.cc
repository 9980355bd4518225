// Facts about the recording: export metadata, session start, GPUs, processes, memory usage.
#include <algorithm>
#include <array>
#include <set>
#include <string>

#include "io/nsys/nsys_readers.h"
#include "model/measured_ceilings.h"

namespace gpuperf::io::nsys {
namespace {

// Epoch ns beyond ~2096 would overflow start + time base downstream; treat as unknown.
constexpr std::int64_t kMaxEpochNs = 4'000'000'000'000'000'000;

Status ReadSessionStart(ReadContext& context) {
  static constexpr std::array<ColumnSpec, 1> kColumns = {{{"utcEpochNs"}}};
  model::TraceMetadata& metadata = context.trace.metadata;
  bool first = true;
  return ForEachRow(context, kSessionStartTable, kColumns, [&](const Statement& row) {
    if (!first)
      return;
    first = false;
    auto epoch_ns = row.Int(0);
    if (epoch_ns && *epoch_ns >= 0 && *epoch_ns < kMaxEpochNs) {
      metadata.time_base_ns = *epoch_ns;
    } else {
      context.trace.diagnostics.Count(model::Diagnostic::kNsysSessionStartInvalid);
    }
  });
}

}  // namespace

Status ReadMetadata(ReadContext& context) {
  model::TraceMetadata& metadata = context.trace.metadata;
  const std::string& table = context.schema.metadata_table();
  if (!table.empty()) {
    static constexpr std::array<ColumnSpec, 2> kColumns = {{{"name", true}, {"value"}}};
    // Both generations use (name, value) rows with the same keys (docs/formats.md,
    // "Nsight Systems export", "Differences between versions").
    Status status = ForEachRow(context, table.c_str(), kColumns, [&](const Statement& row) {
      auto name = row.Text(0);
      auto value = row.Text(1);
      if (!name || !value)
        return;
      if (*name == "EXPORT_PRODUCT_VERSION") {
        metadata.producer = "nsys " + std::string(*value);
        metadata.properties["nsys.product_version"] = std::string(*value);
      } else if (*name == "EXPORT_SCHEMA_VERSION") {
        metadata.format_version = std::string(*value);
        metadata.properties["nsys.schema_version"] = std::string(*value);
      }
    });
    if (!status.ok())
      return status;
    metadata.properties["nsys.metadata_table"] = table;
  }
  return ReadSessionStart(context);
}

Status ReadDevices(ReadContext& context) {
  enum Column {
    kId,
    kName,
    kMajor,
    kMinor,
    kSmCount,
    kMemory,
    kL2,
    kBandwidth,
    kClock,
    kWarpsPerSm,
    kWarpSize,
    kThreadsPerBlock,
    kRegistersPerSm,
    kShmemPerSm,
    kUuid
  };
  static constexpr std::array<ColumnSpec, 15> kColumns = {{
      {"id", true},
      {"name"},
      {"computeMajor"},
      {"computeMinor"},
      {"smCount"},
      {"totalMemory"},
      {"l2CacheSize"},
      {"memoryBandwidth"},
      {"clockRate"},
      {"maxWarpsPerSm"},
      {"threadsPerWarp"},
      {"maxThreadsPerBlock"},
      {"maxRegistersPerSm"},
      {"maxShmemPerSm"},
      {"uuid"},  // "9f8075aa-e02a-...", without nvidia-smi's "GPU-"
  }};
  model::Trace& trace = context.trace;
  std::set<std::int32_t> seen;
  Status status = ForEachRow(context, kGpuTable, kColumns, [&](const Statement& row) {
    auto id = row.Int(kId);
    if (!id) {
      trace.diagnostics.Count(model::Diagnostic::kNsysGpuNullId);
      return;
    }
    model::Device device;
    device.id = SaturateInt32(*id);
    // Several VMs of one export could list the same id; the first row wins.
    if (!seen.insert(device.id).second) {
      trace.diagnostics.Count(model::Diagnostic::kNsysGpuDuplicateId);
      return;
    }
    device.name = std::string(row.Text(kName).value_or(""));
    device.compute_major = SaturateInt32(row.IntOr(kMajor, 0));
    device.compute_minor = SaturateInt32(row.IntOr(kMinor, 0));
    device.sm_count = SaturateInt32(row.IntOr(kSmCount, 0));
    device.memory_bytes = std::max<std::int64_t>(0, row.IntOr(kMemory, 0));
    device.l2_bytes = std::max<std::int64_t>(0, row.IntOr(kL2, 0));
    // memoryBandwidth is B/s although the schema comment says "(B)" (docs/formats.md,
    // "Nsight Systems export", "Tables and columns").
    device.peak_bandwidth_bytes_per_s = std::max(0.0, row.Real(kBandwidth).value_or(0));
    device.sm_clock_hz = std::max(0.0, row.Real(kClock).value_or(0));
    device.warp_size = SaturateInt32(row.IntOr(kWarpSize, 0));
    // Both factors are saturated to int32, so the product fits in int64.
    device.max_threads_per_sm =
        SaturateInt32(std::int64_t{SaturateInt32(row.IntOr(kWarpsPerSm, 0))} * device.warp_size);
    device.max_threads_per_block = SaturateInt32(row.IntOr(kThreadsPerBlock, 0));
    device.registers_per_sm = SaturateInt32(row.IntOr(kRegistersPerSm, 0));
    device.shared_memory_per_sm = row.IntOr(kShmemPerSm, 0);
    device.uuid = model::NormalizeGpuUuid(row.Text(kUuid).value_or(""));
    trace.devices.push_back(std::move(device));
  });
  // nsys lists GPUs in enumeration order (cloverleaf: ids 0, 3, 2, 1); reports want id order.
  std::sort(trace.devices.begin(),
            trace.devices.end(),
            [](const model::Device& a, const model::Device& b) { return a.id < b.id; });
  return status;
}

Status ReadProcesses(ReadContext& context) {
  static constexpr std::array<ColumnSpec, 3> kColumns = {{{"globalPid"}, {"pid"}, {"name"}}};
  model::Trace& trace = context.trace;
  return ForEachRow(context, kProcessTable, kColumns, [&](const Statement& row) {
    model::Process process;
    if (auto pid = row.Int(1)) {
      process.pid = *pid;
    } else if (auto global_pid = row.Int(0)) {
      process.pid = DecodePid(*global_pid);
    } else {
      trace.diagnostics.Count(model::Diagnostic::kNsysProcessNullPid);
      return;
    }
    process.name = std::string(row.Text(2).value_or(""));
    trace.processes.push_back(std::move(process));
  });
}

Status ReadMemoryEvents(ReadContext& context) {
  enum Column { kStart, kGlobalPid, kDevice, kBytes, kOperation };
  static constexpr std::array<ColumnSpec, 5> kColumns = {{
      {"start", true},
      {"globalPid"},
      {"deviceId"},
      {"bytes"},
      {"memoryOperationType"},
  }};
  model::Trace& trace = context.trace;
  return ForEachRow(context, kMemoryUsageTable, kColumns, [&](const Statement& row) {
    auto start = row.Int(kStart);
    auto bytes = row.Int(kBytes);
    auto operation = row.Int(kOperation);  // 0 allocation, 1 deallocation
    if (!start || *start < 0 || !bytes || *bytes < 0 || !operation || *operation < 0 ||
        *operation > 1) {
      trace.diagnostics.Count(model::Diagnostic::kNsysMemoryEventMalformed);
      return;
    }
    model::MemoryEvent event;
    event.op = *operation == 0 ? model::MemoryOp::kAllocate : model::MemoryOp::kFree;
    event.time_ns = *start;
    event.bytes = *bytes;
    if (auto device = row.Int(kDevice))
      event.device = SaturateInt32(*device);
    if (auto global_pid = row.Int(kGlobalPid))
      event.pid = DecodePid(*global_pid);
    trace.memory_events.push_back(event);
  });
}

}  // namespace gpuperf::io::nsys
