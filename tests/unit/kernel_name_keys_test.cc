#include "util/kernel_name_keys.h"

#include <catch2/catch.hpp>

using namespace gpuperf::util;

TEST_CASE("kernel name keys: one kernel spelled by CUPTI, ncu, cuobjdump and nsys", "[names]") {
  // CUPTI (Kineto, nsys demangled) and unmodified Nsight Compute of one CUTLASS kernel.
  const char* cupti = "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm>(cutlass_80_x::Params)";
  const char* ncu = "void Kernel2<cutlass_80_tensorop_s1688gemm>(Params)";
  CHECK(SignatureKey(cupti) != SignatureKey(ncu));
  CHECK(NormalKey(cupti) == NormalKey(ncu));
  CHECK(NormalKey(cupti) == "Kernel2<cutlass_80_tensorop_s1688gemm>");
  CHECK(BaseName(cupti) == "Kernel2");
  // Spacing and the leading "void" do not matter to the signature key; parameters never do.
  CHECK(SignatureKey("  void f<std::pair<int, int> >(float *, int) ") == "f<std::pair<int,int>>");
  CHECK(SignatureKey("f<std::pair<int,int>>(float*)") == "f<std::pair<int,int>>");
  CHECK(WithoutParameters(" g(h(1), 2) ") == "g");
  CHECK(WithoutParameters("k") == "k");
  // A return type other than void stays in the signature key but not in the others.
  CHECK(NormalKey("enable_if<!T7, void>::type ns::k<a::B>(int)") == "k<B>");
  CHECK(NormalKey("(anonymous namespace)::k(int)") == "k");
  CHECK(IsBareName("ampere_sgemm_128x64_nn"));
  CHECK_FALSE(IsBareName("k<int>"));
  CHECK_FALSE(IsBareName(""));
}
