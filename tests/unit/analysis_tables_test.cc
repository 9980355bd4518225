#include <catch2/catch.hpp>

#include <cmath>

#include "analysis/core/correlation.h"
#include "analysis/core/names.h"
#include "analysis/timeline/tables.h"
#include "analysis_builder.h"

namespace {

using gpuperf::analysis::CorrelationIndex;
using gpuperf::model::CopyKind;
using gpuperf::model::kNoId;
using gpuperf::testing::TraceBuilder;

}  // namespace

TEST_CASE("Kernel table: nsys statistics, percentages, order and geometry", "[analysis][tables]") {
  TraceBuilder b;
  for (auto [start, end] : {std::pair{0, 10}, {20, 40}, {100, 160}}) {
    auto& k = b.Kernel("a", start, end);
    k.grid = {2, 1, 1};
    k.block = {static_cast<std::int32_t>(end - start), 1, 1};  // differs per instance
  }
  b.Kernel("b", 200, 290).grid = {4, 1, 1};
  CorrelationIndex index(b.trace);
  auto rows = gpuperf::analysis::KernelTable(b.trace, index, 300);
  REQUIRE(rows.size() == 2);
  // Equal totals (90 ns): the name breaks the tie.
  CHECK(rows[0].name == "a");
  CHECK(rows[1].name == "b");
  const auto& a = rows[0].duration_ns;
  CHECK(a.count == 3);
  CHECK(a.total == 90);
  CHECK(a.avg == 30.0);
  CHECK(a.med == 20.0);
  CHECK(a.min == 10);
  CHECK(a.max == 60);
  CHECK(a.stddev == Approx(std::sqrt(700.0)));  // deviations -20, -10, 30 over n - 1 = 2
  CHECK(rows[0].time_percent == Approx(50.0));
  CHECK(rows[0].wall_percent == Approx(30.0));  // 90 of a 300 ns span
  CHECK(rows[0].grid == "2x1x1");
  CHECK(rows[0].block.empty());  // instances disagree
  CHECK(rows[1].grid == "4x1x1");
  CHECK(rows[1].block.empty());  // not recorded
  CHECK(rows[1].duration_ns.stddev == 0.0);
}

TEST_CASE("Kernel table counts instances shorter than their launch call", "[analysis][tables]") {
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 50, 1);
  b.Kernel("k", 60, 70, 1);  // 10 ns < 50 ns call
  b.Api("cudaLaunchKernel", 100, 105, 2);
  b.Kernel("k", 110, 200, 2);  // 90 ns > 5 ns call
  b.Kernel("k", 300, 301);     // orphan: no call to compare with
  CorrelationIndex index(b.trace);
  auto rows = gpuperf::analysis::KernelTable(b.trace, index, 0);
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].short_instances == 1);
  CHECK(rows[0].wall_percent == 0.0);  // no span given
}

TEST_CASE("Memory-op table groups by nsys label with sizes", "[analysis][tables]") {
  TraceBuilder b;
  b.Memcpy(CopyKind::kHtoD, 0, 100, 1000);
  b.Memcpy(CopyKind::kHtoD, 200, 500, 3000);
  b.Memcpy(CopyKind::kDtoH, 600, 700, 500);
  b.Memset(800, 850, 64);
  b.Kernel("not a memory op", 0, 1000);
  auto rows = gpuperf::analysis::MemoryOpTable(b.trace);
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].operation == "[CUDA memcpy HtoD]");
  CHECK(rows[0].duration_ns.total == 400);
  CHECK(rows[0].duration_ns.med == 200.0);
  CHECK(rows[0].size_bytes.total == 4000);
  CHECK(rows[0].size_bytes.avg == 2000.0);
  CHECK(rows[0].time_percent == Approx(400.0 / 550.0 * 100.0));
  CHECK(rows[1].operation == "[CUDA memcpy DtoH]");
  CHECK(rows[2].operation == "[CUDA memset]");
  CHECK(rows[2].time_percent == Approx(50.0 / 550.0 * 100.0));
}

