// The cross-rank analysis of one job (`gpuperf ranks`, docs/ranks.md): per-rank breakdown,
// collective waiting and arrival skew, and stragglers named by a stated robust rule.
#pragma once

#include "gpuperf/ranks.h"

#include <vector>

namespace gpuperf::analysis {

// Collectives are aligned by sequence: the k-th instance of a collective kernel name on every
// rank is the same collective (NCCL runs a communicator's collectives in issue order). A name
// whose instance count differs between ranks is aligned over the shortest count, with a note.
//
// Stragglers (at least 3 ranks; robust statistics over ranks: median m and MAD scaled by 1.4826):
//  - "slow": computation between aligned collectives above m + max(3 MAD, 5% of m);
//  - "late": time waiting in collectives below m - max(3 MAD, 5% of m), while the median wait is
//    at least 5% of collective time: the others wait for this rank.
ranks::RanksReport AnalyzeRanks(const std::vector<ranks::RankSummary>& summaries);

}  // namespace gpuperf::analysis
