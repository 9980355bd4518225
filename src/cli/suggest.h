// "Did you mean": the closest known spelling of a mistyped command or option.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuperf::cli {

// Levenshtein distance between two short strings (bytes).
std::size_t EditDistance(std::string_view a, std::string_view b);

// The candidate nearest to `typed`, when it is near enough to be a typo: at most 2 edits and
// fewer than half of the typed characters (so "--x" never suggests "--out").
std::optional<std::string> Nearest(std::string_view typed, const std::vector<std::string>& known);

}  // namespace gpuperf::cli
