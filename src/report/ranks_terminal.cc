#include "report/ranks_terminal.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "report/markdown_escape.h"
#include "util/units_format.h"

namespace gpuperf::report {
namespace {

// Rows shown: every straggler, then ranks in order until `max_rows`.
std::vector<const ranks::RankRow*> ShownRows(const ranks::RanksReport& r, std::size_t max_rows) {
  std::set<std::int64_t> stragglers;
  for (const ranks::Straggler& s : r.stragglers)
    stragglers.insert(s.rank);
  std::vector<const ranks::RankRow*> shown;
  for (const ranks::RankRow& row : r.ranks) {
    if (stragglers.count(row.rank) > 0)
      shown.push_back(&row);
  }
  for (const ranks::RankRow& row : r.ranks) {
    if (shown.size() >= std::max(max_rows, stragglers.size()))
      break;
    if (stragglers.count(row.rank) == 0)
      shown.push_back(&row);
  }
  std::sort(
      shown.begin(), shown.end(), [](const auto* a, const auto* b) { return a->rank < b->rank; });
  return shown;
}

std::string Share(std::int64_t part, std::int64_t whole) {
  return whole > 0
             ? util::FormatPercent(100.0 * static_cast<double>(part) / static_cast<double>(whole))
             : "-";
}

}  // namespace

std::string RanksToTerminal(const ranks::RanksReport& r, std::size_t max_rows) {
  std::set<std::int64_t> stragglers;
  for (const ranks::Straggler& s : r.stragglers)
    stragglers.insert(s.rank);
  std::string out = fmt::format("{} rank(s){}, {} unreadable, {} straggler(s)\n\n",
                                r.ranks.size(),
                                r.world_size > 0 ? fmt::format(" of {}", r.world_size) : "",
                                r.errors.size(),
                                r.stragglers.size());
  out += fmt::format("{:>6} {:>6} {:>10} {:>10} {:>7} {:>7} {:>7} {:>8}  {}\n",
                     "rank",
                     "steps",
                     "step med",
                     "wall",
                     "busy",
                     "idle",
                     "comm",
                     "wait",
                     "straggler");
  for (const ranks::RankRow* row : ShownRows(r, max_rows)) {
    const report::Timeline& t = row->timeline;
    out += fmt::format("{:>6} {:>6} {:>10} {:>10} {:>7} {:>7} {:>7} {:>8}  {}\n",
                       row->rank,
                       row->steps,
                       row->steps > 0 ? util::FormatDuration(row->step_median_ns) : "-",
                       util::FormatDuration(static_cast<double>(t.total_ns)),
                       Share(t.busy_ns, t.total_ns),
                       Share(t.idle_ns, t.total_ns),
                       Share(t.communication_ns, t.total_ns),
                       row->collective_ns > 0 ? util::FormatPercent(100.0 * row->wait_share) : "-",
                       stragglers.count(row->rank) > 0 ? "yes" : "");
  }
  const std::size_t shown = std::min(r.ranks.size(), std::max(max_rows, stragglers.size()));
  if (shown < r.ranks.size())
    out += fmt::format("  ... {} more rank(s) in ranks.md\n", r.ranks.size() - shown);
  if (!r.stragglers.empty())
    out += "\n";
  for (const ranks::Straggler& s : r.stragglers) {
    out += fmt::format(
        "rank {} ({}): {}\n", s.rank, SanitizeForTerminal(s.kind), SanitizeForTerminal(s.reason));
  }
  return out;
}

}  // namespace gpuperf::report
