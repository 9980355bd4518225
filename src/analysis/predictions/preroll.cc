#include "analysis/predictions/preroll.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "analysis/framework/categories.h"
#include "util/intervals.h"

namespace gpuperf::analysis {

bool PreRoll::Holds(const model::GpuActivity& a, const CorrelationIndex& index) const {
  return !empty() && a.start_ns < end_ns && !index.HasCall(a.correlation, a.pid);
}

PreRoll FindPreRoll(const model::Trace& trace,
                    const CorrelationIndex& index,
                    const TraceWindow& window) {
  PreRoll out;
  out.start_ns = out.end_ns = window.start_ns;
  // The first launch call of recorded work: before it nothing the trace holds was queued.
  std::int64_t first_launch = std::numeric_limits<std::int64_t>::max();
  for (const model::GpuActivity& a : trace.activities) {
    std::int64_t call = index.PrimaryCall(a.correlation, a.pid);
    if (call >= 0)
      first_launch =
          std::min(first_launch, trace.api_calls[static_cast<std::size_t>(call)].start_ns);
  }
  if (first_launch == std::numeric_limits<std::int64_t>::max())
    return out;
  std::vector<const model::GpuActivity*> orphans;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.start_ns < first_launch && !index.HasCall(a.correlation, a.pid))
      orphans.push_back(&a);
  }
  std::stable_sort(orphans.begin(), orphans.end(), [](const auto* x, const auto* y) {
    return x->start_ns < y->start_ns;
  });
  std::int64_t tail_end = window.start_ns;
  std::vector<util::Interval> busy;
  for (const model::GpuActivity* a : orphans) {
    if (a->start_ns - tail_end > kPreRollGapNs)
      break;  // the GPU ran out of queued work: later orphans are no tail
    tail_end = std::max(tail_end, a->end_ns);
    busy.push_back({a->start_ns, a->end_ns});
    ++out.activities;
    // An orphan has no launching operator: its kernel name decides its category, as in the
    // framework view.
    std::string category =
        a->kind == model::ActivityKind::kKernel
            ? std::string(framework::ToString(framework::CategoryOfKernel(trace.Name(a->name))))
        : a->kind == model::ActivityKind::kMemset ? "memset"
                                                  : "memcpy";
    out.category_ns[category] += a->end_ns - a->start_ns;
  }
  out.end_ns = std::min(tail_end, first_launch);
  if (out.end_ns <= out.start_ns ||
      static_cast<double>(out.length_ns()) <
          kPreRollMinShare * static_cast<double>(window.length_ns())) {
    out = PreRoll{};
    out.start_ns = out.end_ns = window.start_ns;
    return out;
  }
  out.gpu_ns = util::CoveredLength(util::MergeIntervals(std::move(busy)), out.start_ns, out.end_ns);
  return out;
}

std::optional<report::PreRollSummary> PreRoll::Summary() const {
  if (empty())
    return std::nullopt;
  return report::PreRollSummary{length_ns(), gpu_ns, activities, category_ns};
}

}  // namespace gpuperf::analysis
