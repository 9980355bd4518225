// What a Kineto event is, decided by its "cat" (case-insensitive, old names mapped) and "ph";
// never by pid (pid 0 is both GPU 0 and python frames of unknown threads). Plus the facts that
// Kineto only writes into event names: copy and memory kinds, synchronization kinds.
#pragma once

#include "gpuperf/trace.h"

#include <cstdint>
#include <string_view>

namespace gpuperf::io::kineto {

enum class Category : std::uint8_t {
  kKernel,             // "kernel", 2021 "Kernel"
  kMemcpy,             // "gpu_memcpy", 2021 "Memcpy"
  kMemset,             // "gpu_memset", 2021 "Memset"
  kRuntime,            // "cuda_runtime", 2021 "Runtime" (AMD: hip* calls too)
  kDriver,             // "cuda_driver"
  kSync,               // "cuda_sync"
  kUserAnnotation,     // "user_annotation"
  kGpuUserAnnotation,  // "gpu_user_annotation"
  kCpuOp,              // "cpu_op", 2021 "Operator"
  kPythonFunction,     // "python_function": kept as PythonFrame
  kFlow,               // "ac2g", "fwdbwd", "async", "async_gpu", "async_cpu_to_gpu"
  kOverhead,           // "overhead"
  kTraceSpan,          // "Trace": the whole-capture span
  kCpuInstant,         // "cpu_instant_event" ([memory] instants)
  kProfilerRange,      // "cuda_profiler_range": CUPTI range profiler, one kernel + its counters
  kOther,              // anything else: counted as ignored
};

Category ClassifyCategory(std::string_view cat);
// A short stable name for diagnostics ("python_function", "flow", ...).
std::string_view CategoryName(Category category);

// "Memcpy HtoD (Pageable -> Device)" -> kHtoD, kPageable, kDevice. Unknown parts stay kUnknown.
struct CopyKinds {
  model::CopyKind copy = model::CopyKind::kUnknown;
  model::MemoryKind src = model::MemoryKind::kUnknown;
  model::MemoryKind dst = model::MemoryKind::kUnknown;
};
CopyKinds ParseMemcpyName(std::string_view name);

// "Memset (Device)" -> kDevice.
model::MemoryKind ParseMemsetName(std::string_view name);

// "Event Sync", "Stream Wait Event", "Context Sync", "Stream Sync" (the event name or
// args.cuda_sync_kind) -> the CUPTI synchronization kind.
model::SyncKind ParseSyncKind(std::string_view text);

}  // namespace gpuperf::io::kineto
