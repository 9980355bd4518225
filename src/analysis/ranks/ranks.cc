#include "analysis/ranks/ranks.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "analysis/core/statistics.h"
#include "util/units_format.h"

namespace gpuperf::analysis {
namespace {

constexpr double kMadScale = 1.4826;  // MAD to standard deviation for normal data
constexpr double kMadFactor = 3.0;
constexpr double kMinRelative = 0.05;

struct Robust {
  double median = 0;
  double mad = 0;  // scaled
  double Margin() const { return std::max(kMadFactor * mad, kMinRelative * std::abs(median)); }
};

Robust RobustOf(const std::vector<double>& values) {
  Robust r;
  r.median = Median(values);
  std::vector<double> deviations;
  for (double v : values)
    deviations.push_back(std::abs(v - r.median));
  r.mad = kMadScale * Median(deviations);
  return r;
}

// For every rank, the instance indices of each collective name, in order.
using Instances = std::map<std::string, std::vector<std::size_t>>;

Instances InstancesByName(const ranks::RankSummary& s) {
  Instances out;
  for (std::size_t i = 0; i < s.collectives.size(); ++i)
    out[s.collective_names[s.collectives[i].name]].push_back(i);
  return out;
}

void AlignCollectives(const std::vector<ranks::RankSummary>& summaries, ranks::RanksReport& out) {
  std::vector<Instances> instances;
  for (const auto& s : summaries)
    instances.push_back(InstancesByName(s));
  std::map<std::string, std::size_t> common;  // name -> instances on every rank
  for (const auto& [name, list] : instances.front())
    common[name] = list.size();
  for (std::size_t r = 1; r < instances.size(); ++r) {
    for (auto it = common.begin(); it != common.end();) {
      auto found = instances[r].find(it->first);
      if (found == instances[r].end()) {
        out.notes.push_back(fmt::format(
            "collective {} is missing on rank {}: not aligned", it->first, out.ranks[r].rank));
        it = common.erase(it);
        continue;
      }
      if (found->second.size() != it->second) {
        out.notes.push_back(fmt::format(
            "collective {} has {} instances on rank {} and {} on rank {}: aligned over the "
            "first {}",
            it->first,
            it->second,
            out.ranks[0].rank,
            found->second.size(),
            out.ranks[r].rank,
            std::min(it->second, found->second.size())));
        it->second = std::min(it->second, found->second.size());
      }
      ++it;
    }
  }
  std::vector<std::vector<double>> lateness(summaries.size()), launch_skew(summaries.size());
  for (const auto& [name, count] : common) {
    for (std::size_t k = 0; k < count; ++k) {
      std::int64_t fastest = std::numeric_limits<std::int64_t>::max();
      std::int64_t earliest = std::numeric_limits<std::int64_t>::max();
      std::int64_t earliest_launch = std::numeric_limits<std::int64_t>::max();
      bool all_launches = true;
      for (std::size_t r = 0; r < summaries.size(); ++r) {
        const ranks::Collective& c = summaries[r].collectives[instances[r].at(name)[k]];
        fastest = std::min(fastest, c.end_ns - c.start_ns);
        earliest = std::min(earliest, c.start_ns);
        all_launches &= c.launch_ns >= 0;
        if (c.launch_ns >= 0)
          earliest_launch = std::min(earliest_launch, c.launch_ns);
      }
      for (std::size_t r = 0; r < summaries.size(); ++r) {
        const ranks::Collective& c = summaries[r].collectives[instances[r].at(name)[k]];
        ranks::RankRow& row = out.ranks[r];
        row.collective_wait_ns += (c.end_ns - c.start_ns) - fastest;
        row.compute_between_ns += c.compute_before_ns;
        lateness[r].push_back(static_cast<double>(c.start_ns - earliest));
        if (all_launches)
          launch_skew[r].push_back(static_cast<double>(c.launch_ns - earliest_launch));
      }
      ++out.aligned_collectives;
    }
  }
  for (std::size_t r = 0; r < summaries.size(); ++r) {
    ranks::RankRow& row = out.ranks[r];
    row.wait_share = row.collective_ns > 0 ? static_cast<double>(row.collective_wait_ns) /
                                                 static_cast<double>(row.collective_ns)
                                           : 0.0;
    row.arrival_lateness_median_ns = Median(lateness[r]);
    row.launch_skew_median_ns = Median(launch_skew[r]);
  }
}

void FindStragglers(ranks::RanksReport& out) {
  if (out.ranks.size() < 3) {
    out.notes.push_back(fmt::format(
        "{} rank(s): stragglers need at least 3 ranks for a robust median; compare the rows "
        "directly",
        out.ranks.size()));
    return;
  }
  std::vector<double> compute, wait;
  double collective_total = 0;
  for (const auto& r : out.ranks) {
    compute.push_back(static_cast<double>(r.compute_between_ns));
    wait.push_back(static_cast<double>(r.collective_wait_ns));
    collective_total += static_cast<double>(r.collective_ns);
  }
  Robust c = RobustOf(compute);
  Robust w = RobustOf(wait);
  double median_collective = collective_total / static_cast<double>(out.ranks.size());
  for (std::size_t i = 0; i < out.ranks.size(); ++i) {
    const ranks::RankRow& r = out.ranks[i];
    if (compute[i] > c.median + c.Margin() && c.median > 0) {
      out.stragglers.push_back(
          {r.rank,
           "slow",
           fmt::format("rank {} computes {} between collectives against a median of "
                       "{} ({:+.1f}%; bound median + max(3 MAD, 5%))",
                       r.rank,
                       util::FormatDuration(compute[i]),
                       util::FormatDuration(c.median),
                       100.0 * (compute[i] / c.median - 1.0)),
           compute[i],
           c.median});
    }
    if (w.median >= kMinRelative * median_collective && wait[i] < w.median - w.Margin()) {
      out.stragglers.push_back(
          {r.rank,
           "late",
           fmt::format("rank {} waits {} in collectives against a median of {}: "
                       "the other ranks wait for it (bound median - max(3 MAD, 5%))",
                       r.rank,
                       util::FormatDuration(wait[i]),
                       util::FormatDuration(w.median)),
           wait[i],
           w.median});
    }
  }
}

}  // namespace

ranks::RanksReport AnalyzeRanks(const std::vector<ranks::RankSummary>& input) {
  ranks::RanksReport out;
  out.method =
      "Collectives (NCCL/RCCL kernels) are aligned by sequence per kernel name. Wait = an "
      "instance's duration minus the fastest rank's duration of the same collective (durations "
      "need no clock sync). Arrival lateness and launch skew compare start times across ranks "
      "and assume synchronized host clocks. Stragglers: 'slow' when computation between "
      "collectives exceeds the median by max(3 MAD, 5%); 'late' when collective wait is below "
      "the median by max(3 MAD, 5%) while the median wait is at least 5% of collective time.";
  std::vector<ranks::RankSummary> summaries = input;
  std::stable_sort(summaries.begin(), summaries.end(), [](const auto& a, const auto& b) {
    return a.rank.value_or(std::numeric_limits<std::int64_t>::max()) <
           b.rank.value_or(std::numeric_limits<std::int64_t>::max());
  });
  for (std::size_t i = 0; i < summaries.size(); ++i) {
    const ranks::RankSummary& s = summaries[i];
    ranks::RankRow row;
    row.rank = s.rank.value_or(-1);
    row.path = s.path;
    row.host = s.host;
    row.steps = static_cast<std::int64_t>(s.step_ns.size());
    row.step_median_ns = Median(std::vector<double>(s.step_ns.begin(), s.step_ns.end()));
    row.timeline = s.timeline;
    row.collectives = static_cast<std::int64_t>(s.collectives.size());
    for (const auto& c : s.collectives)
      row.collective_ns += c.end_ns - c.start_ns;
    const report::Timeline& t = s.timeline;
    row.overlap_share = t.communication_ns > 0
                            ? static_cast<double>(t.communication_ns - t.exposed_communication_ns) /
                                  static_cast<double>(t.communication_ns)
                            : 0.0;
    row.clocks = s.clocks;
    out.world_size = std::max(out.world_size, s.world_size.value_or(0));
    out.ranks.push_back(std::move(row));
  }
  std::map<std::int64_t, int> seen;
  for (const auto& r : out.ranks) {
    if (r.rank >= 0 && ++seen[r.rank] == 2)
      out.notes.push_back(fmt::format("rank {} appears more than once", r.rank));
  }
  if (!summaries.empty())
    AlignCollectives(summaries, out);
  FindStragglers(out);
  if (out.world_size > static_cast<std::int64_t>(out.ranks.size()))
    out.notes.push_back(
        fmt::format("{} of {} ranks of the job are here (a sample): cross-rank "
                    "figures describe these ranks only",
                    out.ranks.size(),
                    out.world_size));
  return out;
}

}  // namespace gpuperf::analysis
