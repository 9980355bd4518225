// report.json's `diagnosis`, `initialization` and `ceilings[]` sections, and kernels[].classification
// (docs/report-schema.md).
#pragma once

#include "gpuperf/report.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace gpuperf::report {

nlohmann::ordered_json DiagnosisJson(const Diagnosis& diagnosis);
nlohmann::ordered_json InitializationJson(const Initialization& initialization);
nlohmann::ordered_json CeilingsJson(const std::vector<CeilingsUsed>& ceilings);
nlohmann::ordered_json KernelClassJson(const KernelClass& classification);

}  // namespace gpuperf::report
