#include "cli/suggest.h"

#include <algorithm>
#include <numeric>

namespace gpuperf::cli {

std::size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
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
