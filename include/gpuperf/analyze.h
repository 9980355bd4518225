// The analysis entry point: pure functions from a Trace to an AnalysisReport.
#pragma once

#include "gpuperf/kernel_model.h"
#include "gpuperf/report.h"
#include "gpuperf/sass.h"
#include "gpuperf/trace.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace gpuperf::analysis {

struct AnalyzeOptions {
  // Rows kept per finding table (the rest are counted in Finding::rows_omitted).
  std::int64_t finding_rows = 50;
  // GPU gaps at least this long are reported (nsys analyze gpu_gaps default: 500 ms).
  std::int64_t gap_threshold_ns = 500'000'000;
  // Low-utilization windows: the GPU span split in this many chunks, flagged under this percent.
  std::int32_t utilization_chunks = 30;
  double utilization_threshold_percent = 50.0;
  // Kernels kept in predictions.kernels (ranked by recoverable or critical time); all by
  // default, so that `gpuperf predict` can read any kernel back from report.json.
  std::size_t prediction_rows = SIZE_MAX;
  // SASS functions of the traced program (`analyze --sass`, read by io/sass): evidence of
  // tensor-core use per kernel (analysis/kernel/tensor_cores.h). Empty: counters and names only.
  std::vector<model::SassFunction> sass;
  // The user model file (`analyze --model`, read by io/kernel_model): FLOP and byte formulas per
  // kernel-name pattern, for kernels without counters; before the shape models.
  std::optional<model::KernelModelFile> kernel_model;
  // `analyze --step-range REGEX`: steps are the host ranges and operators whose name matches
  // (ECMAScript); empty: ProfilerStep#N. The CLI checks that it compiles.
  std::string step_range;
};

report::AnalysisReport Analyze(const model::Trace& trace, const AnalyzeOptions& options = {});

}  // namespace gpuperf::analysis
