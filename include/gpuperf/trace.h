// The in-memory trace model: one representation for every format gpuperf reads or records.
//
// Contracts:
//  - Every timestamp is int64 nanoseconds on one clock per trace (absolute when the source says
//    so, see TraceMetadata::time_base_ns). Timestamps are never parsed through a double.
//  - Names are interned: records hold a NameId into Trace::strings.
//  - Records are plain values sorted by nothing in particular; analysis sorts what it needs.
//  - Anything malformed that the importer skipped is counted in Trace::diagnostics.
#pragma once

#include "gpuperf/diagnostics_catalogue.h"
#include "gpuperf/measured_ceilings.h"
#include "gpuperf/record_array.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gpuperf::model {

using TimeNs = std::int64_t;
using NameId = std::uint32_t;

inline constexpr std::int64_t kNoId = -1;  // id, stream, pid, ... not recorded

// Interns strings so that millions of records with a few thousand distinct names stay small.
class StringTable {
 public:
  StringTable() { Intern(""); }
  NameId Intern(std::string_view text);
  std::string_view Get(NameId id) const { return strings_[id]; }
  std::size_t size() const { return strings_.size(); }

 private:
  std::vector<std::string> strings_;
  std::unordered_map<std::string, NameId> index_;
};

struct Dim3 {
  std::int32_t x = 0, y = 0, z = 0;
  std::int64_t Volume() const { return std::int64_t{x} * y * z; }
  bool operator==(const Dim3&) const = default;
};

struct Device {
  std::int32_t id = 0;
  std::string name;
  std::int32_t compute_major = 0;
  std::int32_t compute_minor = 0;
  std::int32_t sm_count = 0;
  std::int64_t memory_bytes = 0;
  std::int64_t l2_bytes = 0;
  double peak_bandwidth_bytes_per_s = 0;  // 0 when the source does not say
  double sm_clock_hz = 0;                 // max SM clock, 0 when unknown
  std::int32_t max_threads_per_sm = 0;
  std::int32_t max_threads_per_block = 0;
  std::int32_t registers_per_sm = 0;
  std::int64_t shared_memory_per_sm = 0;
  std::int32_t warp_size = 0;
  // "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" (lower case, as nvidia-smi prints it); "" when the
  // source does not record it (nsys TARGET_INFO_GPU.uuid and gpuperf recordings do).
  std::string uuid{};  // {}: designated initializers may leave it out under -Wextra
  // Ceilings measured on this GPU by `gpuperf ceilings`, attached by `analyze --ceilings`
  // (model::AttachMeasuredCeilings); the roofline prefers them over the datasheet.
  std::optional<MeasuredCeilings> measured_ceilings{};
};

struct Process {
  std::int64_t pid = 0;
  std::string name;
  std::string host;
};

// CUPTI's CUpti_ActivityMemcpyKind numbering (also nsys' copyKind).
enum class CopyKind : std::uint8_t {
  kUnknown = 0,
  kHtoD = 1,
  kDtoH = 2,
  kHtoA = 3,
  kAtoH = 4,
  kAtoA = 5,
  kAtoD = 6,
  kDtoA = 7,
  kDtoD = 8,
  kHtoH = 9,
  kPtoP = 10,
};

// CUPTI's CUpti_ActivityMemoryKind numbering (also nsys' srcKind/dstKind/memKind).
enum class MemoryKind : std::uint8_t {
  kPageable = 0,
  kPinned = 1,
  kDevice = 2,
  kArray = 3,
  kManaged = 4,
  kDeviceStatic = 5,
  kManagedStatic = 6,
  kUnknown = 7,
};

enum class ActivityKind : std::uint8_t { kKernel, kMemcpy, kMemset };

