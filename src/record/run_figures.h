// The per-run figures of baseline.json (runs[]), counted from a run's spools.
#pragma once

#include "gpuperf/baseline.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "io/spool/spool_reader.h"

namespace gpuperf::record {

using baseline::RunFigures;

RunFigures ComputeRunFigures(const std::vector<io::SpoolContents>& processes);

}  // namespace gpuperf::record
