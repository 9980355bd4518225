// Joins GPU activities and sync records to the host API calls that issued them (CUPTI
// correlation ids). Correlation ids are unique per process, so the pid must agree when both
// sides record one (nsys); Kineto GPU events carry no pid and join on the id alone.
#pragma once

#include "gpuperf/trace.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

namespace gpuperf::analysis {

class CorrelationIndex {
 public:
  explicit CorrelationIndex(const model::Trace& trace);

  // Indices into trace.api_calls of every record with this correlation (nsys can write two
  // records for one call, e.g. "cudaMemcpy" and "cudaMemcpy_v3020"), in trace order.
  std::vector<std::size_t> Calls(std::int64_t correlation, std::int64_t pid) const;

  // Calls `visit(index)` for each of those records, without allocating.
  template <class Visit>
  void ForEachCall(std::int64_t correlation, std::int64_t pid, Visit visit) const {
    for (std::uint32_t index : Group(correlation)) {
      if (PidsAgree(trace_.api_calls[index].pid, pid))
        visit(static_cast<std::size_t>(index));
    }
  }

  // The one record that stands for the call: the earliest start (the outermost of nested
  // duplicate records); -1 when the activity has no launch call in the trace (an orphan).
  std::int64_t PrimaryCall(std::int64_t correlation, std::int64_t pid) const;

  bool HasCall(std::int64_t correlation, std::int64_t pid) const {
    return PrimaryCall(correlation, pid) >= 0;
  }

  // True when api_calls[index] is the primary record of its correlation (records without a
  // correlation are always primary). Counting only primaries counts each call once.
  bool IsPrimary(std::size_t index) const { return is_primary_[index]; }

 private:
  static bool PidsAgree(std::int64_t a, std::int64_t b) {
    return a == model::kNoId || b == model::kNoId || a == b;
  }

  // Every record of one correlation id, across processes; usually one or two entries.
  std::span<const std::uint32_t> Group(std::int64_t correlation) const;

  const model::Trace& trace_;
  // api_calls indices grouped by correlation (trace order inside a group); the map gives
  // each group's [offset, offset + count) in grouped_. Flat storage keeps lookups free of
  // allocation: the analysis asks once per GPU activity, millions of times on large traces.
  std::vector<std::uint32_t> grouped_;
  // Correlation ids are usually dense (CUPTI counts them up from 1): then a table indexed by
  // id - dense_base_ replaces the hash map (one load per lookup instead of a hash and a probe,
  // and no more memory: at most kDenseSlack slots of 8 bytes per group against a map node of
  // about 40). Empty slots have count 0.
  static constexpr std::int64_t kDenseSlack = 4;
  std::int64_t dense_base_ = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> dense_;
  std::unordered_map<std::int64_t, std::pair<std::uint32_t, std::uint32_t>> groups_;
  std::vector<bool> is_primary_;
};

}  // namespace gpuperf::analysis
