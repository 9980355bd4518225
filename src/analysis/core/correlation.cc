#include "analysis/core/correlation.h"

#include <algorithm>
#include <stdexcept>

#include "util/sort_runs.h"

namespace gpuperf::analysis {
namespace {

// Earliest start wins; on a tie the longer record (the enclosing one).
bool StandsBefore(const model::ApiCall& call, const model::ApiCall& current) {
  return call.start_ns < current.start_ns ||
         (call.start_ns == current.start_ns && call.end_ns > current.end_ns);
}

}  // namespace

CorrelationIndex::CorrelationIndex(const model::Trace& trace)
    : trace_(trace), is_primary_(trace.api_calls.size(), true) {
  const auto& calls = trace.api_calls;
  if (calls.size() > UINT32_MAX)
    throw std::length_error("more than 2^32 host API calls in one trace");
  grouped_.reserve(calls.size());
  for (std::size_t i = 0; i < calls.size(); ++i) {
    if (calls[i].correlation != model::kNoId)
      grouped_.push_back(static_cast<std::uint32_t>(i));
  }
  // Trace order inside a group; each thread's calls come with rising ids, so runs merge.
  util::SortRuns(grouped_.begin(), grouped_.end(), [&](std::uint32_t a, std::uint32_t b) {
    return calls[a].correlation < calls[b].correlation ||
           (calls[a].correlation == calls[b].correlation && a < b);
  });
  std::vector<std::pair<std::int64_t, std::pair<std::uint32_t, std::uint32_t>>> groups;
  for (std::size_t begin = 0; begin < grouped_.size();) {
    std::int64_t correlation = calls[grouped_[begin]].correlation;
    std::size_t end = begin + 1;
    while (end < grouped_.size() && calls[grouped_[end]].correlation == correlation)
      ++end;
    groups.push_back(
        {correlation,
         std::pair{static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end - begin)}});
    begin = end;
  }
  // Sorted by id: the range is last - first. Compared without overflow (ids may be anything).
  const bool dense = !groups.empty() && static_cast<std::uint64_t>(groups.back().first) -
                                                static_cast<std::uint64_t>(groups.front().first) <
                                            static_cast<std::uint64_t>(kDenseSlack) * groups.size();
  if (dense) {
    dense_base_ = groups.front().first;
    dense_.assign(static_cast<std::size_t>(groups.back().first - dense_base_) + 1, {0, 0});
    for (const auto& [correlation, span] : groups)
      dense_[static_cast<std::size_t>(correlation - dense_base_)] = span;
  } else {
    groups_.reserve(groups.size());
    for (const auto& [correlation, span] : groups)
      groups_.emplace(correlation, span);
  }
  for (std::uint32_t index : grouped_) {
    if (PrimaryCall(calls[index].correlation, calls[index].pid) != index)
      is_primary_[index] = false;
  }
}

std::span<const std::uint32_t> CorrelationIndex::Group(std::int64_t correlation) const {
  if (correlation == model::kNoId)
    return {};
  if (!dense_.empty()) {
    // Unsigned: an id below the base wraps to a huge offset and fails the bound check.
    std::uint64_t slot =
        static_cast<std::uint64_t>(correlation) - static_cast<std::uint64_t>(dense_base_);
    if (slot >= dense_.size())
      return {};
    const auto& [offset, count] = dense_[slot];
    return std::span<const std::uint32_t>(grouped_).subspan(offset, count);
  }
  auto it = groups_.find(correlation);
  if (it == groups_.end())
    return {};
  return std::span<const std::uint32_t>(grouped_).subspan(it->second.first, it->second.second);
}

std::vector<std::size_t> CorrelationIndex::Calls(std::int64_t correlation, std::int64_t pid) const {
  std::vector<std::size_t> calls;
  ForEachCall(correlation, pid, [&](std::size_t index) { calls.push_back(index); });
  return calls;
}

std::int64_t CorrelationIndex::PrimaryCall(std::int64_t correlation, std::int64_t pid) const {
  std::int64_t best = -1;
  for (std::uint32_t index : Group(correlation)) {
    const model::ApiCall& call = trace_.api_calls[index];
    if (!PidsAgree(call.pid, pid))
      continue;
    if (best < 0 || StandsBefore(call, trace_.api_calls[static_cast<std::size_t>(best)]))
      best = index;
  }
  return best;
}

}  // namespace gpuperf::analysis
