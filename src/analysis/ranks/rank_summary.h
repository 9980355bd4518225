// One rank's trace reduced to what the cross-rank analysis needs (ranks::RankSummary).
#pragma once

#include "gpuperf/ranks.h"
#include "gpuperf/trace.h"

#include <optional>
#include <string>

namespace gpuperf::analysis {

// Steps are ProfilerStep ranges, else the most frequent NVTX / user-annotation range name with at
// least two instances. The rank comes from the trace (distributedInfo), else `rank_from_name`.
ranks::RankSummary SummarizeRank(const model::Trace& trace,
                                 std::optional<std::int64_t> rank_from_name);

// A rank number from a file name: "rank-3", "rank_3", "rank3", "worker3", ".r3." (the recorder's
// host.pid.rN naming), "rank-00003-host" (a gpuperf rank directory). Nullopt when none.
std::optional<std::int64_t> RankFromFileName(const std::string& path);

}  // namespace gpuperf::analysis
