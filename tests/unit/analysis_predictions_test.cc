// Amdahl bounds and critical-time attribution, on traces small enough to compute by hand.
#include <catch2/catch.hpp>

#include "analysis/core/correlation.h"
#include "analysis/core/run_gains.h"
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
//   a copy 350-400 beside the first A, and the host then waits for the GPU until 1000.
TraceBuilder QueuedThenHostBound() {
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 10, 1);
  b.Kernel("A", 100, 400, 1);
  b.Api("cudaLaunchKernel", 10, 20, 2);
  b.Kernel("B", 400, 600, 2, 8);
  b.Api("cudaLaunchKernel", 700, 710, 3);
  b.Kernel("A", 720, 820, 3);
  b.Memcpy(model::CopyKind::kDtoH, 350, 400, 1024);
  b.Api("cudaDeviceSynchronize", 710, 1000);
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

TEST_CASE("critical time: work the host was late for does not count, nor the work queued before it",
          "[predictions]") {
  TraceBuilder b = QueuedThenHostBound();
  CorrelationIndex index(b.trace);
  CriticalRuns critical = CriticalActivities(b.trace, index);
  // First A: B was launched (t=20) before A ended (t=400), but the GPU idled after B until the
  // host launched more: finishing A sooner only lengthens that idle.
  CHECK_FALSE(critical.Critical(0));
  CHECK_FALSE(critical.Critical(1));  // B: the next kernel was launched at 710, after B ended
  CHECK(critical.Critical(2));        // last A: the host waited for it
  CHECK(critical.budget_ns[static_cast<std::size_t>(critical.run_of[2])] == 100);  // 720-820
  CHECK_FALSE(critical.Critical(3));  // the copy: B queued behind it

  auto names = [&](std::size_t i) -> std::int64_t {
    const auto& a = b.trace.activities[i];
    return a.kind == model::ActivityKind::kKernel ? a.name : -1;
  };
  CriticalTimes t = AttributeCriticalTime(b.trace, critical, names);
  model::NameId a = b.trace.strings.Intern("A");
  model::NameId bb = b.trace.strings.Intern("B");
  CHECK(t.device_groups == 1);
  CHECK(t.by_key[a].exclusive_ns == 250 + 100);  // 350-400 shared with the copy
  CHECK(t.by_key[a].critical_ns == 100);
  CHECK(t.by_key[bb].exclusive_ns == 200);
  CHECK(t.by_key[bb].critical_ns == 0);
  CHECK(t.by_key[-1].exclusive_ns == 0);  // the copy never runs alone
  CHECK(ComputeTraceWindow(b.trace).length_ns() == 1000);
}

TEST_CASE("critical time: a host thread blocked in a sync makes the work queued before it critical",
          "[predictions]") {
  TraceBuilder b = QueuedThenHostBound();
  b.Api("cudaDeviceSynchronize", 550, 700);  // covers B's end at 600
  CorrelationIndex index(b.trace);
  CriticalRuns critical = CriticalActivities(b.trace, index);
  // The chain first A, copy, B ends where the host waited 50 ns for it: a shorter chain gives
  // back at most those 50 ns.
  CHECK(critical.Critical(1));
  CHECK(critical.run_of[0] == critical.run_of[1]);
  CHECK(critical.run_of[3] == critical.run_of[1]);
  CHECK(critical.budget_ns[static_cast<std::size_t>(critical.run_of[1])] == 50);
  auto names = [&](std::size_t i) -> std::int64_t {
    const auto& a = b.trace.activities[i];
    return a.kind == model::ActivityKind::kKernel ? a.name : -1;
  };
  // A alone 100-350 in that chain: at most the 50 ns wait; the last A's 100 ns whole.
  CriticalTimes t = AttributeCriticalTime(b.trace, critical, names);
  CHECK(t.by_key[b.trace.strings.Intern("A")].critical_ns == 50 + 100);
  CHECK(t.by_key[b.trace.strings.Intern("B")].critical_ns == 50);
  b.trace.api_calls.pop_back();
  b.trace.api_calls.pop_back();
  b.Api("cudaDeviceSynchronize", 710, 1000);
  b.Sync(model::SyncKind::kStream, 590, 610);  // a sync record alone does it too
  CorrelationIndex index2(b.trace);
  CHECK(CriticalActivities(b.trace, index2).Critical(1));
}

