#include "cli/suggest.h"

#include <algorithm>
#include <vector>

namespace gpuperf::cli {

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
// adjacent characters cost 1 each ("--otu" is one step from "--out", two from "--gpu").
std::size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i)
    d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j)
    d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::optional<std::string> Nearest(std::string_view typed, const std::vector<std::string>& known) {
  std::optional<std::string> best;
  std::size_t best_distance = 3;
  for (const std::string& candidate : known) {
    const std::size_t distance = EditDistance(typed, candidate);
    if (distance < best_distance && distance * 2 < typed.size()) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace gpuperf::cli
