// Sorting for records that arrive almost in order. Trace files write each thread's events in
// time order, so host ops, Python frames and API calls come as a few long sorted runs: merging
// the runs is linear per level where a full sort is n log n.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace gpuperf::util {

// Sorts [first, last) by `less` (not stable). Finds the ascending runs and merges neighbours
// until one is left; when the input is mostly unordered (many short runs) it sorts instead.
template <typename It, typename Less>
void SortRuns(It first, It last, Less less) {
  std::vector<It> bounds{first};
  for (It it = first; it != last;) {
    It next = std::next(it);
    if (next != last && less(*next, *it))
      bounds.push_back(next);
    it = next;
  }
  bounds.push_back(last);
  std::size_t runs = bounds.size() - 1;
  std::size_t size = static_cast<std::size_t>(std::distance(first, last));
  if (runs <= 1)
    return;
  if (runs > 16 && runs * 16 > size) {  // short runs: merging buys nothing
    std::sort(first, last, less);
    return;
  }
  while (bounds.size() > 2) {
    std::vector<It> merged{bounds.front()};
    for (std::size_t i = 0; i + 2 < bounds.size(); i += 2) {
      std::inplace_merge(bounds[i], bounds[i + 1], bounds[i + 2], less);
      merged.push_back(bounds[i + 2]);
    }
    if (bounds.size() % 2 == 0)  // an odd run out: carried to the next level as it is
      merged.push_back(bounds.back());
    bounds = std::move(merged);
  }
}

}  // namespace gpuperf::util