// One GPU activity: a kernel, a copy or a memset. Kept compact: there can be millions.
struct GpuActivity {
  ActivityKind kind = ActivityKind::kKernel;
  CopyKind copy_kind = CopyKind::kUnknown;     // memcpy only
  MemoryKind src_kind = MemoryKind::kUnknown;  // memcpy; memset uses src_kind as memory kind
  MemoryKind dst_kind = MemoryKind::kUnknown;  // memcpy only
  std::int32_t device = 0;
  NameId name = 0;
  TimeNs start_ns = 0;
  TimeNs end_ns = 0;
  std::int64_t stream = kNoId;
  std::int64_t context = kNoId;
  std::int64_t correlation = kNoId;  // joins to ApiCall::correlation; kNoId if absent
  std::int64_t pid = kNoId;          // owning process (nsys globalPid decoded; Kineto: none)
  std::int64_t bytes = 0;            // memcpy / memset
  std::int64_t graph_id = kNoId;
  // Kernel launch attributes (0 when the source does not record them).
  Dim3 grid;
  Dim3 block;
  std::int32_t registers_per_thread = 0;
  std::int32_t shared_memory_bytes = 0;  // static + dynamic

  TimeNs duration_ns() const { return end_ns - start_ns; }
};

enum class ApiKind : std::uint8_t { kRuntime, kDriver };

// A host call into the CUDA (or HIP) runtime or driver.
struct ApiCall {
  ApiKind kind = ApiKind::kRuntime;
  NameId name = 0;
  TimeNs start_ns = 0;
  TimeNs end_ns = 0;
  std::int64_t pid = kNoId;
  std::int64_t tid = kNoId;
  std::int64_t correlation = kNoId;
  std::int32_t cbid = -1;  // CUPTI callback id when the source has it

  TimeNs duration_ns() const { return end_ns - start_ns; }
};

// CUpti_ActivitySynchronizationType numbering.
enum class SyncKind : std::uint8_t {
  kUnknown = 0,
  kEvent = 1,
  kStreamWaitEvent = 2,
  kStream = 3,
  kContext = 4,
};

struct SyncEvent {
  SyncKind kind = SyncKind::kUnknown;
  TimeNs start_ns = 0;
  TimeNs end_ns = 0;
  std::int32_t device = kNoId;
  // CUPTI's context id (a uint32 there), -1 when not recorded. 32 bits: it fills the padding
  // after `device`, so the record stays 64 bytes.
  std::int32_t context = -1;
  std::int64_t stream = kNoId;
  std::int64_t correlation = kNoId;
  std::int64_t pid = kNoId;
  std::int64_t tid = kNoId;
};

enum class RangeKind : std::uint8_t {
  kNvtx,               // NVTX push/pop or start/end range
  kUserAnnotation,     // torch.profiler record_function on the host
  kGpuUserAnnotation,  // the same, projected by Kineto onto a GPU stream
  kProfilerStep,       // ProfilerStep#N
};

struct Range {
  RangeKind kind = RangeKind::kNvtx;
  NameId name = 0;
  NameId domain = 0;
  TimeNs start_ns = 0;
  TimeNs end_ns = 0;
  std::int64_t pid = kNoId;
  std::int64_t tid = kNoId;
  std::int32_t device = kNoId;  // set for kGpuUserAnnotation
  std::int64_t stream = kNoId;
};

// A host-side framework operator (Kineto cpu_op). Kept for launch attribution and shapes; 64
// bytes (a trace holds hundreds of thousands). Kineto's "External id" is not kept: no pass reads
// it (launches join by correlation id and nesting, docs/formats.md).
struct HostOp {
  TimeNs start_ns = 0;
  TimeNs end_ns = 0;
  std::int64_t pid = kNoId;
  std::int64_t tid = kNoId;
  // Autograd's link between a forward op and its backward ("Sequence number"): a backward op
  // (run by the autograd engine) carries the sequence number of the forward op that recorded
  // its node. kNoId when not recorded.
  std::int64_t sequence = kNoId;
  // "Fwd thread id": on a backward op, the id of the forward thread (> 0); 0 on forward ops.
  std::int64_t fwd_thread = kNoId;
  // The names last and together: no padding (a trace holds hundreds of thousands of ops).
  NameId name = 0;
  NameId input_dims = 0;   // raw JSON text of "Input Dims" when recorded
  NameId input_types = 0;  // raw JSON text of "Input type"
  // raw JSON text of "Concrete Inputs": the values of non-tensor arguments as strings
  // (["", "", "[0, 0]", "[16, 16]", "[1, 1]", "1", ...]), "" for a tensor argument
  NameId concrete_inputs = 0;

  bool IsBackward() const { return fwd_thread > 0; }
};

// A host thread, for records that store an index into Trace::frame_threads instead of the pair.
struct HostThread {
  std::int64_t pid = kNoId;
  std::int64_t tid = kNoId;
};

