#include <catch2/catch.hpp>

#include <limits>

#include "analysis/core/correlation.h"
#include "analysis/timeline/audit.h"
#include "analysis/timeline/launch_overhead.h"
#include "analysis_builder.h"

namespace {

using gpuperf::analysis::CorrelationIndex;
using gpuperf::analysis::JoinKernelLaunches;
using gpuperf::analysis::SummarizeLaunches;
using gpuperf::testing::TraceBuilder;

// Call A [0,30) launches a kernel [40,80): API 30, queue 10, kernel 40, total 80.
// Call B [100,110) launches a kernel [105,108): API 10, queue -5 (not counted), kernel 3, total 8.
// A nested duplicate record of A, [2,28), as nsys 2022 writes it: queue 12.
TraceBuilder TwoLaunches() {
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 30, 1);
  b.Api("cudaLaunchKernel_v7000", 2, 28, 1);
  b.Kernel("k", 40, 80, 1);
  b.Api("cudaLaunchKernel", 100, 110, 2);
  b.Kernel("k", 105, 108, 2);
  b.Kernel("orphan", 500, 600, 9);
  return b;
}

}  // namespace

TEST_CASE("Launch overhead uses nsys kern_exec_sum definitions, one record per call",
          "[analysis][launch]") {
  TraceBuilder b = TwoLaunches();
  CorrelationIndex index(b.trace);
  auto l = SummarizeLaunches(b.trace, JoinKernelLaunches(b.trace, index, false));
  CHECK(l.launches == 2);
  CHECK(l.api_ns.count == 2);
  CHECK(l.api_ns.total == 40);
  CHECK(l.queue_ns.count == 1);  // only the positive queue time counts
  CHECK(l.queue_ns.total == 10);
  CHECK(l.kernel_ns.total == 43);
  CHECK(l.total_ns.min == 8);
  CHECK(l.total_ns.max == 80);
  CHECK(l.kernels_shorter_than_launch == 1);  // only B: 3 ns < 10 ns
  CHECK(l.api_to_kernel_ratio == Approx(40.0 / 43.0));
}

TEST_CASE("Launch overhead can pair every duplicate record, as nsys does", "[analysis][launch]") {
  TraceBuilder b = TwoLaunches();
  CorrelationIndex index(b.trace);
  auto pairs = JoinKernelLaunches(b.trace, index, true);
  REQUIRE(pairs.size() == 3);
  auto l = SummarizeLaunches(b.trace, pairs);
  CHECK(l.launches == 3);
  CHECK(l.api_ns.total == 66);   // 30 + 26 + 10
  CHECK(l.queue_ns.count == 2);  // 10 and 12
  CHECK(l.queue_ns.total == 22);
  CHECK(l.kernel_ns.count == 3);
}

TEST_CASE("A CUDA graph launch pairs with every kernel of the graph", "[analysis][launch]") {
  TraceBuilder b;
  b.Api("cudaGraphLaunch", 0, 10, 7);
  b.Kernel("g1", 20, 25, 7);
  b.Kernel("g2", 25, 30, 7);
  b.Kernel("g3", 30, 40, 7);
  CorrelationIndex index(b.trace);
  auto l = SummarizeLaunches(b.trace, JoinKernelLaunches(b.trace, index, false));
  CHECK(l.launches == 1);
  CHECK(l.kernel_ns.count == 3);
  CHECK(l.queue_ns.total == 45);  // 10 + 15 + 20
  CHECK(l.api_to_kernel_ratio == Approx(10.0 / 20.0));
  auto audit = gpuperf::analysis::ComputeAudit(b.trace, index);
  CHECK(audit.graph_launches == 1);
  CHECK(audit.launch_calls == 1);
  CHECK(audit.kernel_launches == 3);
  CHECK(audit.distinct_kernels == 3);
}

TEST_CASE("No kernels, no launches", "[analysis][launch]") {
  TraceBuilder b;
  b.Api("cudaMalloc", 0, 10, 1);
  CorrelationIndex index(b.trace);
  auto l = SummarizeLaunches(b.trace, JoinKernelLaunches(b.trace, index, false));
  CHECK(l.launches == 0);
  CHECK(l.api_to_kernel_ratio == 0.0);
}

TEST_CASE("CorrelationIndex finds groups of dense and of sparse correlation ids alike",
          "[analysis][launch]") {
  // Dense ids (1, 2, 3) use the table; adding one far away (and one below zero) makes the range
  // too wide for it, and the hash map must give the same answers.
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 10, 1);
  b.Api("cuLaunchKernel", 2, 8, 1);  // the driver record inside the runtime call
  b.Api("cudaLaunchKernel", 20, 30, 2);
  b.Api("cudaMemcpyAsync", 40, 50, 3);
  auto check = [](const gpuperf::model::Trace& trace) {
    CorrelationIndex index(trace);
    CHECK(index.PrimaryCall(1, gpuperf::model::kNoId) == 0);
    CHECK(index.Calls(1, gpuperf::model::kNoId).size() == 2);
    CHECK_FALSE(index.IsPrimary(1));
    CHECK(index.PrimaryCall(2, gpuperf::model::kNoId) == 2);
    CHECK(index.PrimaryCall(3, gpuperf::model::kNoId) == 3);
    CHECK(index.PrimaryCall(0, gpuperf::model::kNoId) == -1);
    CHECK(index.PrimaryCall(4, gpuperf::model::kNoId) == -1);
    CHECK(index.PrimaryCall(-5, gpuperf::model::kNoId) == -1);
    CHECK(index.PrimaryCall(std::numeric_limits<std::int64_t>::max(), gpuperf::model::kNoId) == -1);
  };
  check(b.trace);
  b.Api("cudaLaunchKernel", 60, 70, std::int64_t{1} << 60);
  b.Api("cudaLaunchKernel", 80, 90, -7);
  check(b.trace);
  CorrelationIndex sparse(b.trace);
  CHECK(sparse.PrimaryCall(std::int64_t{1} << 60, gpuperf::model::kNoId) == 4);
  CHECK(sparse.PrimaryCall(-7, gpuperf::model::kNoId) == 5);
}
