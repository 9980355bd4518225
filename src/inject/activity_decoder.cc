#include "inject/activity_decoder.h"

#include <cstdlib>
#include <cstring>

namespace gpuperf::inject {
namespace {

// CUPTI records are packed: every field is copied into a local or the event by value (binding
// a reference to a packed field is ill-formed), never passed on by reference.
void DecodeKernel(const CUpti_ActivityKernel10& k, StringInterner& strings, Batch& batch) {
  spool::Event e;
  e.kind = spool::EventKind::kKernel;
  e.device = static_cast<std::int32_t>(k.deviceId);
  const char* name = k.name;
  e.name = strings.Intern(name != nullptr ? name : "<unnamed kernel>", batch);
  e.start_ns = static_cast<std::int64_t>(k.start);
  e.end_ns = static_cast<std::int64_t>(k.end);
  e.correlation = k.correlationId;
  e.stream = k.streamId;
  e.context = k.contextId;
  e.graph_id = k.graphId == 0 ? -1 : static_cast<std::int64_t>(k.graphId);
  e.correlation2 = static_cast<std::int64_t>(k.graphNodeId);
  e.grid[0] = k.gridX, e.grid[1] = k.gridY, e.grid[2] = k.gridZ;
  e.block[0] = k.blockX, e.block[1] = k.blockY, e.block[2] = k.blockZ;
  e.registers = k.registersPerThread;
  e.shared_bytes = k.staticSharedMemory + k.dynamicSharedMemory;
  e.a = k.launchType;
  e.b = k.isDeviceLaunched;
  batch.events.push_back(e);
}

void DecodeMemcpy(const CUpti_ActivityMemcpy6& m, Batch& batch) {
  spool::Event e;
  e.kind = spool::EventKind::kMemcpy;
  e.a = m.copyKind, e.b = m.srcKind, e.c = m.dstKind;
  e.device = static_cast<std::int32_t>(m.deviceId);
  e.start_ns = static_cast<std::int64_t>(m.start);
  e.end_ns = static_cast<std::int64_t>(m.end);
  e.correlation = m.correlationId;
  e.correlation2 = m.runtimeCorrelationId;
  e.stream = m.streamId;
  e.context = m.contextId;
  e.bytes = static_cast<std::int64_t>(m.bytes);
  e.graph_id = m.graphId == 0 ? -1 : static_cast<std::int64_t>(m.graphId);
  e.code = m.flags;  // CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC
  batch.events.push_back(e);
}

void DecodeMemset(const CUpti_ActivityMemset4& m, Batch& batch) {
  spool::Event e;
  e.kind = spool::EventKind::kMemset;
  e.b = static_cast<std::uint8_t>(m.memoryKind);
  e.device = static_cast<std::int32_t>(m.deviceId);
  e.start_ns = static_cast<std::int64_t>(m.start);
  e.end_ns = static_cast<std::int64_t>(m.end);
  e.correlation = m.correlationId;
  e.stream = m.streamId;
  e.context = m.contextId;
  e.bytes = static_cast<std::int64_t>(m.bytes);
  e.graph_id = m.graphId == 0 ? -1 : static_cast<std::int64_t>(m.graphId);
  batch.events.push_back(e);
}

void DecodeApi(const CUpti_ActivityAPI& api, bool driver, StringInterner& strings, Batch& batch) {
  spool::Event e;
  e.kind = driver ? spool::EventKind::kDriverApi : spool::EventKind::kRuntimeApi;
  e.code = static_cast<std::int32_t>(api.cbid);
  e.name = strings.ApiName(driver, api.cbid, batch);
  e.start_ns = static_cast<std::int64_t>(api.start);
  e.end_ns = static_cast<std::int64_t>(api.end);
  e.pid = api.processId;
  e.tid = api.threadId;
  e.correlation = api.correlationId;
  e.result = static_cast<std::int32_t>(api.returnValue);
  batch.events.push_back(e);
}

void DecodeSync(const CUpti_ActivitySynchronization2& s, Batch& batch) {
  spool::Event e;
  e.kind = spool::EventKind::kSync;
  e.a = static_cast<std::uint8_t>(s.type);
  e.start_ns = static_cast<std::int64_t>(s.start);
  e.end_ns = static_cast<std::int64_t>(s.end);
  e.correlation = s.correlationId;
  e.context = s.contextId;
  // CUPTI writes 0xFFFFFFFF for "no stream" (context and event syncs).
  e.stream = s.streamId == 0xFFFFFFFFu ? -1 : static_cast<std::int64_t>(s.streamId);
  e.result = static_cast<std::int32_t>(s.returnValue);
  batch.events.push_back(e);
}

void DecodeMemory(const CUpti_ActivityMemory4& m, StringInterner& strings, Batch& batch) {
  spool::Event e;
  e.kind = spool::EventKind::kMemory;
  e.a = m.memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE
            ? spool::kMemoryRelease
            : spool::kMemoryAllocate;
  e.b = static_cast<std::uint8_t>(m.memoryKind);
  // Host memory (pinned, pageable) is not device memory: device -1, as Kineto writes it.
  const bool host = m.memoryKind == CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE ||
                    m.memoryKind == CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
  e.device = host ? -1 : static_cast<std::int32_t>(m.deviceId);
  e.start_ns = e.end_ns = static_cast<std::int64_t>(m.timestamp);
  e.correlation = m.correlationId;
  e.correlation2 = static_cast<std::int64_t>(m.address);
  e.bytes = static_cast<std::int64_t>(m.bytes);
  e.pid = m.processId;
  // CUPTI_INVALID_STREAM_ID / CUPTI_INVALID_CONTEXT_ID (0xFFFFFFFF) for synchronous allocations.
  const std::uint32_t stream = m.streamId, context = m.contextId;
  e.stream = stream == 0xFFFFFFFFu ? -1 : static_cast<std::int64_t>(stream);
  e.context = context == 0xFFFFFFFFu ? -1 : static_cast<std::int64_t>(context);
  const char* name = m.name;
  if (name != nullptr)
    e.name = strings.Intern(name, batch);
  batch.events.push_back(e);
}

void DecodeMarker(const CUpti_ActivityMarker2& m, StringInterner& strings, Batch& batch) {
  spool::Event e;
  e.kind = spool::EventKind::kMarker;
  e.a = static_cast<std::uint8_t>(m.flags & 0x7);
  e.start_ns = e.end_ns = static_cast<std::int64_t>(m.timestamp);
  e.correlation2 = m.id;
  if (m.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ||
      m.objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS) {
    e.pid = m.objectId.pt.processId;
    e.tid = m.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ? m.objectId.pt.threadId : -1;
  }
  const char* name = m.name;
  const char* domain = m.domain;
  if (name != nullptr)
    e.name = strings.Intern(name, batch);
  if (domain != nullptr)
    e.domain = strings.Intern(domain, batch);
  batch.events.push_back(e);
}

void DecodeGraph(const CUpti_ActivityGraphTrace2& g, Batch& batch) {
  spool::Event e;
  e.kind = spool::EventKind::kGraphLaunch;
  e.device = static_cast<std::int32_t>(g.deviceId);
  e.start_ns = static_cast<std::int64_t>(g.start);
  e.end_ns = static_cast<std::int64_t>(g.end);
  e.correlation = g.correlationId;
  e.graph_id = g.graphId;
  e.stream = g.streamId;
  e.context = g.contextId;
  batch.events.push_back(e);
}

void DecodeOverhead(const CUpti_ActivityOverhead3& o, StringInterner& strings, Batch& batch) {
  spool::Event e;
  e.kind = spool::EventKind::kOverhead;
  e.code = static_cast<std::int32_t>(o.overheadKind);
  e.name = strings.Intern(OverheadName(o.overheadKind), batch);
  e.start_ns = static_cast<std::int64_t>(o.start);
  e.end_ns = static_cast<std::int64_t>(o.end);
  e.correlation = o.correlationId;
  if (o.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ||
      o.objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS) {
    e.pid = o.objectId.pt.processId;
    e.tid = o.objectId.pt.threadId;
  }
  batch.events.push_back(e);
}

void DecodeDevice(const CUpti_ActivityDevice5& d, Batch& batch) {
  spool::DeviceInfo info;
  info.id = static_cast<std::int32_t>(d.id);
  info.compute_major = static_cast<std::int32_t>(d.computeCapabilityMajor);
  info.compute_minor = static_cast<std::int32_t>(d.computeCapabilityMinor);
  info.sm_count = static_cast<std::int32_t>(d.numMultiprocessors);
  info.memory_bytes = static_cast<std::int64_t>(d.globalMemorySize);
  info.l2_bytes = d.l2CacheSize;
  info.bandwidth_bytes_per_s = static_cast<std::int64_t>(d.globalMemoryBandwidth) * 1000;  // KB/s
  info.core_clock_khz = d.coreClockRate;
  info.max_threads_per_block = static_cast<std::int32_t>(d.maxThreadsPerBlock);
  info.max_threads_per_sm =
      static_cast<std::int32_t>(d.maxWarpsPerMultiprocessor * d.numThreadsPerWarp);
  info.registers_per_sm = static_cast<std::int32_t>(d.maxRegistersPerMultiprocessor);
  info.shared_memory_per_sm = static_cast<std::int32_t>(d.maxSharedMemoryPerMultiprocessor);
  info.warp_size = static_cast<std::int32_t>(d.numThreadsPerWarp);
  const CUuuid uuid = d.uuid;
  std::memcpy(info.uuid, uuid.bytes, sizeof(info.uuid));
  const char* name = d.name;
  if (name != nullptr)
    std::strncpy(info.name, name, sizeof(info.name) - 1);
  batch.devices.push_back(info);
}

// Frees what CUPTI hands over with a record, once per walked record whether it is kept or not.
// cupti_activity.h, CUpti_ActivityOverhead3::overheadData: "Client is responsible for freeing
// this memory using the free function".
void ReleaseOwnedMemory(const CUpti_Activity* record) {
  if (record->kind == CUPTI_ACTIVITY_KIND_OVERHEAD) {
    void* details = reinterpret_cast<const CUpti_ActivityOverhead3*>(record)->overheadData;
    std::free(details);
  }
}

// A GPU record's start and end, copied out of the packed record.
template <typename Record>
bool Timed(const CUpti_Activity* record) {
  const auto& r = *reinterpret_cast<const Record*>(record);
  const std::uint64_t start = r.start, end = r.end;
  return start != 0 && end >= start;
}

// False for a kernel, copy or memset record that CUPTI could not time.
bool HasTimestamps(const CUpti_Activity* record) {
  switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_KERNEL:
      return Timed<CUpti_ActivityKernel10>(record);
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      return Timed<CUpti_ActivityMemcpy6>(record);
    case CUPTI_ACTIVITY_KIND_MEMSET:
      return Timed<CUpti_ActivityMemset4>(record);
    case CUPTI_ACTIVITY_KIND_GRAPH_TRACE:
      return Timed<CUpti_ActivityGraphTrace2>(record);
    default:
      return true;
  }
}

// One record into the batch; false when its kind is not one we keep.
bool DecodeRecord(const CUpti_Activity* record, StringInterner& strings, Batch& batch) {
  switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_KERNEL:
      DecodeKernel(*reinterpret_cast<const CUpti_ActivityKernel10*>(record), strings, batch);
      return true;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      DecodeMemcpy(*reinterpret_cast<const CUpti_ActivityMemcpy6*>(record), batch);
      return true;
    case CUPTI_ACTIVITY_KIND_MEMSET:
      DecodeMemset(*reinterpret_cast<const CUpti_ActivityMemset4*>(record), batch);
      return true;
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
    case CUPTI_ACTIVITY_KIND_INTERNAL_LAUNCH_API:
      DecodeApi(*reinterpret_cast<const CUpti_ActivityAPI*>(record),
                record->kind != CUPTI_ACTIVITY_KIND_RUNTIME,
                strings,
                batch);
      return true;
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
      DecodeSync(*reinterpret_cast<const CUpti_ActivitySynchronization2*>(record), batch);
      return true;
    case CUPTI_ACTIVITY_KIND_MEMORY2:
      DecodeMemory(*reinterpret_cast<const CUpti_ActivityMemory4*>(record), strings, batch);
      return true;
    case CUPTI_ACTIVITY_KIND_MARKER:
      DecodeMarker(*reinterpret_cast<const CUpti_ActivityMarker2*>(record), strings, batch);
      return true;
    case CUPTI_ACTIVITY_KIND_GRAPH_TRACE:
      DecodeGraph(*reinterpret_cast<const CUpti_ActivityGraphTrace2*>(record), batch);
      return true;
    case CUPTI_ACTIVITY_KIND_OVERHEAD:
      DecodeOverhead(*reinterpret_cast<const CUpti_ActivityOverhead3*>(record), strings, batch);
      return true;
    case CUPTI_ACTIVITY_KIND_DEVICE:
      DecodeDevice(*reinterpret_cast<const CUpti_ActivityDevice5*>(record), batch);
      return true;
    default:
      return false;
  }
}

}  // namespace