// A Python frame (Kineto python_function, recorded with with_stack=True), including PyTorch's
// module frames "nn.Module: Linear_3". Kept for the module view and for the host frames that fill
// GPU-idle gaps. 24 bytes, not 40: a with_stack trace holds millions of frames on a few threads.
struct PythonFrame {
  TimeNs start_ns = 0;
  TimeNs end_ns = 0;
  NameId name = 0;
  std::uint32_t thread = 0;  // index into Trace::frame_threads
};

// A call into the OS runtime that the profiler traced on a host thread (Nsight Systems' OSRT:
// write, ioctl, poll, pthread_cond_wait, ...): what the host did outside CUDA while the GPU idled.
struct OsCall {
  TimeNs start_ns = 0;
  TimeNs end_ns = 0;
  NameId name = 0;
  std::int64_t pid = kNoId;
  std::int64_t tid = kNoId;
};

// One CPU sample of a host thread (Nsight Systems' sampling): the innermost frame of its call
// chain. A sample stands for its thread's sampling interval, so samples estimate host time where
// nothing else in the trace records it.
struct CpuSample {
  TimeNs time_ns = 0;
  // The innermost frame's symbol; "[module]" (the file name of its module) when the symbol was
  // not resolved, as most frames inside driver libraries are not.
  NameId function = 0;
  std::int64_t pid = kNoId;
  std::int64_t tid = kNoId;
};

enum class MemoryOp : std::uint8_t { kAllocate, kFree };

struct MemoryEvent {
  MemoryOp op = MemoryOp::kAllocate;
  TimeNs time_ns = 0;
  std::int32_t device = kNoId;           // -1: host memory
  std::int64_t bytes = 0;                // always positive
  std::int64_t total_allocated = kNoId;  // after the event, when the source records it
  std::int64_t pid = kNoId;
};

// Counters of what an importer skipped or repaired, plus free-form notes. Shown in every report:
// nothing is dropped silently. Every counter is an entry of the catalogue
// (gpuperf/diagnostics_catalogue.h: name, severity, meaning); there is no counting by string.
struct Diagnostics {
  // Iterates in byte order of the names (the catalogue's order): report.json's order.
  std::map<Diagnostic, std::int64_t> counts;
  std::vector<std::string> notes;
  // Adds `n` to `what`. n = 0 still records `what` (the --counters join counts its zeros: the
  // join happened).
  void Count(Diagnostic what, std::int64_t n = 1) { counts[what] += n; }
  // The count of `what`, 0 when never counted.
  std::int64_t Get(Diagnostic what) const {
    auto it = counts.find(what);
    return it == counts.end() ? 0 : it->second;
  }
  bool Has(Diagnostic what) const { return counts.count(what) != 0; }
};

// Hardware counters of one kernel launch (Nsight Compute), kept beside the activity so that
// GpuActivity stays compact. Metric names are Nsight Compute's raw names
// ("dram__bytes_read.sum"); values are in base units: bytes, ns, counts, per second, percent.
struct KernelCounters {
  std::size_t activity = 0;  // index into Trace::activities (a kernel)
  std::map<std::string, double> metrics;
  // The activity's duration spans the profiler's replay passes, not one run (a Kineto
  // cuda_profiler_range with no kernel event to attach to): not a run time.
  bool replay_span = false;
};

// Time CUPTI spent on its own work (buffer flushes, instrumentation), as a recording has it: a
// few records per run, kept for the trace writers, not for the analysis.
struct ProfilerOverhead {
  NameId name = 0;  // CUPTI's overhead kind, "CUPTI buffer flush"
  TimeNs start_ns = 0;
  TimeNs end_ns = 0;
  std::int64_t pid = kNoId;
};

// A value that only some records of one record array carry, kept beside the array so that the
// record stays small: (index into the array, value) pairs in increasing index order.
class SparseColumn {
 public:
  // `record` must be greater than every index added before.
  void Add(std::size_t record, std::uint64_t value) { entries_.push_back({record, value}); }
  // The value of `record`, nullopt when it has none (a binary search).
  std::optional<std::uint64_t> Find(std::size_t record) const;
  std::size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  void shrink_to_fit() { entries_.shrink_to_fit(); }

