#include "io/spool/spool_model.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <unordered_map>

#include "model/measured_ceilings.h"

namespace gpuperf::io {
namespace {

using spool::Event;
using spool::EventKind;

std::string_view CopyKindText(std::uint8_t kind) {
  static constexpr const char* kNames[] = {
      "Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA", "DtoD", "HtoH", "PtoP"};
  return kind < std::size(kNames) ? kNames[kind] : "Unknown";
}

// Spool memory kinds are CUPTI's CUpti_ActivityMemoryKind (0 unknown, 1 pageable, 2 pinned,
// 3 device, ...); the model uses nsys' numbering (0 pageable, ..., 7 unknown).
std::string_view MemoryKindText(std::uint8_t cupti_kind) {
  static constexpr const char* kNames[] = {"Unknown",
                                           "Pageable",
                                           "Pinned",
                                           "Device",
                                           "Array",
                                           "Managed",
                                           "Device Static",
                                           "Managed Static"};
  return cupti_kind < std::size(kNames) ? kNames[cupti_kind] : "Unknown";
}

model::MemoryKind ToMemoryKind(std::uint8_t cupti_kind) {
  return cupti_kind >= 1 && cupti_kind <= 7 ? static_cast<model::MemoryKind>(cupti_kind - 1)
                                            : model::MemoryKind::kUnknown;
}

// Context id -> device, learned from the records that carry both (syncs carry only a context).
std::unordered_map<std::int64_t, std::int32_t> ContextDevices(const SpoolContents& process) {
  std::unordered_map<std::int64_t, std::int32_t> devices;
  for (const Event& e : process.events) {
    if (e.context >= 0 && e.device >= 0)
      devices.emplace(e.context, e.device);
  }
  return devices;
}

void AddGpuActivity(const SpoolContents& p, const Event& e, model::Trace& trace) {
  model::GpuActivity a;
  a.device = e.device;
  a.start_ns = e.start_ns;
  a.end_ns = e.end_ns;
  a.stream = e.stream;
  a.context = e.context;
  a.pid = p.header.pid;
  a.graph_id = e.graph_id;
  a.bytes = e.bytes;
  if (e.kind == EventKind::kKernel) {
    a.kind = model::ActivityKind::kKernel;
    a.name = trace.strings.Intern(spool::Demangle(p.String(e.name)));
    a.correlation = e.correlation;
    a.grid = {e.grid[0], e.grid[1], e.grid[2]};
    a.block = {e.block[0], e.block[1], e.block[2]};
    a.registers_per_thread = e.registers;
    a.shared_memory_bytes = e.shared_bytes;
    if (e.graph_id >= 0)  // a graph node: correlation2 is its node id
      trace.graph_node_ids.Add(trace.activities.size(), static_cast<std::uint64_t>(e.correlation2));
  } else if (e.kind == EventKind::kMemcpy) {
    a.kind = model::ActivityKind::kMemcpy;
    a.copy_kind = e.a <= 10 ? static_cast<model::CopyKind>(e.a) : model::CopyKind::kUnknown;
    a.src_kind = ToMemoryKind(e.b);
    a.dst_kind = ToMemoryKind(e.c);
    a.name = trace.strings.Intern(MemcpyName(e.a, e.b, e.c));
    a.correlation = MemcpyCorrelation(e);
  } else {
    a.kind = model::ActivityKind::kMemset;
    a.src_kind = ToMemoryKind(e.b);
    a.name = trace.strings.Intern(MemsetName(e.b));
    a.correlation = e.correlation;
  }
  trace.activities.push_back(a);
}

// An allocation or release, with the device's total after it in this process (what Kineto's
// "Total Allocated" holds) and its address beside the record.
void AddMemoryEvent(const SpoolContents& p,
                    const Event& e,
                    std::unordered_map<std::int32_t, std::int64_t>& allocated,
                    model::Trace& trace) {
  const bool release = e.a == spool::kMemoryRelease;
  const std::int64_t total = allocated[e.device] += release ? -e.bytes : e.bytes;
  trace.memory_addresses.Add(trace.memory_events.size(),
                             static_cast<std::uint64_t>(e.correlation2));
  trace.memory_events.push_back({release ? model::MemoryOp::kFree : model::MemoryOp::kAllocate,
                                 e.start_ns,
                                 e.device,
                                 e.bytes,
                                 total,
                                 p.header.pid});
}

void AddProcess(const SpoolContents& p, model::Trace& trace) {
  const auto context_devices = ContextDevices(p);
  std::unordered_map<std::int32_t, std::int64_t> allocated;  // per device
  for (const Event& e : p.events) {
    switch (e.kind) {
      case EventKind::kKernel:
      case EventKind::kMemcpy:
      case EventKind::kMemset:
        AddGpuActivity(p, e, trace);
        break;
      case EventKind::kRuntimeApi:
      case EventKind::kDriverApi:
        trace.api_calls.push_back(
            {e.kind == EventKind::kDriverApi ? model::ApiKind::kDriver : model::ApiKind::kRuntime,
             trace.strings.Intern(ApiName(p.String(e.name))),
             e.start_ns,
             e.end_ns,
             e.pid >= 0 ? e.pid : p.header.pid,
             e.tid,
             e.correlation,
             e.code});
        break;
      case EventKind::kSync: {
        const auto device = context_devices.find(e.context);
        trace.syncs.push_back(
            {e.a <= 4 ? static_cast<model::SyncKind>(e.a) : model::SyncKind::kUnknown,
             e.start_ns,
             e.end_ns,
             device != context_devices.end() ? device->second : -1,
             static_cast<std::int32_t>(e.context),
             e.stream,
             e.correlation,
             p.header.pid,
             -1});
        break;
      }
      case EventKind::kMemory:
        AddMemoryEvent(p, e, allocated, trace);
        break;
      case EventKind::kMarker:
        break;  // paired below
      case EventKind::kOverhead:
        trace.profiler_overheads.push_back(
            {trace.strings.Intern(p.String(e.name)), e.start_ns, e.end_ns, p.header.pid});
        break;
      case EventKind::kGraphLaunch:
        break;  // counted in RunFigures; the graph's kernels carry graph_id
    }
  }
  const NvtxRanges nvtx = PairNvtxRanges(p);
  for (const NvtxRange& range : nvtx.ranges) {
    const Event& s = *range.start;
    trace.ranges.push_back({model::RangeKind::kNvtx,
                            trace.strings.Intern(p.String(s.name)),
                            trace.strings.Intern(p.String(s.domain)),
                            s.start_ns,
                            range.end->start_ns,
                            s.pid >= 0 ? s.pid : p.header.pid,
                            s.tid,
                            model::kNoId,
                            model::kNoId});
  }
  if (nvtx.ends_without_start > 0)
    trace.diagnostics.Count(model::Diagnostic::kNvtxRangeEndWithoutStart, nvtx.ends_without_start);
  if (nvtx.starts_without_end > 0)
    trace.diagnostics.Count(model::Diagnostic::kNvtxRangeStartWithoutEnd, nvtx.starts_without_end);
}

// The versions under the keys the Kineto importer uses for the same header fields.
void SetVersions(const SpoolContents& p, model::TraceMetadata& metadata) {
  if (p.header.cupti_version > 0)
    metadata.properties["cupti_version"] = std::to_string(p.header.cupti_version);
  if (p.has_footer && p.footer.cuda_runtime_version > 0)
    metadata.properties["cuda_runtime_version"] = std::to_string(p.footer.cuda_runtime_version);
}

}  // namespace

NvtxRanges PairNvtxRanges(const SpoolContents& p) {
  std::unordered_map<std::int64_t, const Event*> starts;  // NVTX range id -> START marker
  for (const Event& e : p.events) {
    if (e.kind == EventKind::kMarker && (e.a & spool::kMarkerStart) != 0)
      starts[e.correlation2] = &e;
  }
  NvtxRanges out;
  for (const Event& e : p.events) {
    if (e.kind != EventKind::kMarker || (e.a & spool::kMarkerEnd) == 0)
      continue;
    const auto start = starts.find(e.correlation2);
    if (start == starts.end()) {
      ++out.ends_without_start;
      continue;
    }
    out.ranges.push_back({start->second, &e});
    starts.erase(start);
  }
  out.starts_without_end = static_cast<std::int64_t>(starts.size());
  return out;
}

std::string MemcpyName(std::uint8_t copy_kind, std::uint8_t src_kind, std::uint8_t dst_kind) {
  return "Memcpy " + std::string(CopyKindText(copy_kind)) + " (" +
         std::string(MemoryKindText(src_kind)) + " -> " + std::string(MemoryKindText(dst_kind)) +
         ")";
}

std::string MemsetName(std::uint8_t memory_kind) {
  return "Memset (" + std::string(MemoryKindText(memory_kind)) + ")";
}

std::string_view ApiName(std::string_view cupti_name) {
  const auto v = cupti_name.rfind("_v");
  if (v != std::string_view::npos && v + 2 < cupti_name.size() &&
      cupti_name.find_first_not_of("0123456789", v + 2) == std::string_view::npos) {
    return cupti_name.substr(0, v);
  }
  return cupti_name;
}

model::Trace SpoolsToTrace(const std::vector<SpoolContents>& processes) {
  model::Trace trace;
  trace.metadata.format = "gpuperf-recording";
  trace.metadata.format_version = std::to_string(spool::kVersion);
  trace.metadata.producer = "gpuperf baseline";
  bool complete = true;
  std::uint64_t dropped_records = 0;
  for (const SpoolContents& p : processes) {
    trace.processes.push_back({p.header.pid, "", p.header.host});
    if (p.header.rank >= 0)
      trace.metadata.rank = p.header.rank;
    SetVersions(p, trace.metadata);
    complete &= p.has_footer && p.truncated_bytes == 0;
    dropped_records += p.has_footer ? p.footer.dropped_records : 0;
    for (const spool::DeviceInfo& d : p.devices) {
      if (trace.FindDevice(d.id) != nullptr)
        continue;
      model::Device device;
      device.id = d.id;
      device.name = d.name;
      device.compute_major = d.compute_major;
      device.compute_minor = d.compute_minor;
      device.sm_count = d.sm_count;
      device.memory_bytes = d.memory_bytes;
      device.l2_bytes = d.l2_bytes;
      device.peak_bandwidth_bytes_per_s = static_cast<double>(d.bandwidth_bytes_per_s);
      device.sm_clock_hz = static_cast<double>(d.core_clock_khz) * 1e3;
      device.max_threads_per_sm = d.max_threads_per_sm;
      device.max_threads_per_block = d.max_threads_per_block;
      device.registers_per_sm = d.registers_per_sm;
      device.shared_memory_per_sm = d.shared_memory_per_sm;
      device.warp_size = d.warp_size;
      if (std::any_of(std::begin(d.uuid), std::end(d.uuid), [](std::uint8_t b) { return b != 0; }))
        device.uuid = model::FormatGpuUuid(d.uuid);  // all zero: CUPTI did not say
      trace.devices.push_back(device);
    }
    AddProcess(p, trace);
  }
  trace.metadata.properties[std::string(model::kRecordingCompleteProperty)] =
      complete ? "true" : "false";
  trace.metadata.properties[std::string(model::kDroppedRecordsProperty)] =
      std::to_string(dropped_records);
  return trace;
}

}  // namespace gpuperf::io