TEST_CASE("API table groups by recorded name and strips the version suffix", "[analysis][tables]") {
  TraceBuilder b;
  // nsys 2022 writes one cudaMemcpy twice: an outer record and a nested _v3020 one.
  b.Api("cudaMemcpy", 0, 100, 1);
  b.Api("cudaMemcpy_v3020", 1, 99, 1);
  b.Api("cudaMemcpy", 200, 260, 2);
  b.Api("cudaMemcpy_v3020", 201, 259, 2);
  b.Api("cuMemAlloc_v2", 300, 310, 3);
  auto rows = gpuperf::analysis::ApiTable(b.trace);
  REQUIRE(rows.size() == 3);
  CHECK(rows[0].raw_name == "cudaMemcpy");
  CHECK(rows[0].name == "cudaMemcpy");
  CHECK(rows[0].duration_ns.total == 160);
  CHECK(rows[0].duration_ns.count == 2);
  CHECK(rows[1].raw_name == "cudaMemcpy_v3020");
  CHECK(rows[1].name == "cudaMemcpy");
  CHECK(rows[1].duration_ns.total == 156);
  CHECK(rows[2].name == "cuMemAlloc_v2");  // a real driver name, not a version suffix
  CHECK(rows[0].time_percent == Approx(160.0 / 326.0 * 100.0));
}

TEST_CASE("Name classifiers follow the nsys LIKE patterns", "[analysis][names]") {
  using namespace gpuperf::analysis;
  CHECK(StripVersionSuffix("cudaLaunchKernel_v7000") == "cudaLaunchKernel");
  CHECK(StripVersionSuffix("_v7000") == "_v7000");
  CHECK(StripVersionSuffix("cudaFree_vABCD") == "cudaFree_vABCD");
  CHECK(WithoutAddresses("<built-in method astype of numpy.ndarray object at 0x7cbf780f01b0>") ==
        "<built-in method astype of numpy.ndarray object>");
  CHECK(WithoutAddresses("<f at 0x1> and <g at 0xAB2>: done") == "<f> and <g>: done");
  CHECK(WithoutAddresses("look at 0xygen") == "look at 0xygen");  // no hex digits: kept
  CHECK(WithoutAddresses("normalize") == "normalize");
  CHECK(IsSyncMemcpyApi("cudaMemcpy_v3020"));
  CHECK(IsSyncMemcpyApi("cudaMemcpy2D"));
  CHECK_FALSE(IsSyncMemcpyApi("cudaMemcpyAsync_v3020"));
  CHECK(IsAsyncMemcpyApi("cudaMemcpy2DAsync"));
  CHECK(IsSyncMemsetApi("cudaMemset"));
  CHECK_FALSE(IsSyncMemsetApi("cudaMemsetAsync"));
  CHECK(IsDeviceOrStreamSyncApi("cudaStreamSynchronize_v3020"));
  CHECK_FALSE(IsDeviceOrStreamSyncApi("cudaEventSynchronize"));
  CHECK(IsBlockingSyncApi("cudaEventSynchronize"));
  CHECK(IsLaunchApi("cuLaunchKernelEx"));
  CHECK(IsLaunchApi("hipExtModuleLaunchKernel"));
  CHECK(IsGraphLaunchApi("cudaGraphLaunch_v10000"));
  CHECK(IsDeviceAllocApi("cudaMallocAsync"));
  CHECK_FALSE(IsDeviceAllocApi("cudaMallocHost"));
  CHECK(IsDeviceFreeApi("cudaFree_v3020"));
  CHECK_FALSE(IsDeviceFreeApi("cudaFreeHost"));
  CHECK(IsCommunicationKernel("ncclDevKernel_AllGather"));
  CHECK(IsCommunicationKernel("NCCL_x"));
  CHECK_FALSE(IsCommunicationKernel("gemm"));
}

TEST_CASE("names: case-insensitive matching and the collective list", "[analysis][names]") {
  using gpuperf::analysis::ContainsNoCase;
  using gpuperf::analysis::IsCommunicationKernel;
  using gpuperf::analysis::IsNcclKernel;
  CHECK(ContainsNoCase("cudaStreamBeginCapture_v10000", "begincapture"));
  CHECK(ContainsNoCase("abc", ""));
  CHECK(ContainsNoCase("aaab", "AAB"));  // a partial match before the real one
  CHECK_FALSE(ContainsNoCase("ab", "abc"));
  CHECK_FALSE(ContainsNoCase("compile", "compiled"));
  CHECK(IsCommunicationKernel("void multimem_all_reduce_kernel<bf16>(...)"));
  CHECK(IsCommunicationKernel("ncclDevKernel_AllGather_RING_LL"));
  CHECK(IsCommunicationKernel("cross_device_reduce_1stage"));
  CHECK_FALSE(IsCommunicationKernel("ampere_sgemm_128x64_tn"));
  CHECK_FALSE(IsNcclKernel("void multimem_all_reduce_kernel<bf16>(...)"));
  CHECK(IsNcclKernel("RCCL_allreduce"));
}