void Batch::Clear() {
  events.clear();
  strings.clear();
  devices.clear();
  statuses.clear();
}

std::uint32_t StringInterner::Intern(std::string_view text, Batch& fresh) {
  std::lock_guard lock(mutex_);
  const auto [it, inserted] = ids_.try_emplace(std::string(text), next_id_);
  if (inserted) {
    ++next_id_;
    fresh.strings.emplace_back(it->second, it->first);
  }
  return it->second;
}

std::uint32_t StringInterner::ApiName(bool driver, std::uint32_t cbid, Batch& fresh) {
  auto& cache = driver ? driver_names_ : runtime_names_;
  if (cbid < kMaxCbid) {
    const std::uint32_t cached = cache[cbid].load(std::memory_order_acquire);
    if (cached != 0)
      return cached;
  }
  const char* name = nullptr;
  const CUptiResult result = cuptiGetCallbackName(
      driver ? CUPTI_CB_DOMAIN_DRIVER_API : CUPTI_CB_DOMAIN_RUNTIME_API, cbid, &name);
  const std::string fallback =
      (driver ? "cuda_driver_cbid_" : "cuda_runtime_cbid_") + std::to_string(cbid);
  const std::uint32_t id =
      Intern(result == CUPTI_SUCCESS && name != nullptr ? std::string_view(name) : fallback, fresh);
  if (cbid < kMaxCbid)
    cache[cbid].store(id, std::memory_order_release);
  return id;
}

