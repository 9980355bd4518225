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
