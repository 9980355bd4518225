// Amdahl bounds and critical-time attribution, on traces small enough to compute by hand.
#include <catch2/catch.hpp>

#include "analysis/core/correlation.h"
#include "analysis/predictions/amdahl.h"
#include "analysis/predictions/predictions.h"
#include "analysis/timeline/critical_time.h"
#include "analysis/timeline/tables.h"
#include "analysis_builder.h"

namespace gpuperf::analysis {
namespace {

using Catch::Matchers::WithinRel;
using testing::TraceBuilder;

// Window 0..1000 ns on one device:
//   A 100-400 (launched 0-10), B 400-600 (launched 10-20: queued behind A),
//   A 720-820 (launched 700-710: the GPU idled after B until the host launched it),
//   a copy 350-400 beside the first A, and the host's last call ends at 1000.
TraceBuilder QueuedThenHostBound() {
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 10, 1);
  b.Kernel("A", 100, 400, 1);
  b.Api("cudaLaunchKernel", 10, 20, 2);
  b.Kernel("B", 400, 600, 2, 8);
  b.Api("cudaLaunchKernel", 700, 710, 3);
  b.Kernel("A", 720, 820, 3);
  b.Memcpy(model::CopyKind::kDtoH, 350, 400, 1024);
  b.Api("cudaMemcpyAsync", 900, 1000);
  return b;
}

}  // namespace

TEST_CASE("Amdahl bound reproduces the seed's worked example", "[predictions]") {
  // docs/method.md, "Amdahl bound and critical time": f = 0.09, s = 1.12 -> 1.0097 (about 0.97
  // percent).
  CHECK_THAT(AmdahlSpeedup(0.09, 1.12), WithinRel(1.0 / (0.91 + 0.09 / 1.12), 1e-12));
  CHECK_THAT(AmdahlSpeedup(0.09, 1.12), WithinRel(1.0097367, 1e-6));
  CHECK_THAT(AmdahlLimit(0.09), WithinRel(1.0 / 0.91, 1e-12));
  CHECK(std::isinf(AmdahlLimit(1.0)));
  CHECK(AmdahlSpeedup(0.0, 10.0) == 1.0);
  CHECK(TimeSavedNs(1000, 1.25) == 200);
  CHECK(TimeSavedNs(1000, 2.0) == 500);
  CHECK(TimeSavedNs(1000, 0.5) == -1000);  // a 2x slowdown costs the critical time again
}

TEST_CASE("critical time: queued work counts, work the host was late for does not",
          "[predictions]") {
  TraceBuilder b = QueuedThenHostBound();
  CorrelationIndex index(b.trace);
  std::vector<bool> critical = CriticalActivities(b.trace, index);
  CHECK(critical[0]);   // first A: B was launched (t=20) before A ended (t=400)
  CHECK(!critical[1]);  // B: the next kernel was launched at 710, after B ended at 600
  CHECK(critical[2]);   // last A: the device's last operation

  auto names = [&](std::size_t i) -> std::int64_t {
    const auto& a = b.trace.activities[i];
    return a.kind == model::ActivityKind::kKernel ? a.name : -1;
  };
  CriticalTimes t = AttributeCriticalTime(b.trace, critical, names);
  model::NameId a = b.trace.strings.Intern("A");
  model::NameId bb = b.trace.strings.Intern("B");
  CHECK(t.device_groups == 1);
  CHECK(t.by_key[a].exclusive_ns == 250 + 100);  // 350-400 shared with the copy
  CHECK(t.by_key[a].critical_ns == 350);
  CHECK(t.by_key[bb].exclusive_ns == 200);
  CHECK(t.by_key[bb].critical_ns == 0);
  CHECK(t.by_key[-1].exclusive_ns == 0);  // the copy never runs alone
  CHECK(ComputeTraceWindow(b.trace).length_ns() == 1000);
}

TEST_CASE("critical time: a host thread blocked in a sync makes the kernel critical",
          "[predictions]") {
  TraceBuilder b = QueuedThenHostBound();
  b.Api("cudaDeviceSynchronize", 550, 700);  // covers B's end at 600
  CorrelationIndex index(b.trace);
  std::vector<bool> critical = CriticalActivities(b.trace, index);
  CHECK(critical[1]);
  b.trace.api_calls.pop_back();
  b.Sync(model::SyncKind::kStream, 590, 610);  // a sync record alone does it too
  CorrelationIndex index2(b.trace);
  CHECK(CriticalActivities(b.trace, index2)[1]);
}

TEST_CASE("predictions: shares, limits and recoverable time from a floor", "[predictions]") {
  TraceBuilder b = QueuedThenHostBound();
  b.AddRange(model::RangeKind::kUserAnnotation, "step", 0, 500);
  b.AddRange(model::RangeKind::kUserAnnotation, "step", 400, 900);
  CorrelationIndex index(b.trace);
  auto kernels = KernelTable(b.trace, index, 1000);
  report::Predictions p = ComputePredictions(
      b.trace, index, kernels, {{"A", {200, gpuperf::report::EvidenceTier::kMeasured}}}, 20);
  CHECK(p.wall_ns == 1000);
  CHECK(p.device_groups == 1);
  CHECK(p.ranking == "critical_ns");  // recoverable time is a column
  REQUIRE(p.kernels.size() == 2);
  const report::CriticalShare& a = p.kernels[0];
  CHECK(a.name == "A");
  CHECK(a.instances == 2);
  CHECK(a.total_ns == 400);
  CHECK(a.critical_ns == 350);
  CHECK_THAT(a.fraction, WithinRel(0.35, 1e-12));
  CHECK_THAT(*a.limit_speedup, WithinRel(1.0 / 0.65, 1e-12));
  CHECK(*a.floor_ns == 200);
  // 400 ns over 2 instances is below the minimum kernel latency (2 x 2 us): nothing to recover.
  CHECK_THAT(*a.max_local_speedup, WithinRel(1.0, 1e-12));
  CHECK_THAT(*a.bound_speedup_at_roof, WithinRel(1.0, 1e-12));
  CHECK(*a.recoverable_ns == 0);
  CHECK(p.kernels[1].name == "B");
  CHECK(p.kernels[1].fraction == 0.0);
  CHECK(!p.kernels[1].recoverable_ns);
  REQUIRE(p.phases.size() == 1);
  CHECK(p.phases[0].critical_ns == 900);  // union of 0-500 and 400-900
  CHECK(p.phases[0].instances == 2);
  CHECK_THAT(p.phases[0].fraction, WithinRel(0.9, 1e-12));
}

