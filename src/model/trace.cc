#include "gpuperf/trace.h"

#include <algorithm>

namespace gpuperf::model {

NameId StringTable::Intern(std::string_view text) {
  // Heterogeneous lookup needs C++20 transparent hashing on unordered_map; a temporary string is
  // cheap next to parsing, and the table only grows by distinct names.
  std::string key(text);
  auto it = index_.find(key);
  if (it != index_.end())
    return it->second;
  auto id = static_cast<NameId>(strings_.size());
  strings_.push_back(key);
  index_.emplace(std::move(key), id);
  return id;
}

const Device* Trace::FindDevice(std::int32_t id) const {
  for (const Device& device : devices) {
    if (device.id == id)
      return &device;
  }
  return nullptr;
}

std::optional<std::uint64_t> SparseColumn::Find(std::size_t record) const {
  auto it =
      std::lower_bound(entries_.begin(), entries_.end(), record, [](const Entry& e, std::size_t r) {
        return e.record < r;
      });
  if (it == entries_.end() || it->record != record)
    return std::nullopt;
  return it->value;
}

std::string_view ToString(CopyKind kind) {
  switch (kind) {
    case CopyKind::kHtoD:
      return "HtoD";
    case CopyKind::kDtoH:
      return "DtoH";
    case CopyKind::kHtoA:
      return "HtoA";
    case CopyKind::kAtoH:
      return "AtoH";
    case CopyKind::kAtoA:
      return "AtoA";
    case CopyKind::kAtoD:
      return "AtoD";
    case CopyKind::kDtoA:
      return "DtoA";
    case CopyKind::kDtoD:
      return "DtoD";
    case CopyKind::kHtoH:
      return "HtoH";
    case CopyKind::kPtoP:
      return "PtoP";
    case CopyKind::kUnknown:
      break;
  }
  return "Unknown";
}

std::string_view ToString(MemoryKind kind) {
  switch (kind) {
    case MemoryKind::kPageable:
      return "Pageable";
    case MemoryKind::kPinned:
      return "Pinned";
    case MemoryKind::kDevice:
      return "Device";
    case MemoryKind::kArray:
      return "Array";
    case MemoryKind::kManaged:
      return "Managed";
    case MemoryKind::kDeviceStatic:
      return "Device Static";
    case MemoryKind::kManagedStatic:
      return "Managed Static";
    case MemoryKind::kUnknown:
      break;
  }
  return "Unknown";
}

std::string_view ToString(SyncKind kind) {
  switch (kind) {
    case SyncKind::kEvent:
      return "event";
    case SyncKind::kStreamWaitEvent:
      return "stream_wait_event";
    case SyncKind::kStream:
      return "stream";
    case SyncKind::kContext:
      return "context";
    case SyncKind::kUnknown:
      break;
  }
  return "unknown";
}

std::string_view ToString(RangeKind kind) {
  switch (kind) {
    case RangeKind::kNvtx:
      return "nvtx";
    case RangeKind::kUserAnnotation:
      return "user_annotation";
    case RangeKind::kGpuUserAnnotation:
      return "gpu_user_annotation";
    case RangeKind::kProfilerStep:
      return "profiler_step";
  }
  return "unknown";
}

std::string_view ToString(ActivityKind kind) {
  switch (kind) {
    case ActivityKind::kKernel:
      return "kernel";
    case ActivityKind::kMemcpy:
      return "memcpy";
    case ActivityKind::kMemset:
      return "memset";
  }
  return "unknown";
}

}  // namespace gpuperf::model
