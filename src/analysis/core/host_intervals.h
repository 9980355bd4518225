// Host intervals (ranges, operators) per thread, sorted by start, each with a payload: the
// innermost one around an API call. Nesting is by time on the call's (pid, tid), as the launch
// tree nests them (framework/launch_tree.h); this is the cheap form for a few calls.
#pragma once

#include "gpuperf/trace.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace gpuperf::analysis {

// Host intervals per thread, by start, each with a payload: the innermost one around a call.
template <class Payload>
class HostIntervals {
 public:
  static constexpr std::size_t kWalk = 512;

  void Add(std::int64_t pid, std::int64_t tid, model::TimeNs start, model::TimeNs end, Payload p) {
    // Records come thread by thread in runs: the last thread's list saves a map lookup.
    if (!last_ || last_thread_ != std::pair{pid, tid}) {
      last_thread_ = {pid, tid};
      last_ = &by_thread_[last_thread_];
    }
    last_->push_back({start, end, std::move(p)});
  }
  void Sort() {
    for (auto& [thread, items] : by_thread_)
      // Of two that start together the outer (longer) one first: the inner one is met first
      // walking back.
      std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
        return a.start < b.start || (a.start == b.start && a.end > b.end);
      });
  }
  // The latest-starting interval that contains the call; nullptr when none within kWalk
  // intervals before it (siblings that ended before the call are walked over).
  const Payload* Of(const model::ApiCall& call) const {
    auto it = by_thread_.find({call.pid, call.tid});
    if (it == by_thread_.end())
      return nullptr;
    const std::vector<Item>& items = it->second;
    auto end = std::upper_bound(
        items.begin(), items.end(), call.start_ns, [](model::TimeNs t, const Item& item) {
          return t < item.start;
        });
    for (std::size_t walked = 0; end != items.begin() && walked < kWalk; ++walked) {
      const Item& item = *--end;
      if (item.end >= call.end_ns)
        return &item.payload;
    }
    return nullptr;
  }

 private:
  struct Item {
    model::TimeNs start = 0;
    model::TimeNs end = 0;
    Payload payload;
  };
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<Item>> by_thread_;
  std::pair<std::int64_t, std::int64_t> last_thread_;
  std::vector<Item>* last_ = nullptr;  // by_thread_'s nodes do not move
};

}  // namespace gpuperf::analysis
