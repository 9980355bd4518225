// Loads one side of `gpuperf compare` / `gpuperf predict`: a baseline directory (baseline.json
// and the traces of its measured runs), a trace of any format we import, or a gpuperf
// report.json. Content decides, as for `analyze`.
#pragma once

#include "gpuperf/compare.h"
#include "gpuperf/result.h"

#include <string>

namespace gpuperf::cli {

Result<compare::Side> LoadSide(const std::string& path);

}  // namespace gpuperf::cli
