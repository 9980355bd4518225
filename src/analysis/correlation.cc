#include "analysis/correlation.h"

namespace gpuperf::analysis {
namespace {

bool PidsAgree(std::int64_t a, std::int64_t b) {
  return a == model::kNoId || b == model::kNoId || a == b;
}

}  // namespace

CorrelationIndex::CorrelationIndex(const model::Trace& trace) : trace_(trace) {
  for (std::size_t i = 0; i < trace.api_calls.size(); ++i) {
    std::int64_t correlation = trace.api_calls[i].correlation;
    if (correlation != model::kNoId)
      by_correlation_[correlation].push_back(i);
  }
}

std::vector<std::size_t> CorrelationIndex::Calls(std::int64_t correlation, std::int64_t pid) const {
  std::vector<std::size_t> calls;
  if (correlation == model::kNoId)
    return calls;
  auto it = by_correlation_.find(correlation);
  if (it == by_correlation_.end())
    return calls;
  for (std::size_t index : it->second) {
    if (PidsAgree(trace_.api_calls[index].pid, pid))
      calls.push_back(index);
  }
  return calls;
}

std::int64_t CorrelationIndex::PrimaryCall(std::int64_t correlation, std::int64_t pid) const {
  std::int64_t best = -1;
  for (std::size_t index : Calls(correlation, pid)) {
    const model::ApiCall& call = trace_.api_calls[index];
    if (best < 0) {
      best = static_cast<std::int64_t>(index);
      continue;
    }
    const model::ApiCall& current = trace_.api_calls[static_cast<std::size_t>(best)];
    // Earliest start wins; on a tie the longer record (the enclosing one).
    if (call.start_ns < current.start_ns ||
        (call.start_ns == current.start_ns && call.end_ns > current.end_ns)) {
      best = static_cast<std::int64_t>(index);
    }
  }
  return best;
}

bool CorrelationIndex::IsPrimary(std::size_t index) const {
  const model::ApiCall& call = trace_.api_calls[index];
  if (call.correlation == model::kNoId)
    return true;
  return PrimaryCall(call.correlation, call.pid) == static_cast<std::int64_t>(index);
}

}  // namespace gpuperf::analysis
