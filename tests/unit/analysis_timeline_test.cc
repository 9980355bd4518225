#include "gpuperf/analyze.h"

#include <catch2/catch.hpp>

#include "analysis/core/correlation.h"
#include "analysis/timeline/timeline.h"
#include "analysis_builder.h"

namespace {

using gpuperf::analysis::ActivitySelection;
using gpuperf::analysis::ComputeTimeline;
using gpuperf::analysis::CorrelationIndex;
using gpuperf::analysis::SelectActivities;
using gpuperf::model::CopyKind;
using gpuperf::testing::TraceBuilder;

gpuperf::report::Timeline TimelineOf(const gpuperf::model::Trace& trace, bool launched = false) {
  CorrelationIndex index(trace);
  ActivitySelection selection;
  selection.launched_only = launched;
  return ComputeTimeline(trace, SelectActivities(trace, index, selection));
}

}  // namespace

TEST_CASE("Timeline takes unions across overlapping streams", "[analysis][timeline]") {
  TraceBuilder b;
  b.Kernel("gemm", 0, 100, gpuperf::model::kNoId, 1);
  b.Kernel("relu", 50, 150, gpuperf::model::kNoId, 2);
  b.Memcpy(CopyKind::kHtoD, 200, 300, 4096);
  b.Memset(290, 310, 64);
  auto t = TimelineOf(b.trace);
  CHECK(t.activities == 4);
  CHECK(t.first_start_ns == 0);
  CHECK(t.last_end_ns == 310);
  CHECK(t.total_ns == 310);
  CHECK(t.busy_ns == 260);  // [0,150) + [200,310)
  CHECK(t.idle_ns == 50);
  CHECK(t.computation_ns == 170);  // kernels [0,150) + memset [290,310)
  CHECK(t.memcpy_ns == 100);
  CHECK(t.memset_ns == 20);
  CHECK(t.communication_ns == 0);
  CHECK(t.exposed_communication_ns == 0);
  CHECK(t.exposed_memcpy_ns == 90);  // [200,290): the memset covers the rest
}

TEST_CASE("Timeline never sums overlapping kernels of one stream", "[analysis][timeline]") {
  TraceBuilder b;
  b.Kernel("a", 0, 10);
  b.Kernel("b", 5, 20);  // same stream 7, overlapping by 5 ns
  auto t = TimelineOf(b.trace);
  CHECK(t.busy_ns == 20);
  CHECK(t.computation_ns == 20);
  CHECK(t.idle_ns == 0);
}

TEST_CASE("Zero-duration activities extend the span but add no busy time", "[analysis][timeline]") {
  TraceBuilder b;
  b.Kernel("a", 0, 10);
  b.Kernel("empty", 50, 50);
  auto t = TimelineOf(b.trace);
  CHECK(t.activities == 2);
  CHECK(t.total_ns == 50);
  CHECK(t.busy_ns == 10);
  CHECK(t.idle_ns == 40);
}

TEST_CASE("NCCL and RCCL kernels are communication, exposed parts subtract the rest",
          "[analysis][timeline]") {
  TraceBuilder b;
  b.Kernel("gemm", 0, 100, gpuperf::model::kNoId, 1);
  b.Kernel("ncclKernel_AllReduce_RING_LL_Sum_float", 50, 200, gpuperf::model::kNoId, 2);
  b.Kernel("void RCCL_sendrecv<float>()", 210, 220, gpuperf::model::kNoId, 2);
  b.Memcpy(CopyKind::kDtoD, 150, 250, 1);
  auto t = TimelineOf(b.trace);
  CHECK(t.communication_ns == 160);  // [50,200) + [210,220)
  CHECK(t.computation_ns == 100);
  CHECK(t.exposed_communication_ns == 110);  // [100,200) + [210,220)
  CHECK(t.exposed_memcpy_ns == 40);          // [200,210) + [220,250)
  CHECK(t.busy_ns == 250);
  CHECK(t.total_ns == 250);
}

TEST_CASE("TraceLens selection drops activities without a launch call", "[analysis][timeline]") {
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 5, 1);
  b.Kernel("launched", 10, 20, 1);
  b.Kernel("orphan_correlation", 30, 60, 2);    // correlation 2 has no call
  b.Kernel("orphan_no_correlation", 100, 101);  // no correlation at all
  auto all = TimelineOf(b.trace, false);
  auto launched = TimelineOf(b.trace, true);
  CHECK(all.activities == 3);
  CHECK(all.total_ns == 91);
  CHECK(all.busy_ns == 41);
  CHECK(launched.activities == 1);
  CHECK(launched.total_ns == 10);
  CHECK(launched.busy_ns == 10);

  auto report = gpuperf::analysis::Analyze(b.trace);
  CHECK(report.orphan_activities == 2);
  CHECK(report.timeline.busy_ns == 41);
  // The framework view's share of GPU time without a launch call, divided in the analysis.
  CHECK(report.framework.orphan_gpu_ns == 31);
  CHECK(report.framework.orphan_fraction == Catch::Detail::Approx(31.0 / 41.0));
  CHECK(report.timeline_tracelens.busy_ns == 10);
  REQUIRE_FALSE(report.notes.empty());
  CHECK(report.notes.front().find("2 without a launch call") != std::string::npos);
}

TEST_CASE("Per-device timelines split the work by device", "[analysis][timeline]") {
  TraceBuilder b;
  b.trace.devices.push_back({.id = 1, .name = "GPU one"});
  b.Kernel("a", 0, 10, gpuperf::model::kNoId, 7, 0);
  b.Kernel("b", 100, 130, gpuperf::model::kNoId, 7, 1);
  auto report = gpuperf::analysis::Analyze(b.trace);
  REQUIRE(report.devices.size() == 2);
  CHECK(report.devices[0].device == 0);
  CHECK(report.devices[0].timeline.busy_ns == 10);
  CHECK(report.devices[0].timeline.total_ns == 10);
  CHECK(report.devices[1].name == "GPU one");
  CHECK(report.devices[1].timeline.busy_ns == 30);
  CHECK(report.timeline.total_ns == 130);
  CHECK(report.timeline.busy_ns == 40);
}

TEST_CASE("A trace without GPU work gives an all-zero timeline", "[analysis][timeline]") {
  TraceBuilder b;
  b.Api("cudaGetDeviceCount", 0, 10);
  auto t = TimelineOf(b.trace);
  CHECK(t.activities == 0);
  CHECK(t.total_ns == 0);
  CHECK(t.busy_ns == 0);
  CHECK(t.idle_ns == 0);
}

TEST_CASE("Collectives beyond NCCL are communication, TraceLens' timeline keeps its NCCL rule",
          "[analysis][timeline]") {
  TraceBuilder b;
  b.Kernel("gemm", 0, 100);
  b.Kernel("void multimem_all_reduce_kernel<bf16>(...)", 100, 300);  // symmetric memory
  b.Kernel("ncclDevKernel_AllGather_RING_LL", 300, 350);
  CorrelationIndex index(b.trace);
  auto all = SelectActivities(b.trace, index, {});
  auto ours = ComputeTimeline(b.trace, all);
  CHECK(ours.communication_ns == 250);
  CHECK(ours.exposed_communication_ns == 250);
  auto tracelens =
      ComputeTimeline(b.trace, all, gpuperf::analysis::CommunicationKernels::kNcclOnly);
  CHECK(tracelens.communication_ns == 50);
  CHECK(tracelens.computation_ns == 300);
}
