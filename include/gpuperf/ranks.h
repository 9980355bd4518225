// Multi-rank jobs: one summary per rank (what `gpuperf analyze --summary` writes and `gpuperf
// ranks` reads or computes), and the cross-rank report (docs/ranks.md).
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/schema_versions.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuperf::ranks {

// One communication (NCCL/RCCL) kernel instance of a rank, in the rank's order.
struct Collective {
  std::uint32_t name = 0;  // index into RankSummary::collective_names
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::int64_t launch_ns = -1;         // start of its launch call; -1 when unknown
  std::int64_t compute_before_ns = 0;  // computation kernel time since the previous collective
};

// Everything the cross-rank analysis needs from one rank, small enough to hold thousands.
struct RankSummary {
  std::string path;
  std::optional<std::int64_t> rank;
  std::optional<std::int64_t> world_size;
  std::string host;
  std::vector<std::string> devices;
  std::vector<std::int64_t> step_ns;  // iteration durations
  std::string step_source;            // "ProfilerStep", "NVTX range <name>", or empty
  report::Timeline timeline;
  std::vector<std::string> collective_names;
  std::vector<Collective> collectives;  // by start time
  std::string clocks;  // the rank's GPU clocks / temperature / throttle reasons when recorded
};

struct RankRow {
  std::int64_t rank = -1;
  std::string path;
  std::string host;
  std::int64_t steps = 0;
  double step_median_ns = 0;
  report::Timeline timeline;
  std::int64_t collectives = 0;
  std::int64_t collective_ns = 0;
  std::int64_t collective_wait_ns = 0;    // time in collectives beyond the fastest rank's
  double wait_share = 0;                  // collective_wait_ns / collective_ns
  double overlap_share = 0;               // communication overlapped by computation / comm
  std::int64_t compute_between_ns = 0;    // summed computation between aligned collectives
  double arrival_lateness_median_ns = 0;  // collective start - earliest rank's start
  double launch_skew_median_ns = 0;       // launch call - earliest rank's launch call
  std::string clocks;
};

struct Straggler {
  std::int64_t rank = -1;
  std::string kind;    // "slow" (longer compute between collectives), "late" (waits least)
  std::string reason;  // one sentence with the numbers
  double value = 0;
  double median = 0;
};

struct FileError {
  std::string path;
  std::string error;
};

struct RanksReport {
  std::int64_t world_size = 0;  // as the ranks state it (0 when none does)
  std::vector<RankRow> ranks;   // by rank
  std::vector<Straggler> stragglers;
  std::vector<FileError> errors;
  std::int64_t aligned_collectives = 0;  // collectives matched across all ranks
  std::string method;
  std::vector<std::string> notes;
};

}  // namespace gpuperf::ranks