TEST_CASE("critical time: a chain counts at most the host's wait for it", "[predictions]") {
  // K 10-110 and L 110-210, both launched at once; the host then waits.
  auto build = [](std::int64_t wait_start) {
    TraceBuilder b;
    b.Api("cudaLaunchKernel", 0, 5, 1);
    b.Kernel("K", 10, 110, 1);
    b.Api("cudaLaunchKernel", 5, 8, 2);
    b.Kernel("L", 110, 210, 2);
    b.Api("cudaDeviceSynchronize", wait_start, 215);
    b.Api("cudaLaunchKernel", 300, 305, 3);
    b.Kernel("M", 310, 320, 3);
    return b;
  };
  auto names = [](const TraceBuilder& b) {
    return [&b](std::size_t i) -> std::int64_t { return b.trace.activities[i].name; };
  };
  TraceBuilder whole = build(8);  // waits 202 ns for the 200 ns chain
  CorrelationIndex index(whole.trace);
  CriticalRuns critical = CriticalActivities(whole.trace, index);
  CHECK(critical.Critical(0));
  CHECK(critical.Critical(1));
  CriticalTimes t = AttributeCriticalTime(whole.trace, critical, names(whole));
  CHECK(t.by_key[whole.trace.strings.Intern("K")].critical_ns == 100);
  // The host reached the sync 50 ns before L ended: either kernel gives back at most those 50 ns
  // (each alone; together too, which their sum overstates).
  TraceBuilder late = build(160);
  CorrelationIndex late_index(late.trace);
  CriticalRuns shared = CriticalActivities(late.trace, late_index);
  CHECK(shared.run_of[0] == shared.run_of[1]);
  CriticalTimes u = AttributeCriticalTime(late.trace, shared, names(late));
  CHECK(u.by_key[late.trace.strings.Intern("K")].critical_ns == 50);
  CHECK(u.by_key[late.trace.strings.Intern("L")].critical_ns == 50);
  // M, the device's last work, runs 15 ns past the host's last call: the program ended with it,
  // and M's 10 ns count whole.
  CHECK(shared.Critical(2));
  CHECK(u.by_key[late.trace.strings.Intern("M")].critical_ns == 10);
  // A host call going on after it: the program never waited for M.
  late.Api("cudaEventQuery", 300, 400);
  CorrelationIndex after_index(late.trace);
  CHECK_FALSE(CriticalActivities(late.trace, after_index).Critical(2));
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
  CHECK(a.critical_ns == 100);  // the last A only (the first one's chain ends in idle)
  CHECK_THAT(a.fraction, WithinRel(0.1, 1e-12));
  CHECK_THAT(*a.limit_speedup, WithinRel(1.0 / 0.9, 1e-12));
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
  const report::CriticalShare& a = p.kernels[0];  // f = 0.1, critical 100 ns
  REQUIRE(a.illustrative_gains.size() == 2);
  CHECK(a.illustrative_gains[0].local_speedup == 1.25);
  // 1 / (0.9 + 0.1 / 1.25) = 1 / 0.98; 100 x (1 - 1 / 1.25) = 20 ns.
  CHECK_THAT(a.illustrative_gains[0].bound_speedup, WithinRel(1.0 / 0.98, 1e-12));
  CHECK(a.illustrative_gains[0].time_saved_ns == 20);
  // 1 / (0.9 + 0.05) = 1 / 0.95; 100 / 2 = 50 ns.
  CHECK_THAT(a.illustrative_gains[1].bound_speedup, WithinRel(1.0 / 0.95, 1e-12));
  CHECK(a.illustrative_gains[1].time_saved_ns == 50);
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
  CHECK(both.critical_ns == 100);
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

TEST_CASE(
    "predictions: a speedup gives back, run by run, the smaller of its run's budget and the "
    "time it removes",
    "[predictions]") {
  // K 10-110 and L 110-210 queued together; the host reaches its sync at 160 and waits until
  // L ends: the run's budget is 50 ns. M runs alone later.
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 5, 1);
  b.Kernel("K", 10, 110, 1);
  b.Api("cudaLaunchKernel", 5, 8, 2);
  b.Kernel("L", 110, 210, 2);
  b.Api("cudaDeviceSynchronize", 160, 215);
  b.Api("cudaLaunchKernel", 300, 305, 3);
  b.Kernel("M", 310, 320, 3);
  CorrelationIndex index(b.trace);
  auto kernels = KernelTable(b.trace, index, 400);
  report::Predictions p = ComputePredictions(b.trace, index, kernels, {}, 20);
  const report::CriticalShare* k = nullptr;
  const report::CriticalShare* l = nullptr;
  for (const report::CriticalShare& share : p.kernels) {
    if (share.name == "K")
      k = &share;
    if (share.name == "L")
      l = &share;
  }
  REQUIRE(k);
  REQUIRE(l);
  CHECK(k->critical_ns == 50);  // free: the whole budget
  // At 1.25x K's 100 ns lose 20 ns, under the budget; at 2x 50 ns, the budget.
  REQUIRE(k->illustrative_gains.size() == 2);
  CHECK(k->illustrative_gains[0].time_saved_ns == 20);
  CHECK(k->illustrative_gains[1].time_saved_ns == 50);
  // Not 20 ns at 1.25x from the capped 50 ns (the speedup removes 20 of K's 100), and together
  // K and L share the 50 ns: not 100.
  CHECK(GainNs(p, {k, l}, kFree) == 50);
  CHECK(GainNs(p, {k, l}, 1.25) == 40);
  // A row without runs (built by hand) counts its critical time without a budget.
  report::CriticalShare alone;
  alone.critical_ns = 80;
  CHECK(GainNs(p, alone, 2.0) == 40);
}

}  // namespace gpuperf::analysis
