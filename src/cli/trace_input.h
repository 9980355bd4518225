// A trace file as every command analyses it: imported, then its device ids resolved against the
// devices it describes (a HIP/CUDA_VISIBLE_DEVICES remap), so that analyze, compare, predict and
// ranks find the same ceilings for the same file.
#pragma once

#include "gpuperf/result.h"
#include "gpuperf/trace.h"

#include <string>

namespace gpuperf::cli {

Result<model::Trace> ImportTraceForAnalysis(const std::string& path);

}  // namespace gpuperf::cli
