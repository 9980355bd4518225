// The pure part of the injected recorder: a completed CUPTI activity buffer in, compact POD
// spool events out. No CUDA driver is needed, so unit tests feed it synthesized records through
// exactly this code (tests/unit/inject_decode_test.cc).
#pragma once

#include <cupti.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "spool/spool_format.h"

namespace gpuperf::inject {

// What one completed buffer (or a status message) adds to the spool. Batches are recycled by
// the sink, so their vectors keep their capacity: no allocation per record in steady state.
struct Batch {
  std::vector<spool::Event> events;
  std::vector<std::pair<std::uint32_t, std::string>> strings;  // first sightings only
  std::vector<spool::DeviceInfo> devices;
  std::vector<std::pair<spool::StatusLevel, std::string>> statuses;
  void Clear();
};

struct DecodeStats {
  std::uint64_t records = 0;  // records walked
  std::uint64_t kept = 0;     // turned into events or devices
  std::uint64_t unknown = 0;  // kinds we do not keep (counted, not silently lost)
  // Records CUPTI could not complete, counted and not kept: GPU records without timestamps
  // (start 0 or end before start; cupti_activity.h: "no timing information could be collected"),
  // which would stretch the timeline to the epoch, and the incomplete record that ends a
  // forced flush's buffer (CUPTI_ERROR_INVALID_KIND).
  std::uint64_t incomplete = 0;
};

// Thread-safe string ids. With per-thread CUPTI buffers (the 13.0 default) several
// buffer-completed callbacks can run at once.
class StringInterner {
 public:
  // The id of `text`; a first sighting is appended to `fresh` so it reaches the spool.
  std::uint32_t Intern(std::string_view text, Batch& fresh);
  // The id of the runtime (driver=false) or driver API name for `cbid`, cached lock-free.
  std::uint32_t ApiName(bool driver, std::uint32_t cbid, Batch& fresh);

 private:
  static constexpr std::size_t kMaxCbid = 2048;
  std::mutex mutex_;
  std::unordered_map<std::string, std::uint32_t> ids_;
  std::uint32_t next_id_ = 1;
  std::array<std::atomic<std::uint32_t>, kMaxCbid> runtime_names_{};
  std::array<std::atomic<std::uint32_t>, kMaxCbid> driver_names_{};
};

// Walks `valid_size` bytes of `buffer` with cuptiActivityGetNextRecord and appends one event per
// record it keeps. Returns CUPTI_SUCCESS when the walk reached the end (CUPTI's
// MAX_LIMIT_REACHED, or INVALID_KIND: the incomplete tail a forced flush delivers), else the
// error that stopped it. Frees what CUPTI hands over with a record (overhead details). Never
// throws.
CUptiResult DecodeBuffer(std::uint8_t* buffer,
                         std::size_t valid_size,
                         StringInterner& strings,
                         Batch& batch,
                         DecodeStats& stats) noexcept;

// Counts the records of a buffer without keeping them (GPUPERF_DISCARD=1, the overhead floor).
std::uint64_t CountRecords(std::uint8_t* buffer, std::size_t valid_size) noexcept;

// A readable name for a CUPTI overhead kind ("CUPTI instrumentation", ...).
std::string_view OverheadName(std::uint32_t overhead_kind);

}  // namespace gpuperf::inject
