// The rank files of `gpuperf ranks`: expands directories (gpuperf recordings with rank-*/
// subdirectories, baseline directories, folders of traces) and reads each rank into a
// ranks::RankSummary on a pool of threads, one trace in memory per thread.
#pragma once

#include "gpuperf/ranks.h"

#include <string>
#include <vector>

namespace gpuperf::cli {

struct RankInput {
  std::string path;    // a trace or a summary.json
  std::string clocks;  // from the rank's baseline.json, when it has one
};

// Directories are expanded; files are kept. Unreadable directories become errors.
std::vector<RankInput> ExpandRankInputs(const std::vector<std::string>& arguments,
                                        std::vector<ranks::FileError>& errors);

// Reads every input with `jobs` threads (0: hardware concurrency). A file that fails becomes an
// error and the others are still read.
std::vector<ranks::RankSummary> ReadRanks(const std::vector<RankInput>& inputs,
                                          unsigned jobs,
                                          std::vector<ranks::FileError>& errors);

}  // namespace gpuperf::cli
