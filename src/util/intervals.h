// Half-open time intervals [start, end) and the set operations the timeline needs.
// "Merged" means sorted by start, non-overlapping and non-adjacent.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gpuperf::util {

struct Interval {
  std::int64_t start = 0;
  std::int64_t end = 0;
  bool operator==(const Interval&) const = default;
};

// Sorts and merges; empty and inverted intervals contribute nothing.
std::vector<Interval> MergeIntervals(std::vector<Interval> intervals);

// Length of the union of any intervals, without a merged copy; sorts `intervals` by start.
std::int64_t UnionLength(std::vector<Interval>& intervals);

// Total length of merged intervals.
std::int64_t TotalLength(const std::vector<Interval>& merged);

// Both inputs merged; the result is merged.
std::vector<Interval> UnionOf(const std::vector<Interval>& a, const std::vector<Interval>& b);
std::vector<Interval> Subtract(const std::vector<Interval>& a, const std::vector<Interval>& b);
std::vector<Interval> Intersect(const std::vector<Interval>& a, const std::vector<Interval>& b);

// Length of merged ∩ [start, end), in O(log n + k).
std::int64_t CoveredLength(const std::vector<Interval>& merged,
                           std::int64_t start,
                           std::int64_t end);

// Whether merged ∩ [start, end) is not empty, in O(log n).
bool Overlaps(const std::vector<Interval>& merged, std::int64_t start, std::int64_t end);

// The first index at or after `low` where `before` (true on a prefix of `merged`, false after)
// turns false: probes low, low + 1, low + 3, ... before bisecting, so an answer near `low` costs
// O(log distance), not O(log n).
template <class Before>
std::size_t GallopPartition(const std::vector<Interval>& merged, std::size_t low, Before before) {
  auto at = [&](std::size_t i) { return merged.begin() + static_cast<std::ptrdiff_t>(i); };
  std::size_t step = 1;
  while (true) {
    std::size_t probe = low + step - 1;
    if (probe >= merged.size())
      return static_cast<std::size_t>(std::partition_point(at(low), merged.end(), before) -
                                      merged.begin());
    if (!before(merged[probe]))
      return static_cast<std::size_t>(std::partition_point(at(low), at(probe + 1), before) -
                                      merged.begin());
    low = probe + 1;
    step *= 2;
  }
}

// Overlaps and CoveredLength for queries that mostly come in time order (a thread's records in
// file order): each search starts at the previous answer and gallops forward, so ordered queries
// cost O(1) each (plus the intervals covered) and any order stays correct (O(log n) at worst).
class IntervalProbe {
 public:
  explicit IntervalProbe(const std::vector<Interval>& merged) : merged_(merged) {}
  bool Overlaps(std::int64_t start, std::int64_t end);
  std::int64_t Covered(std::int64_t start, std::int64_t end);
  // The first interval ending after `start` (merged.size() when none); the next query's hint.
  std::size_t FirstEndingAfter(std::int64_t start);

 private:
  const std::vector<Interval>& merged_;
  std::size_t hint_ = 0;
};

// CoveredLength for queries whose starts never decrease (the gaps of a timeline, in order): a
// cursor that only moves forward makes n queries over m intervals O(n + m), not O(n log m).
class CoverageSweep {
 public:
  explicit CoverageSweep(const std::vector<Interval>& merged) : merged_(merged) {}
  std::int64_t Covered(std::int64_t start, std::int64_t end);

 private:
  const std::vector<Interval>& merged_;
  std::size_t next_ = 0;  // first interval that may end after the last query's start
};

// CoveredLength in O(log n) whatever the query: merged intervals with the running sum of their
// lengths, so the length inside any [start, end] is two searches (host waits within a run, the
// GPU's idle between two waits).
class PrefixCover {
 public:
  PrefixCover() = default;
  explicit PrefixCover(std::vector<Interval> merged);
  std::int64_t Within(std::int64_t start, std::int64_t end) const;
  const std::vector<Interval>& merged() const { return merged_; }

 private:
  std::vector<Interval> merged_;
  std::vector<std::int64_t> prefix_;  // summed lengths of merged_[0, i)
};

}  // namespace gpuperf::util
