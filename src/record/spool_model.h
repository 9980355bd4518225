// From a run's spools (one per process) to what the rest of gpuperf uses: the trace model for
// the analysis, and the per-run figures of baseline.json.
#pragma once

#include "gpuperf/trace.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "record/demangle.h"
#include "record/spool_reader.h"

namespace gpuperf::record {

// The human name of a spool memcpy, as Kineto writes it: "Memcpy HtoD (Pageable -> Device)".
std::string MemcpyName(std::uint8_t copy_kind, std::uint8_t src_kind, std::uint8_t dst_kind);

// "Stream Sync", "Event Sync", "Context Sync", "Stream Wait Event".
std::string SyncName(std::uint8_t sync_type);

// The id a memcpy joins its launching API call with: the runtime call when there is one.
inline std::int64_t MemcpyCorrelation(const spool::Event& e) {
  return e.correlation2 != 0 ? e.correlation2 : e.correlation;
}

// The NVTX ranges of one process: START and END markers paired by range id. Two passes, because
// CUPTI's per-thread buffers reach the spool out of time order: a range ended on another thread
// can be written before its start.
struct NvtxRange {
  const spool::Event* start = nullptr;
  const spool::Event* end = nullptr;
};
struct NvtxRanges {
  std::vector<NvtxRange> ranges;  // in the order of their ENDs in the spool
  std::int64_t ends_without_start = 0;
  std::int64_t starts_without_end = 0;
};
NvtxRanges PairNvtxRanges(const SpoolContents& p);

// All processes of one run merged into one trace (pids keep them apart).
model::Trace SpoolsToTrace(const std::vector<SpoolContents>& processes);

// The per-run figures of baseline.json.
struct RunFigures {
  std::int64_t processes = 0;
  std::int64_t kernels = 0;
  std::int64_t memcpys = 0;
  std::int64_t memcpy_bytes = 0;
  std::int64_t memsets = 0;
  std::int64_t api_calls = 0;
  std::int64_t syncs = 0;
  std::int64_t graph_launches = 0;
  std::int64_t allocations = 0;
  std::int64_t frees = 0;
  std::int64_t peak_device_memory_bytes =
      0;  // max over time of allocated - freed, per device summed
  std::int64_t dropped_records = 0;
  std::int64_t incomplete_records = 0;  // counted by the recorder, left out of the trace
  std::int64_t cupti_overhead_ns = 0;   // sum of CUPTI overhead records
  std::int64_t kernel_time_ns = 0;
  std::int32_t cuda_runtime_version = 0;  // the highest any process reported; 0 none
  bool complete = true;                   // every process wrote its footer and no chunk was cut
  std::vector<std::string> problems;      // why not complete, and injection errors
  std::map<std::string, std::int64_t> kernel_total_ns;  // demangled name -> summed duration
};

RunFigures ComputeRunFigures(const std::vector<SpoolContents>& processes);

}  // namespace gpuperf::record
