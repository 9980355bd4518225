#include "analysis/timeline/blocked_launches.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "analysis/core/names.h"
#include "analysis/core/statistics.h"

namespace gpuperf::analysis {
namespace {

// A launch into a shallow queue returns in about this long when the trace has none to measure.
constexpr std::int64_t kUnblockedLaunchNs = 20'000;
// A launch into a deep queue blocked when it took several times an unblocked one.
constexpr std::int64_t kBlockedFactor = 4;

}  // namespace

std::vector<BlockedLaunch> BlockedLaunches(const model::Trace& trace,
                                           const CorrelationIndex& index) {
  // Each call's first GPU work (every record of its correlation, across processes, as the
  // activities carry no pid): a launch's queue depth in one pass, without sorting.
  std::vector<model::TimeNs> first_start(trace.api_calls.size(),
                                         std::numeric_limits<model::TimeNs>::max());
  for (const model::GpuActivity& a : trace.activities) {
    if (a.correlation != model::kNoId) {
      index.ForEachCall(a.correlation, model::kNoId, [&](std::size_t call) {
        first_start[call] = std::min(first_start[call], a.start_ns);
      });
    }
  }
  CachedNamePredicate is_launch(trace, IsLaunchApi);
  std::vector<std::int64_t> shallow;  // durations of launches into a shallow queue
  std::vector<std::size_t> deep;      // launches into a deep queue
  for (std::size_t i = 0; i < trace.api_calls.size(); ++i) {
    const model::ApiCall& call = trace.api_calls[i];
    if (call.correlation == model::kNoId ||
        first_start[i] == std::numeric_limits<model::TimeNs>::max() || !is_launch(call.name))
      continue;
    if (first_start[i] - call.end_ns <= kDeepQueueNs)
      shallow.push_back(call.duration_ns());
    else
      deep.push_back(i);
  }
  std::int64_t unblocked =
      shallow.empty() ? kUnblockedLaunchNs : static_cast<std::int64_t>(Summarize(shallow).med);
  std::vector<BlockedLaunch> out;
  for (std::size_t i : deep) {
    std::int64_t duration = trace.api_calls[i].duration_ns();
    if (duration > kBlockedFactor * unblocked)
      out.push_back({i, duration - unblocked});
  }
  return out;
}

}  // namespace gpuperf::analysis
