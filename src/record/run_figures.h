// The per-run figures of baseline.json (runs[]), counted from a run's spools.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "io/spool/spool_reader.h"

namespace gpuperf::record {

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

RunFigures ComputeRunFigures(const std::vector<io::SpoolContents>& processes);

}  // namespace gpuperf::record
