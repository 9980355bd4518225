// Kernel names as a reviewer reads them in a table: "void at::native::elementwise_kernel<128, 4,
// ...>(int, ...)" -> "at::native::elementwise_kernel<…>". report.json keeps the full name.
#pragma once

#include "gpuperf/framework.h"
#include "gpuperf/report.h"

#include <string>
#include <string_view>
#include <vector>

namespace gpuperf::analysis {

// Drops a leading "void " and the parameter list, and shortens each outermost template argument
// list to its first argument (itself without template arguments; elided when longer than 64
// characters): "cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4>" stays,
// "at::native::elementwise_kernel<128, 4, ...>" becomes "at::native::elementwise_kernel<128, …>".
std::string ReadableKernelName(std::string_view name);

// The function whose lambda a kernel template instantiates: "void clover::par_ranged2d_kernel<
// PdV_kernel(bool, int, ...)::[lambda(int, int) (instance 1)]>(...)" (NVCC) or "...<main::{lambda(
// int)#1}>" (the Itanium demangler) -> "PdV_kernel", "main". Frameworks that launch every loop
// through one kernel template (CloverLeaf's par_ranged2d_kernel, Kokkos, RAJA, SYCL) name a
// routine's kernels only this way. "" when no lambda is a template argument.
std::string_view LambdaRoutine(std::string_view name);

// Sets KernelRow::readable_name of every row, for report.md's tables.
void AttachReadableNames(std::vector<report::KernelRow>& kernels);

// ReadableKernelName plus the launching operator, within `max_chars` characters: the kernel part
// is shortened first, so the operator stays readable: "at::native::elementwise_kernel<128, …>
// [aten::mul]". Without an operator, the readable name alone.
std::string KernelWithOperator(std::string_view kernel, std::string_view op, std::size_t max_chars);

// An operator row's name as report.md and the diagnosis' sentences show it. GPU work launched
// outside any operator forms a row named after its launch call (TraceLens' definition, kept in
// report.json: source "launch_call"); shown bare, "cudaLaunchKernel" reads like an operator, so
// such a row reads "(no operator) via cudaLaunchKernel". Other rows keep their name.
std::string OperatorDisplayName(std::string_view name, report::OperatorSource source);
// The same for a name listed elsewhere (a category's top operators): looked up in the view.
std::string OperatorDisplayName(const report::FrameworkView& view, std::string_view name);

}  // namespace gpuperf::analysis
