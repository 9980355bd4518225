// From a run's spools (one per process) to the trace model: every recording reaches the analysis
// through SpoolsToTrace, in `gpuperf baseline` (a run's processes merged) and in the importer
// (spool_importer.h, one file).
#pragma once

#include "gpuperf/trace.h"

#include <cstdint>
#include <string>
#include <vector>

#include "io/spool/spool_reader.h"
#include "spool/demangle.h"

namespace gpuperf::io {

// The human name of a spool memcpy, as Kineto writes it: "Memcpy HtoD (Pageable -> Device)".
std::string MemcpyName(std::uint8_t copy_kind, std::uint8_t src_kind, std::uint8_t dst_kind);

// The human name of a spool memset, as the model and the Kineto dialect have it:
// "Memset (Device)", "Memset (Pinned)".
std::string MemsetName(std::uint8_t memory_kind);

// An API call's name without CUPTI's version suffix ("cudaLaunchKernel_v7000" ->
// "cudaLaunchKernel", "cudaGraphLaunch_v10000" -> "cudaGraphLaunch"), as Kineto writes it.
std::string_view ApiName(std::string_view cupti_name);

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

}  // namespace gpuperf::io