TEST_CASE("predictions: illustrative gains per kernel and phase are computed, not formatted",
          "[predictions]") {
  TraceBuilder b = QueuedThenHostBound();
  b.AddRange(model::RangeKind::kUserAnnotation, "step", 0, 500);
  CorrelationIndex index(b.trace);
  auto kernels = KernelTable(b.trace, index, 1000);
  report::Predictions p = ComputePredictions(b.trace, index, kernels, {}, 20);
  REQUIRE(p.illustrative_speedups == std::vector<double>{1.25, 2.0});
  const report::CriticalShare& a = p.kernels[0];  // f = 0.35, critical 350 ns
  REQUIRE(a.illustrative_gains.size() == 2);
  CHECK(a.illustrative_gains[0].local_speedup == 1.25);
  // 1 / (0.65 + 0.35 / 1.25) = 1 / 0.93; 350 x (1 - 1 / 1.25) = 70 ns.
  CHECK_THAT(a.illustrative_gains[0].bound_speedup, WithinRel(1.0 / 0.93, 1e-12));
  CHECK(a.illustrative_gains[0].time_saved_ns == 70);
  // 1 / (0.65 + 0.175) = 1 / 0.825; 350 / 2 = 175 ns.
  CHECK_THAT(a.illustrative_gains[1].bound_speedup, WithinRel(1.0 / 0.825, 1e-12));
  CHECK(a.illustrative_gains[1].time_saved_ns == 175);
  CHECK(p.kernels[1].illustrative_gains[1].time_saved_ns == 0);  // f = 0: nothing to gain
  REQUIRE(p.phases.size() == 1);                                 // 500 of 1000 ns: f = 0.5
  CHECK_THAT(p.phases[0].illustrative_gains[1].bound_speedup, WithinRel(1.0 / 0.75, 1e-12));
  CHECK(p.phases[0].illustrative_gains[1].time_saved_ns == 250);
}

TEST_CASE("predictions: without floors the ranking is by critical time", "[predictions]") {
  TraceBuilder b = QueuedThenHostBound();
  CorrelationIndex index(b.trace);
  auto kernels = KernelTable(b.trace, index, 1000);
  report::Predictions p = ComputePredictions(b.trace, index, kernels, {}, 1);
  CHECK(p.ranking == "critical_ns");
  REQUIRE(p.kernels.size() == 1);
  CHECK(p.kernels[0].name == "A");
  CHECK(p.kernels_omitted == 1);
  CHECK(!p.kernels[0].recoverable_ns);
}

TEST_CASE("predictions: a selected group shares its exclusive time", "[predictions]") {
  TraceBuilder b = QueuedThenHostBound();
  CorrelationIndex index(b.trace);
  std::int64_t wall = 0, groups = 0;
  report::CriticalShare both = SelectedKernelsShare(
      b.trace,
      index,
      [](std::string_view name) { return name == "A" || name == "B"; },
      &wall,
      &groups);
  CHECK(wall == 1000);
  CHECK(groups == 1);
  CHECK(both.instances == 3);
  CHECK(both.total_ns == 600);
  CHECK(both.exclusive_ns == 550);
  CHECK(both.critical_ns == 350);
  report::CriticalShare none = SelectedKernelsShare(
      b.trace, index, [](std::string_view) { return false; }, &wall, &groups);
  CHECK(none.instances == 0);
  CHECK(none.critical_ns == 0);
  CHECK(none.fraction == 0.0);
}

TEST_CASE("predictions: two kernels overlapping on two streams are nobody's alone",
          "[predictions]") {
  TraceBuilder b;
  b.Kernel("A", 0, 100, model::kNoId, 7);
  b.Kernel("B", 50, 150, model::kNoId, 8);
  b.Kernel("A", 60, 70, model::kNoId, 9);
  CorrelationIndex index(b.trace);
  auto kernels = KernelTable(b.trace, index, 150);
  report::Predictions p = ComputePredictions(b.trace, index, kernels, {}, 20);
  REQUIRE(p.kernels.size() == 2);
  // A alone 0-50, B alone 100-150; orphans (no launch record) count as critical.
  CHECK(p.kernels[0].critical_ns == 50);
  CHECK(p.kernels[1].critical_ns == 50);
  CHECK(p.kernels[0].name == "A");  // tie broken by name
}

TEST_CASE("finding bounds: the share of wall time and the removal limit", "[predictions]") {
  std::vector<report::Finding> findings(2);
  findings[0].time_ns = 250;
  findings[1].time_ns = 0;
  BoundFindings(findings, 1000);
  CHECK_THAT(*findings[0].wall_fraction, WithinRel(0.25, 1e-12));
  CHECK_THAT(*findings[0].bound_speedup_if_removed, WithinRel(4.0 / 3.0, 1e-12));
  CHECK(!findings[1].wall_fraction);
}

}  // namespace gpuperf::analysis
