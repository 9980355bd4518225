#include "util/intervals.h"

#include <algorithm>
#include <limits>

#include "util/sort_runs.h"

namespace gpuperf::util {

std::vector<Interval> MergeIntervals(std::vector<Interval> intervals) {
  std::erase_if(intervals, [](const Interval& i) { return i.end <= i.start; });
  auto by_start = [](const Interval& a, const Interval& b) { return a.start < b.start; };
  // Callers usually pass time-ordered intervals, or a few ordered runs (one per thread).
  SortRuns(intervals.begin(), intervals.end(), by_start);
  std::vector<Interval> merged;
  merged.reserve(intervals.size());
  for (const Interval& next : intervals) {
    if (!merged.empty() && next.start <= merged.back().end) {
      merged.back().end = std::max(merged.back().end, next.end);
    } else {
      merged.push_back(next);
    }
  }
  return merged;
}

std::int64_t UnionLength(std::vector<Interval>& intervals) {
  SortRuns(intervals.begin(), intervals.end(), [](const Interval& a, const Interval& b) {
    return a.start < b.start;
  });
  std::int64_t total = 0;
  std::int64_t covered_to = std::numeric_limits<std::int64_t>::min();
  for (const Interval& i : intervals) {
    std::int64_t from = std::max(i.start, covered_to);
    if (i.end > from) {
      total += i.end - from;
      covered_to = i.end;
    }
  }
  return total;
}

std::int64_t TotalLength(const std::vector<Interval>& merged) {
  std::int64_t total = 0;
  for (const Interval& i : merged)
    total += i.end - i.start;
  return total;
}

std::vector<Interval> UnionOf(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  std::vector<Interval> all;
  all.reserve(a.size() + b.size());
  all.insert(all.end(), a.begin(), a.end());
  all.insert(all.end(), b.begin(), b.end());
  return MergeIntervals(std::move(all));
}

std::vector<Interval> Intersect(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  std::vector<Interval> out;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    std::int64_t start = std::max(a[i].start, b[j].start);
    std::int64_t end = std::min(a[i].end, b[j].end);
    if (start < end)
      out.push_back({start, end});
    if (a[i].end < b[j].end) {
      ++i;
    } else {
      ++j;
    }
  }
  return out;
}

std::vector<Interval> Subtract(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  std::vector<Interval> out;
  std::size_t j = 0;
  for (const Interval& piece : a) {
    std::int64_t cursor = piece.start;
    while (j < b.size() && b[j].end <= cursor)
      ++j;
    std::size_t k = j;
    while (k < b.size() && b[k].start < piece.end) {
      if (b[k].start > cursor)
        out.push_back({cursor, b[k].start});
      cursor = std::max(cursor, b[k].end);
      ++k;
    }
    if (cursor < piece.end)
      out.push_back({cursor, piece.end});
  }
  return out;
}

std::int64_t CoveredLength(const std::vector<Interval>& merged,
                           std::int64_t start,
                           std::int64_t end) {
  if (end <= start)
    return 0;
  auto it =
      std::upper_bound(merged.begin(), merged.end(), start, [](std::int64_t t, const Interval& i) {
        return t < i.end;
      });
  std::int64_t covered = 0;
  for (; it != merged.end() && it->start < end; ++it) {
    covered += std::min(end, it->end) - std::max(start, it->start);
  }
  return covered;
}

std::int64_t CoverageSweep::Covered(std::int64_t start, std::int64_t end) {
  while (next_ < merged_.size() && merged_[next_].end <= start)
    ++next_;
  if (end <= start)
    return 0;
  std::int64_t covered = 0;
  for (std::size_t i = next_; i < merged_.size() && merged_[i].start < end; ++i)
    covered += std::min(end, merged_[i].end) - std::max(start, merged_[i].start);
  return covered;
}

bool Overlaps(const std::vector<Interval>& merged, std::int64_t start, std::int64_t end) {
  if (end <= start)
    return false;
  auto it =
      std::upper_bound(merged.begin(), merged.end(), start, [](std::int64_t t, const Interval& i) {
        return t < i.end;
      });
  return it != merged.end() && it->start < end;
}

std::size_t IntervalProbe::FirstEndingAfter(std::int64_t start) {
  auto ends_by = [start](const Interval& i) { return i.end <= start; };
  if (hint_ > 0 && merged_[hint_ - 1].end > start)  // behind the hint: bisect what precedes it
    hint_ = static_cast<std::size_t>(
        std::partition_point(
            merged_.begin(), merged_.begin() + static_cast<std::ptrdiff_t>(hint_), ends_by) -
        merged_.begin());
  else
    hint_ = GallopPartition(merged_, hint_, ends_by);
  return hint_;
}

bool IntervalProbe::Overlaps(std::int64_t start, std::int64_t end) {
  if (end <= start)
    return false;
  std::size_t i = FirstEndingAfter(start);
  return i != merged_.size() && merged_[i].start < end;
}

std::int64_t IntervalProbe::Covered(std::int64_t start, std::int64_t end) {
  if (end <= start)
    return 0;
  std::int64_t covered = 0;
  for (std::size_t i = FirstEndingAfter(start); i < merged_.size() && merged_[i].start < end; ++i)
    covered += std::min(end, merged_[i].end) - std::max(start, merged_[i].start);
  return covered;
}

PrefixCover::PrefixCover(std::vector<Interval> merged) : merged_(std::move(merged)) {
  prefix_.assign(merged_.size() + 1, 0);
  for (std::size_t i = 0; i < merged_.size(); ++i)
    prefix_[i + 1] = prefix_[i] + (merged_[i].end - merged_[i].start);
}

std::int64_t PrefixCover::Within(std::int64_t start, std::int64_t end) const {
  if (end <= start || merged_.empty())
    return 0;
  auto first = std::upper_bound(
      merged_.begin(), merged_.end(), start, [](std::int64_t v, const Interval& i) {
        return v < i.end;
      });
  auto last =
      std::lower_bound(merged_.begin(), merged_.end(), end, [](const Interval& i, std::int64_t v) {
        return i.start < v;
      });
  if (first >= last)
    return 0;
  auto a = static_cast<std::size_t>(first - merged_.begin());
  auto b = static_cast<std::size_t>(last - merged_.begin());
  std::int64_t total = prefix_[b] - prefix_[a];
  total -= std::max<std::int64_t>(0, start - merged_[a].start);
  total -= std::max<std::int64_t>(0, merged_[b - 1].end - end);
  return total;
}

}  // namespace gpuperf::util
