// The `tensor_cores` object inside report.json's kernels[] entries (docs/report-schema.md).
#pragma once

#include "gpuperf/roofline.h"

#include <nlohmann/json.hpp>

namespace gpuperf::report {

// {used, evidence, source, instructions {opcode: count}, detail}; `instructions` is an empty
// object unless the evidence is SASS.
nlohmann::ordered_json TensorCoresJson(const TensorCoreEvidence& tensor_cores);

}  // namespace gpuperf::report
