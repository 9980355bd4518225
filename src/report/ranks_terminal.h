// The table `gpuperf ranks` prints on the terminal: one row per rank (stragglers marked), the
// stragglers' reasons, at most `max_rows` rows so that 4,096 ranks stay one screen.
#pragma once

#include "gpuperf/ranks.h"

#include <cstddef>
#include <string>

namespace gpuperf::report {

std::string RanksToTerminal(const ranks::RanksReport& report, std::size_t max_rows);

}  // namespace gpuperf::report
