// Kernel names as tables show them (src/report/readable_name.h).
#include "analysis/kernel/readable_name.h"

#include <catch2/catch.hpp>

using gpuperf::analysis::KernelWithOperator;
using gpuperf::analysis::ReadableKernelName;

TEST_CASE("Readable kernel names keep the name and the first template argument", "[report]") {
  CHECK(ReadableKernelName("void at::native::elementwise_kernel<128, 4, "
                           "at::native::gpu_kernel_impl<at::native::MulFunctor<float>>>(int, "
                           "at::native::gpu_kernel_impl<...>)") ==
        "at::native::elementwise_kernel<128, …>");
  CHECK(ReadableKernelName("void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_"
                           "align4>(cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4::Params)") ==
        "cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4>");
  CHECK(ReadableKernelName("void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, "
                           "float>(float*, float const*, int)") ==
        "at::native::(anonymous namespace)::cunn_SoftMaxForward<4, …>");
  CHECK(ReadableKernelName("sm90_xmma_gemm_bf16bf16_bf16f32") == "sm90_xmma_gemm_bf16bf16_bf16f32");
  CHECK(ReadableKernelName("Memcpy DtoH (Device -> Pinned)") == "Memcpy DtoH");
  CHECK(ReadableKernelName("void k<std::tuple<int, float>>()") == "k<std::tuple>");
  CHECK(ReadableKernelName("(") == "(");  // nothing readable left: the name itself
}

TEST_CASE("A kernel with its operator keeps the operator whole", "[report]") {
  std::string long_kernel(200, 'k');
  std::string shown = KernelWithOperator(long_kernel, "aten::mul", 60);
  CHECK(shown.ends_with(" [aten::mul]"));
  CHECK(shown.find("…") != std::string::npos);
  CHECK(KernelWithOperator("gemm_kernel", "", 60) == "gemm_kernel");
  CHECK(KernelWithOperator("gemm_kernel", "aten::mm", 60) == "gemm_kernel [aten::mm]");
}

TEST_CASE("Kernels whose readable names coincide are told apart by where they differ", "[report]") {
  // Two lambdas of one function (CloverLeaf's PdV_kernel): the readable names are equal, the
  // full names differ only in the lambda's instance number near their ends.
  const std::string head =
      "void clover::par_ranged2d_kernel<PdV_kernel(bool, int, double &)::[lambda(int, int) ";
  std::vector<gpuperf::report::KernelRow> rows(3);
  rows[0].name = head + "(instance 2)]>(clover::Range2d, T1)";
  rows[1].name = head + "(instance 1)]>(clover::Range2d, T1)";
  rows[2].name = "void other_kernel<float>(float *)";
  gpuperf::analysis::AttachReadableNames(rows);
  // A function type inside the template argument reads "(…)": no unclosed parenthesis.
  CHECK(rows[0].readable_name ==
        "clover::par_ranged2d_kernel<PdV_kernel(…)::[lambda(…) (…)]> … (instance 2)");
  CHECK(rows[1].readable_name ==
        "clover::par_ranged2d_kernel<PdV_kernel(…)::[lambda(…) (…)]> … (instance 1)");
  CHECK(rows[2].readable_name == "other_kernel<float>");
  // A difference inside a long group falls back to a window around it.
  rows[0].name = "void k<" + std::string(70, 'a') + "1>()";
  rows[1].name = "void k<" + std::string(70, 'a') + "2>()";
  gpuperf::analysis::AttachReadableNames(rows);
  // The window starts at the word the difference is in (at most 20 characters back).
  CHECK(rows[0].readable_name == "k<…> … " + std::string(20, 'a') + "1>()");
  CHECK(rows[1].readable_name == "k<…> … " + std::string(20, 'a') + "2>()");
  // A template group is shown with the name it belongs to.
  rows[0].name = "void fill<at::native::FillFunctor<int>, 4>()";
  rows[1].name = "void fill<at::native::FillFunctor<float>, 4>()";
  gpuperf::analysis::AttachReadableNames(rows);
  CHECK(rows[0].readable_name == "fill<at::native::FillFunctor, …> … FillFunctor<int>");
}

TEST_CASE("LambdaRoutine: the function whose lambda a kernel template instantiates",
          "[readable_name]") {
  using gpuperf::analysis::LambdaRoutine;
  // NVCC's spelling, the routine's parameters holding nested parentheses and templates.
  CHECK(LambdaRoutine("void clover::par_ranged2d_kernel<advec_mom_kernel(int, int, "
                      "clover::Buffer2D<double> &, void (*)(int))::[lambda(int, int) (instance "
                      "2)]>(clover::Range2d, T1)") == "advec_mom_kernel");
  // The Itanium demangler's, a qualified routine.
  CHECK(LambdaRoutine("void Kokkos::Impl::cuda_parallel_launch<Kokkos::Impl::ParallelFor<"
                      "app::Solver::step(double)::{lambda(int)#1}, Kokkos::RangePolicy<>>>()") ==
        "app::Solver::step");
  // A lambda of a function without parameters in its name.
  CHECK(LambdaRoutine("void launch<main::{lambda(int)#2}>(int)") == "main");
  // No lambda, or nothing before it.
  CHECK(LambdaRoutine("void at::native::vectorized_elementwise_kernel<4>(int)").empty());
  CHECK(LambdaRoutine("::[lambda(int)]").empty());
  CHECK(LambdaRoutine("k<f(int))::[lambda(int)]>").empty());  // unbalanced
}