CUptiResult DecodeBuffer(std::uint8_t* buffer,
                         std::size_t valid_size,
                         StringInterner& strings,
                         Batch& batch,
                         DecodeStats& stats) noexcept {
  try {
    CUpti_Activity* record = nullptr;
    while (true) {
      const CUptiResult result = cuptiActivityGetNextRecord(buffer, valid_size, &record);
      if (result == CUPTI_ERROR_MAX_LIMIT_REACHED)
        return CUPTI_SUCCESS;
      if (result == CUPTI_ERROR_INVALID_KIND) {  // CUPTI's own example loop stops here too
        ++stats.incomplete;
        return CUPTI_SUCCESS;
      }
      if (result != CUPTI_SUCCESS)
        return result;
      ++stats.records;
      if (!HasTimestamps(record)) {
        ++stats.incomplete;
      } else if (DecodeRecord(record, strings, batch)) {
        ++stats.kept;
      } else {
        ++stats.unknown;
      }
      ReleaseOwnedMemory(record);
    }
  } catch (...) {
    // Allocation failure while growing the batch: keep what was decoded.
    return CUPTI_ERROR_OUT_OF_MEMORY;
  }
}

std::uint64_t CountRecords(std::uint8_t* buffer, std::size_t valid_size) noexcept {
  std::uint64_t count = 0;
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid_size, &record) == CUPTI_SUCCESS) {
    ++count;
    ReleaseOwnedMemory(record);
  }
  return count;
}

std::string_view OverheadName(std::uint32_t overhead_kind) {
  switch (overhead_kind) {
    case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER:
      return "Driver compiler";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH:
      return "CUPTI buffer flush";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION:
      return "CUPTI instrumentation";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE:
      return "CUPTI resource";
    case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING:
      return "Runtime module loading";
    case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING:
      return "Lazy function loading";
    case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL:
      return "Command buffer full";
    case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST:
      return "Activity buffer request";
    case CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT:
      return "UVM activity init";
    default:
      return "CUPTI overhead";
  }
}

}  // namespace gpuperf::inject
