// Joins GPU activities and sync records to the host API calls that issued them (CUPTI
// correlation ids). Correlation ids are unique per process, so the pid must agree when both
// sides record one (nsys); Kineto GPU events carry no pid and join on the id alone.
#pragma once

#include "gpuperf/trace.h"

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace gpuperf::analysis {

class CorrelationIndex {
 public:
  explicit CorrelationIndex(const model::Trace& trace);

  // Indices into trace.api_calls of every record with this correlation (nsys can write two
  // records for one call, e.g. "cudaMemcpy" and "cudaMemcpy_v3020"), in trace order.
  std::vector<std::size_t> Calls(std::int64_t correlation, std::int64_t pid) const;

  // The one record that stands for the call: the earliest start (the outermost of nested
  // duplicate records); -1 when the activity has no launch call in the trace (an orphan).
  std::int64_t PrimaryCall(std::int64_t correlation, std::int64_t pid) const;

  bool HasCall(std::int64_t correlation, std::int64_t pid) const {
    return PrimaryCall(correlation, pid) >= 0;
  }

  // True when api_calls[index] is the primary record of its correlation (records without a
  // correlation are always primary). Counting only primaries counts each call once.
  bool IsPrimary(std::size_t index) const;

 private:
  const model::Trace& trace_;
  std::unordered_map<std::int64_t, std::vector<std::size_t>> by_correlation_;
};

}  // namespace gpuperf::analysis
