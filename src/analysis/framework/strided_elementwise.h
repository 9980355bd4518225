// PyTorch's strided elementwise path (docs/metrics.md, "Lever bounds"): TensorIterator runs
// contiguous operands through vectorized_elementwise_kernel (or unrolled_elementwise_kernel when
// they are misaligned), and anything else (a transposed view, a broadcast operand, a slice)
// through elementwise_kernel, which computes every element's offsets and loads without vectors.
// RoPE on q/k after a transpose runs there at a quarter to half of the DRAM bandwidth.
#pragma once

#include "gpuperf/report.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpuperf::analysis::framework {

struct StridedElementwise {
  std::int64_t time_ns = 0;                // the strided kernels' time, from the kernel table
  std::int64_t kernels = 0;                // their instances
  std::vector<std::string> top_operators;  // the launching operators with the most of it
};

// Whether a kernel name is the strided path (at::native::elementwise_kernel<...>).
bool IsStridedElementwiseKernel(std::string_view name);

// The strided kernels of the report's kernel table.
StridedElementwise StridedElementwiseOf(const report::AnalysisReport& r);

}  // namespace gpuperf::analysis::framework
