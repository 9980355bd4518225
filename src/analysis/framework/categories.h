// The work category of a GPU activity (report.json `categories[]`, docs/metrics.md "Categories"):
// the launching operator's name decides first, the kernel name second; copies and memsets by
// their activity kind. Names are matched as tokens, case-insensitively, so that "aten::mm"
// and "gemm" in "sm90_xmma_gemm_bf16" count while "comm" in "community" does not.
#pragma once

#include "gpuperf/report_vocabulary.h"

#include <optional>
#include <string_view>

namespace gpuperf::analysis::framework {

using report::FrameworkCategory;  // gpuperf/report_vocabulary.h, with its ToString
using report::kFrameworkCategoryCount;

// The category an operator name implies ("aten::addmm" -> gemm, "c10d::allreduce_" ->
// communication, "vllm::all_reduce" -> communication); nullopt when the name does not say
// (a launch call's name, a user op, a container such as "aten::linear" is still gemm).
std::optional<FrameworkCategory> CategoryOfOperator(std::string_view op_name);

// The category a kernel name implies; kOther when nothing matches.
FrameworkCategory CategoryOfKernel(std::string_view kernel_name);

}  // namespace gpuperf::analysis::framework
