#include "analysis/timeline/run_forward.h"

#include <algorithm>
#include <limits>

namespace gpuperf::analysis {

RunForward::RunForward(std::vector<util::Interval> host_waits,
                       std::vector<util::Interval> paced_idle,
                       std::int64_t host_end,
                       std::int64_t gpu_end,
                       std::vector<util::Interval> outside_waits)
    : waits_(std::move(host_waits)),
      outside_(std::move(outside_waits)),
      paced_(std::move(paced_idle)),
      host_end_(host_end),
      gpu_end_(gpu_end),
      ready_(true) {}

std::int64_t RunForward::NextWaitFrom(std::int64_t t, std::int64_t otherwise) const {
  auto next = std::lower_bound(
      waits_.begin(), waits_.end(), t, [](const util::Interval& w, std::int64_t v) {
        return w.start < v;
      });
  return next == waits_.end() ? otherwise : next->start;
}

std::int64_t RunForward::Gain(const std::vector<util::Interval>& removed) const {
  if (removed.empty())
    return 0;
  // The kept waits among the removed ones: the parts of the waits from the first that ends
  // after the first removed one starts to the last that starts before the last removed one ends.
  auto by_end = [](const util::Interval& i, std::int64_t v) { return i.end <= v; };
  auto by_start = [](const util::Interval& i, std::int64_t v) { return i.start < v; };
  const auto from = static_cast<std::size_t>(
      std::lower_bound(waits_.begin(), waits_.end(), removed.front().start, by_end) -
      waits_.begin());
  const auto after = static_cast<std::size_t>(
      std::lower_bound(waits_.begin(), waits_.end(), removed.back().end, by_start) -
      waits_.begin());
  std::vector<util::Interval> middle(waits_.begin() + static_cast<std::ptrdiff_t>(from),
                                     waits_.begin() + static_cast<std::ptrdiff_t>(after));
  const std::vector<util::Interval> kept = util::Subtract(middle, removed);
  std::int64_t host = 0;  // how much sooner the host runs
  std::int64_t gpu = 0;   // how much sooner the GPU does
  std::int64_t at = removed.front().start;
  auto follow = [&](std::int64_t to) {  // the GPU catches up through its host-paced idle
    gpu = std::min(host, gpu + Slack(at, to));
    at = std::max(at, to);
  };
  std::size_t k = 0;
  auto keep = [&](const util::Interval& wait) {  // the host waits for the GPU's shifted work
    follow(wait.end);
    host = gpu;
  };
  // The waits outside from the first that ends after the first removed wait starts.
  auto x = static_cast<std::size_t>(
      std::lower_bound(outside_.begin(), outside_.end(), removed.front().start, by_end) -
      outside_.begin());
  auto absorb = [&](const util::Interval& wait) {  // it ends on time whenever the host arrives
    follow(std::max(at, wait.start));
    host = 0;
  };
  // The kept waits and the waits outside that end by `until`, in the order they end.
  auto pass = [&](std::int64_t until) {
    for (;;) {
      const bool kept_due = k < kept.size() && kept[k].end <= until;
      const bool outside_due = x < outside_.size() && outside_[x].end <= until;
      if (kept_due && (!outside_due || kept[k].end <= outside_[x].end))
        keep(kept[k++]);
      else if (outside_due)
        absorb(outside_[x++]);
      else
        return;
    }
  };
  for (const util::Interval& r : removed) {
    pass(r.end);
    follow(r.start);
    host += r.end - r.start;
  }
  pass(after < waits_.size() ? waits_[after].start : std::numeric_limits<std::int64_t>::max());
  for (; k < kept.size(); ++k)
    keep(kept[k]);
  // The next kept wait sets both to the GPU's shift, and everything after runs that much sooner.
  if (after < waits_.size()) {
    keep(waits_[after]);
    return gpu;
  }
  follow(gpu_end_);
  // A removed wait that ends the recording is followed by no host work it delays: what it waited
  // for is not recorded, and the window ends with it only because the trace does.
  if (host_end_ <= removed.back().end)
    host = 0;
  const std::int64_t end = std::max(host_end_, gpu_end_);
  return std::max<std::int64_t>(0, end - std::max(host_end_ - host, gpu_end_ - gpu));
}

}  // namespace gpuperf::analysis
