// The two spellings the baseline model owns (include/gpuperf/baseline.h): shared by the recorder's
// messages and the report writers, so both say a stop reason and an outcome the same way.
#include "gpuperf/baseline.h"

#include <cstring>

namespace gpuperf::baseline {

std::string_view ToString(StopReason reason) {
  switch (reason) {
    case StopReason::kFixedCount:
      return "fixed_count";
    case StopReason::kConverged:
      return "converged";
    case StopReason::kTimeBudget:
      return "time_budget";
    case StopReason::kMaxRuns:
      return "max_runs";
    case StopReason::kInterrupted:
      return "interrupted";
  }
  return "unknown";
}

std::string DescribeOutcome(const RunOutcome& outcome) {
  if (!outcome.signaled)
    return "exit code " + std::to_string(outcome.exit_code);
  const char* name = strsignal(outcome.signal);
  return "signal " + std::to_string(outcome.signal) + " (" + (name ? name : "?") + ")";
}

}  // namespace gpuperf::baseline
