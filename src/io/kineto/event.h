// One Chrome-trace event, materialised from the token stream with only the fields the importer
// uses. One Event is reused for every event of a file: its arena keeps its capacity, so reading
// an event allocates nothing once the first few events are read.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/json_reader.h"

namespace gpuperf::io::kineto {

// The fields kept: event keys first, then keys of "args". Every other key is skipped unread.
enum class Field : std::uint8_t {
  kPh,
  kCat,
  kName,
  kPid,
  kTid,
  kTs,
  kDur,
  kArgDevice,          // "device"
  kArgStream,          // "stream"
  kArgCorrelation,     // "correlation"
  kArgContext,         // "context"
  kArgExternalId,      // "External id" (2021/2022: "external id")
  kArgGrid,            // "grid": [x, y, z], kept as compact JSON
  kArgBlock,           // "block"
  kArgRegisters,       // "registers per thread"
  kArgSharedMemory,    // "shared memory"
  kArgBytes,           // "bytes" (memcpy / memset)
  kArgCbid,            // "cbid"
  kArgInputDims,       // "Input Dims" (Jan-2021: "Input dims"), compact JSON
  kArgInputType,       // "Input type", compact JSON
  kArgConcreteInputs,  // "Concrete Inputs", compact JSON
  kArgSyncKind,        // "cuda_sync_kind"
  kArgMemoryBytes,     // "Bytes" ([memory] instants; negative = free)
  kArgDeviceId,        // "Device Id" ([memory])
  kArgTotalAllocated,  // "Total Allocated" ([memory])
  kArgName,            // "name" (M events: process_name / thread_name)
  kArgGraphId,         // "graph id"
  kArgSequence,        // "Sequence number" (cpu_op: autograd forward/backward link)
  kArgFwdThread,       // "Fwd thread id" (cpu_op: > 0 on backward ops)
  kArgNvtxDomain,      // "nvtx domain" (user_annotation written by gpuperf baseline: an NVTX range)
  kArgCallStack,       // "Call stack" (cpu_op, 2021-era with_stack: the Python stack as text)
  kCount,
};

class Event {
 public:
  void Clear();
  bool Has(Field f) const { return slots_[Index(f)].present; }
  // The first token of the field's value; kNull when the field is absent.
  util::JsonToken Type(Field f) const {
    return Has(f) ? slots_[Index(f)].type : util::JsonToken::kNull;
  }
  // The string content, the number literal, or the compact JSON of an array / object.
  std::string_view Text(Field f) const;
  // A number field as int64, or a string field that holds one ("25738", "stream 7").
  std::optional<std::int64_t> Int(Field f) const;
  bool is_object() const { return is_object_; }

  // Args whose key is not a kept Field but looks like a profiler metric (contains "__", as
  // "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum" does): cuda_profiler_range counters.
  std::size_t metric_count() const { return metrics_.size(); }
  std::string_view MetricName(std::size_t i) const {
    return std::string_view(arena_).substr(metrics_[i].name_offset, metrics_[i].name_length);
  }
  std::string_view MetricText(std::size_t i) const {
    return std::string_view(arena_).substr(metrics_[i].value.offset, metrics_[i].value.length);
  }
  util::JsonToken MetricType(std::size_t i) const { return metrics_[i].value.type; }

  // Reads the event whose first token `first` the reader just returned. A non-object event is
  // skipped and leaves is_object() false. Returns false on a JSON error (see reader.error()).
  bool Read(util::JsonReader& reader, util::JsonToken first);

 private:
  struct Slot {
    std::uint32_t offset = 0;
    std::uint32_t length = 0;
    util::JsonToken type = util::JsonToken::kNull;
    bool present = false;
  };
  static std::size_t Index(Field f) { return static_cast<std::size_t>(f); }
  bool ReadValue(util::JsonReader& reader, std::optional<Field> field);
  bool ReadArgs(util::JsonReader& reader);
  // Reads the value after a key into `slot` (arena text or compact JSON).
  bool ReadInto(util::JsonReader& reader, util::JsonToken t, Slot& slot);

  struct Metric {
    std::uint32_t name_offset = 0;
    std::uint32_t name_length = 0;
    Slot value;
  };

  std::array<Slot, static_cast<std::size_t>(Field::kCount)> slots_{};
  std::vector<Metric> metrics_;  // keeps its capacity across events, like arena_
  std::string arena_;
  bool is_object_ = false;
};

}  // namespace gpuperf::io::kineto