 private:
  struct Entry {
    std::size_t record = 0;
    std::uint64_t value = 0;
  };
  std::vector<Entry> entries_;
};

// Trace::range_shapes' values: "Input Dims" in the high 32 bits, "Input type" in the low.
inline std::uint64_t PackRangeShape(NameId dims, NameId types) {
  return std::uint64_t{dims} << 32 | types;
}
inline std::pair<NameId, NameId> UnpackRangeShape(std::uint64_t value) {
  return {static_cast<NameId>(value >> 32), static_cast<NameId>(value & 0xffffffffu)};
}

struct TraceMetadata {
  std::string source_path;
  std::string format;          // "kineto", "nsys-sqlite", ...
  std::string format_version;  // writer / schema version as the file states it
  std::string producer;        // e.g. "nsys 2022.2.1", "PyTorch profiler"
  TimeNs time_base_ns = 0;     // add to timestamps for absolute UTC epoch ns; 0 if unknown
  std::optional<std::int64_t> rank;
  std::optional<std::int64_t> world_size;
  std::string distributed_backend;
  std::map<std::string, std::string> properties;  // versions and other header facts
  // Whether the records' times form a timeline (busy, idle, overlap, launch queues): false for
  // Nsight Compute, which replays each kernel alone and lays its launches back to back. Set by
  // the importer (io/importer.h, HasTimeline), so that no pass tests the format's name.
  bool has_timeline = true;
  // Whether the format is a framework profiler's (PyTorch's, through Kineto): its host operators
  // are the framework's and may record their shapes (record_shapes), and advice may name the
  // profiler's options. Set by the importer (io/importer.h, IsFrameworkProfiler).
  bool framework_profiler = false;
};

// properties of a gpuperf recording (io/spool) that its Kineto trace writes back: "true" when
// every process ended cleanly and nothing was cut, and the records CUPTI dropped.
inline constexpr std::string_view kRecordingCompleteProperty = "recording_complete";
inline constexpr std::string_view kDroppedRecordsProperty = "dropped_records";

struct Trace {
  TraceMetadata metadata;
  StringTable strings;
  std::vector<Device> devices;
  std::vector<Process> processes;
  // The record arrays grow by chunks, never by copying (gpuperf/record_array.h): an importer does
  // not know their sizes, and a vector's doubling would hold up to three times the records at its
  // last growth (the 1 GB benchmark trace: import peak 268 MB for about 160 MB of records).
  RecordArray<GpuActivity> activities;
  RecordArray<ApiCall> api_calls;
  RecordArray<SyncEvent> syncs;
  RecordArray<Range> ranges;
  RecordArray<HostOp> host_ops;
  RecordArray<PythonFrame> python_frames;  // with_stack traces: millions on a few threads
  std::vector<HostThread> frame_threads;   // the threads of python_frames (PythonFrame::thread)
  RecordArray<MemoryEvent> memory_events;
  RecordArray<OsCall> os_calls;          // nsys exports with OS runtime tracing
  RecordArray<CpuSample> cpu_samples;    // nsys exports with CPU sampling
  std::vector<KernelCounters> counters;  // at most one per activity, any order
  // Facts only gpuperf's own recordings (io/spool) carry, beside the records so that no record
  // grows for them; the Kineto trace of a recording writes them (report/kineto_trace_writer.h).
  SparseColumn graph_node_ids;    // activities: CUPTI's graph node id of a kernel in a CUDA graph
  SparseColumn memory_addresses;  // memory_events: the address allocated or released
  // ranges: a user annotation's recorded "Input Dims" and "Input type" as NameIds
  // (PackRangeShape; PyTorch's collective markers, "nccl:all_reduce", carry the message's shape).
  SparseColumn range_shapes;
  std::vector<ProfilerOverhead> profiler_overheads;
  Diagnostics diagnostics;

  std::string_view Name(NameId id) const { return strings.Get(id); }
  const Device* FindDevice(std::int32_t id) const;
  const HostThread& ThreadOf(const PythonFrame& frame) const { return frame_threads[frame.thread]; }
};

std::string_view ToString(CopyKind kind);
std::string_view ToString(MemoryKind kind);
std::string_view ToString(SyncKind kind);
std::string_view ToString(RangeKind kind);
std::string_view ToString(ActivityKind kind);

}  // namespace gpuperf::model
