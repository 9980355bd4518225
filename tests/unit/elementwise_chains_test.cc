// The fusion lever's chains (src/analysis/framework/elementwise_chains.cc): maximal runs of
// kernels launched by elementwise and layout-copy operators on one thread, and the least traffic
// each could move fused. Figures by hand against the A100 SXM4 80GB's 2039 GB/s.
#include "gpuperf/analyze.h"

#include <catch2/catch.hpp>

#include "analysis_builder.h"

namespace {

using gpuperf::testing::TraceBuilder;

// An operator on thread `tid` at [t, t + 50] launching one 10 us kernel at `gpu_start`.
void Launch(TraceBuilder& b,
            const std::string& op,
            const std::string& dims,
            const std::string& types,
            std::int64_t t,
            std::int64_t gpu_start,
            std::int64_t tid = 101) {
  static std::int64_t correlation = 0;
  gpuperf::model::HostOp& host = b.Op(op, t, t + 50, tid);
  if (!dims.empty()) {
    host.input_dims = b.trace.strings.Intern(dims);
    host.input_types = b.trace.strings.Intern(types);
  }
  b.Api("cudaLaunchKernel", t + 10, t + 20, ++correlation).tid = tid;
  b.Kernel(op == "aten::mm" ? "sm80_xmma_gemm_f32" : "vectorized_elementwise_kernel",
           gpu_start,
           gpu_start + 10'000,
           correlation);
}

}  // namespace

TEST_CASE("Elementwise chains: runs broken by other kernels, floored by their largest tensor",
          "[framework]") {
  TraceBuilder b;
  gpuperf::model::Device device;
  device.name = "NVIDIA A100-SXM4-80GB";
  device.compute_major = 8;
  b.trace.devices.push_back(device);
  // Chain 1: a bf16 -> fp32 cast and a square (1019500 elements; narrowest type bf16).
  Launch(b, "aten::to", "[[1019500]]", R"(["c10::BFloat16"])", 0, 100'000);
  // Another thread's GEMM between them does not break this thread's chain.
  Launch(b, "aten::mm", "[[8,8],[8,8]]", R"(["float","float"])", 60, 110'000, 102);
  Launch(b, "aten::pow", "[[1019500],[]]", R"(["float","Scalar"])", 100, 120'000);
  // A GEMM on the same thread ends it.
  Launch(b, "aten::mm", "[[8,8],[8,8]]", R"(["float","float"])", 200, 130'000);
  // Chain 2: two fp32 ops, one without recorded shapes; a DMA copy between them breaks nothing.
  Launch(b, "aten::mul", "[[1019500],[1019500]]", R"(["float","float"])", 300, 140'000);
  b.Api("cudaMemcpyAsync", 360, 370, 900);
  b.Memcpy(gpuperf::model::CopyKind::kDtoD, 150'000, 150'500, 4096, 900);
  Launch(b, "aten::add", "", "", 400, 160'000);
  Launch(b, "aten::mm", "[[8,8],[8,8]]", R"(["float","float"])", 500, 170'000);
  // Chain 3: no shape recorded, so no floor.
  Launch(b, "aten::relu", "", "", 600, 180'000);
  // Chain 4: a layout copy alone can vanish into its consumer: no floor either.
  Launch(b, "aten::mm", "[[8,8],[8,8]]", R"(["float","float"])", 700, 190'000);
  Launch(b, "aten::contiguous", "[[1019500]]", R"(["float"])", 800, 200'000);

  gpuperf::report::AnalysisReport r = gpuperf::analysis::Analyze(b.trace);
  const gpuperf::report::ElementwiseChains& c = r.framework.elementwise_chains;
  CHECK(c.chains == 4);
  CHECK(c.longest_ops == 2);
  CHECK(c.kernel_ns == 60'000);
  CHECK(c.bounded_chains == 2);
  CHECK(c.bounded_kernel_ns == 40'000);
  // 2 x 1019500 x 2 B = 4.078 MB (2 us) and 2 x 1019500 x 4 B = 8.156 MB (4 us).
  CHECK(c.floor_bytes == 12'234'000);
  CHECK(c.floor_ns == 6'000);
}

TEST_CASE("Elementwise chains: no device bandwidth, no floor", "[framework]") {
  TraceBuilder b;
  Launch(b, "aten::mul", "[[1000],[1000]]", R"(["float","float"])", 0, 100'000);
  gpuperf::report::AnalysisReport r = gpuperf::analysis::Analyze(b.trace);
  CHECK(r.framework.elementwise_chains.chains == 1);
  CHECK(r.framework.elementwise_chains.bounded_chains == 0);
  CHECK(r.framework.elementwise_chains.floor_ns == 0);
}
