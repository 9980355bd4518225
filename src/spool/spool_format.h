// The spool: the binary file the injected library (libgpuperf_inject.so) appends to while the
// traced program runs, and the CLI reads after it exits. This header is the only thing the two
// sides share; it has no CUDA dependency.
//
// Layout: FileHeader, then chunks {ChunkHeader, payload}. Chunks are written whole with one
// write(2) each, so a process killed mid-run leaves a file whose last chunk may be cut short;
// the reader keeps every complete chunk and counts the cut one. A Footer chunk is written only by
// a clean exit (atexit or a forwarded signal): no footer means the run is partial.
//
// Everything is little-endian host order: the spool never leaves the machine that wrote it.
#pragma once

#include <cstdint>
#include <type_traits>

namespace gpuperf::spool {

inline constexpr char kMagic[8] = {'G', 'P', 'U', 'S', 'P', 'O', 'O', 'L'};
inline constexpr std::uint32_t kVersion = 1;
inline constexpr const char* kFileSuffix = ".gpuperf";

enum class ChunkType : std::uint32_t {
  kEvents = 1,  // payload: N x Event
  kString = 2,  // payload: uint32 id, then the UTF-8 bytes (no terminator)
  kDevice = 3,  // payload: one DeviceInfo
  kStatus = 4,  // payload: uint32 level (StatusLevel), then a message
  kFooter = 5,  // payload: one Footer
};

struct ChunkHeader {
  std::uint32_t type = 0;
  std::uint32_t size = 0;  // payload bytes
};

struct FileHeader {
  char magic[8] = {};
  std::uint32_t version = kVersion;
  std::uint32_t event_size = 0;  // sizeof(Event) of the writer, checked by the reader
  std::int64_t pid = 0;
  std::int64_t ppid = 0;
  std::int64_t rank = -1;           // from the MPI/SLURM environment, -1 if none
  std::int64_t start_time_ns = 0;   // CUPTI/epoch ns when the file was opened
  std::uint32_t cupti_version = 0;  // cuptiGetVersion
  std::uint32_t discard_mode = 0;   // 1: GPUPERF_DISCARD, records counted but not kept
  char host[64] = {};
  char session[64] = {};
};

enum class EventKind : std::uint8_t {
  kKernel = 1,
  kMemcpy = 2,
  kMemset = 3,
  kRuntimeApi = 4,
  kDriverApi = 5,
  kSync = 6,
  kMemory = 7,       // device memory allocation or release
  kMarker = 8,       // NVTX range start/end or instant marker
  kGraphLaunch = 9,  // one record per CUDA graph launch
  kOverhead = 10,    // CUPTI's own overhead
};

// Marker flags (kMarker, field `a`), the CUPTI_ACTIVITY_FLAG_MARKER_* bits.
inline constexpr std::uint8_t kMarkerInstant = 1;
inline constexpr std::uint8_t kMarkerStart = 2;
inline constexpr std::uint8_t kMarkerEnd = 4;
// Memory operation (kMemory, field `a`).
inline constexpr std::uint8_t kMemoryAllocate = 1;
inline constexpr std::uint8_t kMemoryRelease = 2;

// One decoded CUPTI record, fixed size so a batch is one write and the reader needs no parser.
// Field use by kind:
//   a, b, c: kMemcpy copy/src/dst kind; kMemset memory kind in b; kSync sync type in a;
//            kMemory op in a, memory kind in b; kMarker flags in a.
//   name:    string id (kernel, API callback, marker, memory or overhead name); 0 = none.
//   correlation2: kMemcpy runtime correlation id; kMarker range id; kMemory address.
//   code:    API cbid; kOverhead overhead kind; kSync/API return value in `result`.
struct Event {
  EventKind kind = EventKind::kKernel;
  std::uint8_t a = 0;
  std::uint8_t b = 0;
  std::uint8_t c = 0;
  std::int32_t device = -1;
  std::uint32_t name = 0;
  std::uint32_t domain = 0;  // NVTX domain string id
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;  // == start_ns for instants
  std::int64_t correlation = 0;
  std::int64_t correlation2 = 0;
  std::int64_t stream = -1;
  std::int64_t context = -1;
  std::int64_t bytes = 0;
  std::int64_t graph_id = -1;
  std::int64_t pid = -1;
  std::int64_t tid = -1;
  std::int32_t grid[3] = {0, 0, 0};
  std::int32_t block[3] = {0, 0, 0};
  std::int32_t registers = 0;
  std::int32_t shared_bytes = 0;  // static + dynamic
  std::int32_t code = 0;
  std::int32_t result = 0;
};
static_assert(std::is_trivially_copyable_v<Event>);
static_assert(sizeof(Event) == 136, "spool Event layout changed: bump kVersion");

struct DeviceInfo {
  std::int32_t id = 0;
  std::int32_t compute_major = 0;
  std::int32_t compute_minor = 0;
  std::int32_t sm_count = 0;
  std::int64_t memory_bytes = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t bandwidth_bytes_per_s = 0;
  std::int64_t core_clock_khz = 0;
  std::int32_t max_threads_per_block = 0;
  std::int32_t max_threads_per_sm = 0;
  std::int32_t registers_per_sm = 0;
  std::int32_t shared_memory_per_sm = 0;
  std::int32_t warp_size = 0;
  std::int32_t reserved = 0;
  std::uint8_t uuid[16] = {};
  char name[128] = {};
};
static_assert(std::is_trivially_copyable_v<DeviceInfo>);

enum class StatusLevel : std::uint32_t { kInfo = 0, kWarning = 1, kError = 2 };

enum class EndReason : std::int32_t {
  kExit = 0,    // atexit handler ran
  kSignal = 1,  // a forwarded SIGINT/SIGTERM/SIGHUP; Footer::signal says which
};

struct Footer {
  std::int64_t end_time_ns = 0;
  std::uint64_t dropped_records = 0;  // cuptiActivityGetNumDroppedRecords, summed
  std::uint64_t records = 0;          // CUPTI records seen (also in discard mode)
  std::uint64_t events_written = 0;
  std::uint64_t buffers = 0;          // completed CUPTI buffers
  std::uint64_t unknown_records = 0;  // kinds the decoder does not keep
  std::int32_t reason = 0;            // EndReason
  std::int32_t signal = 0;
  // cudaRuntimeGetVersion of the libcudart the program loaded (e.g. 13000); 0 when none was
  // found (a statically linked runtime exports nothing gpuperf can call).
  std::int32_t cuda_runtime_version = 0;
  // Records CUPTI could not complete (GPU records without timestamps; the incomplete tail of a
  // forced flush): counted and left out (inject/activity_decoder.h DecodeStats::incomplete).
  std::uint32_t incomplete_records = 0;
};
static_assert(std::is_trivially_copyable_v<Footer>);

}  // namespace gpuperf::spool
