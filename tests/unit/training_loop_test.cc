// The mechanisms of a training loop's diagnosis: the idle a per-step synchronization costs after
// its round trip (sync_drain.h), the unfused optimizer step (optimizer_lever.h), warm-up steps
// beyond the first (LeadingOutliers), device allocations in the loop (device_alloc_churn) and
// what counts as teardown, and the profiler options that inflate host time.
#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/core/statistics.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/framework/optimizer_lever.h"
#include "analysis/framework/strided_elementwise.h"
#include "analysis/predictions/preroll.h"
#include "analysis/timeline/critical_time.h"
#include "analysis/timeline/step_windows.h"
#include "analysis/timeline/sync_drain.h"
#include "analysis_builder.h"
#include "corpus.h"

using gpuperf::analysis::Analyze;
using gpuperf::testing::TraceBuilder;
namespace analysis = gpuperf::analysis;
namespace model = gpuperf::model;

namespace {

constexpr std::int64_t kMs = 1'000'000;
constexpr std::int64_t kUs = 1'000;

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const gpuperf::report::Finding* FindingOf(const gpuperf::report::AnalysisReport& r,
                                          std::string_view id) {
  for (const auto& f : r.findings) {
    if (f.id == id)
      return &f;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("sync drain: a per-cycle wait costs the refill idle when the host would stay ahead",
          "[diagnosis][sync]") {
  // Four waits end cycles of 10 ms: the host works 6 ms and waits 4 ms; the GPU is busy 8 ms of
  // each cycle and idles its first 2 ms while the host refills the drained queue.
  analysis::IdleAttribution idle;
  std::vector<gpuperf::util::Interval> waits;
  for (int i = 0; i < 4; ++i) {
    std::int64_t end = (i + 1) * 10 * kMs;
    waits.push_back({end - 4 * kMs, end});
    idle.other_gaps.push_back({end, end + 2 * kMs});
  }
  analysis::DrainCost cost = analysis::DrainCostOf(idle, analysis::HostCausedIdle(idle), waits);
  // Without the waits a cycle takes max(6, 8) = 8 ms: 2 ms of each of the three cycles come back.
  CHECK(cost.cycles == 3);
  CHECK(cost.idle_ns == 6 * kMs);
  CHECK(cost.cycle_ns == 30 * kMs);  // sums over the three cycles
  CHECK(cost.host_ns == 18 * kMs);
  CHECK(cost.gpu_ns == 24 * kMs);
  CHECK(cost.floor_ns == 24 * kMs);
  CHECK(cost.refill_cycles == 3);
  CHECK(cost.first_wait_ns == 0);  // the host would stay ahead: its first wait moves nothing

  // A host-bound loop: four 1 ms waits ending every 10 ms; after the first two the GPU idles
  // 7 ms (it works 3 ms a cycle), after the third `last_cycle_idle`.
  auto host_bound_loop = [](analysis::IdleAttribution& slow, std::int64_t last_cycle_idle) {
    std::vector<gpuperf::util::Interval> short_waits;
    for (int i = 0; i < 4; ++i) {
      std::int64_t end = (i + 1) * 10 * kMs;
      short_waits.push_back({end - 1 * kMs, end});
      if (i < 3)
        slow.other_gaps.push_back({end, end + (i < 2 ? 7 * kMs : last_cycle_idle)});
    }
    return short_waits;
  };

  SECTION("a host-bound loop: each wait costs its own length, not the cycle's idle") {
    analysis::IdleAttribution slow;
    std::vector<gpuperf::util::Interval> short_waits = host_bound_loop(slow, 7 * kMs);
    analysis::DrainCost host_bound =
        analysis::DrainCostOf(slow, analysis::HostCausedIdle(slow), short_waits);
    // 10 - max(9, 3) = 1 ms a cycle; the GPU works through the last wait, which delays no
    // cycle after it: that cycle takes at least 9 + 1 ms and gives nothing back. The first
    // wait is in no cycle; without it every later one starts 1 ms sooner: 1 + 1 + 1 ms.
    CHECK(host_bound.idle_ns == 3 * kMs);
    CHECK(host_bound.first_wait_ns == 1 * kMs);
    CHECK(host_bound.host_ns == 18 * kMs);
    CHECK(host_bound.refill_cycles == 0);
  }
  SECTION("the last wait: the GPU work still running during it follows the host's part") {
    // As in the host-bound loop, but the GPU stays busy through the whole last wait: its
    // cycle gives nothing back (the wait covers GPU work, and no cycle follows to start earlier).
    analysis::IdleAttribution slow;
    // The last cycle: idle early, busy from 2 ms before the wait to its end.
    std::vector<gpuperf::util::Interval> short_waits = host_bound_loop(slow, 6 * kMs);
    auto last = analysis::DrainCostOf(slow, analysis::HostCausedIdle(slow), short_waits);
    CHECK(last.cycles == 2);
    CHECK(last.idle_ns == 2 * kMs + last.first_wait_ns);
    CHECK(last.first_wait_ns == 1 * kMs);
  }
  SECTION("one-time work's idle inside a cycle is no part of it") {
    // A first cuDNN call's 500 us of GPU idle in the host's part of the second cycle, left out of
    // the steady window: the sums lose it, what comes back stays 6 ms.
    analysis::IdleAttribution once = idle;
    once.excluded_gaps = {{12 * kMs + 500 * kUs, 13 * kMs}};
    auto cost_once = analysis::DrainCostOf(once, analysis::HostCausedIdle(once), waits);
    CHECK(cost_once.idle_ns == 6 * kMs);
    CHECK(cost_once.cycle_ns == 30 * kMs - 500 * kUs);
    CHECK(cost_once.host_ns == 18 * kMs - 500 * kUs);
    CHECK(cost_once.gpu_ns == 24 * kMs - 500 * kUs);  // the GPU idled there
  }
  SECTION("two cycles are no loop") {
    waits.resize(3);
    auto none = analysis::DrainCostOf(idle, analysis::HostCausedIdle(idle), waits);
    CHECK(none.idle_ns == 0);
    CHECK(none.loop_cycles == 0);
  }
  SECTION("idle after a synchronous copy in the cycle is the copy's") {
    std::vector<gpuperf::util::Interval> copies;
    for (int i = 1; i < 4; ++i)
      copies.push_back({i * 10 * kMs + 500 * kUs, i * 10 * kMs + 600 * kUs});
    auto cut = analysis::DrainCostOf(idle, analysis::HostCausedIdle(idle), waits, copies);
    CHECK(cut.idle_ns == 3 * 500 * kUs);
    CHECK(cut.loop_cycles == 3);
  }
  SECTION("queued idle is no refill") {
    analysis::IdleAttribution queued;
    queued.queued_gaps_at = idle.other_gaps;
    CHECK(analysis::DrainCostOf(queued, analysis::HostCausedIdle(queued), waits).idle_ns == 0);
  }
}

namespace {

const std::string kForeachAdd =
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
    "namespace)::TensorListMetadata<2>, at::native::(anonymous "
    "namespace)::BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float>()";
const std::string kForeachSqrt =
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
    "namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::UnaryOpFunctor<float, "
    "2, 1, 1>, at::native::Sqrt<float>>()";

// Ten steps of 10 ms: a 6 ms GEMM and, when `optimizer` is set, two foreach kernels of 1 ms.
TraceBuilder Loop(const std::string& first, const std::string& second) {
  TraceBuilder b;
  std::int64_t correlation = 1;
  for (int i = 0; i < 10; ++i) {
    std::int64_t t = i * 10 * kMs;
    b.Api("cudaLaunchKernel", t, t + 10 * kUs, correlation);
    b.Kernel("sm90_xmma_gemm_bf16", t + 20 * kUs, t + 6 * kMs, correlation++);
    b.Api("cudaLaunchKernel", t + 6 * kMs, t + 6 * kMs + 10 * kUs, correlation);
    b.Kernel(first, t + 6 * kMs + 20 * kUs, t + 7 * kMs + 20 * kUs, correlation++);
    b.Api("cudaLaunchKernel", t + 7 * kMs, t + 7 * kMs + 10 * kUs, correlation);
    b.Kernel(second, t + 7 * kMs + 30 * kUs, t + 8 * kMs + 30 * kUs, correlation++);
  }
  return b;
}

}  // namespace

TEST_CASE("optimizer lever: foreach kernels by name, fused=True, a fused optimizer has none",
          "[levers][optimizer]") {
  TraceBuilder b = Loop(kForeachAdd, kForeachSqrt);
  auto lever = analysis::framework::UnfusedOptimizerLever(b.trace, {}, 5 * kMs);
  REQUIRE(lever);
  CHECK(lever->kind == gpuperf::report::LeverKind::kFusedOptimizer);
  CHECK(lever->time_ns == 20 * kMs);
  CHECK(lever->saved_ns == 10 * kMs);  // the assumed 2x
  CHECK(lever->assumed_local_speedup == 2.0);
  CHECK(Contains(lever->basis, "20 kernels, 20.0 ms in the window"));
  CHECK(Contains(lever->basis, "2 distinct foreach kernels"));
  CHECK(Contains(lever->experiment, "fused=True where torch.optim offers it"));

  SECTION("only kernels that start in the window count") {
    auto half = analysis::framework::UnfusedOptimizerLever(b.trace, {50 * kMs, 100 * kMs}, 0);
    REQUIRE(half);
    CHECK(half->time_ns == 10 * kMs);
    CHECK(!analysis::framework::UnfusedOptimizerLever(b.trace, {50 * kMs, 100 * kMs}, 11 * kMs));
  }
  SECTION("the optimizer's operator names its class and the change") {
    for (int i = 0; i < 10; ++i)
      b.Op("Optimizer.step#AdamW.step", i * 10 * kMs + 6 * kMs - kUs, i * 10 * kMs + 8 * kMs);
    auto named = analysis::framework::UnfusedOptimizerLever(b.trace, {}, 0);
    REQUIRE(named);
    CHECK(named->subject == "the AdamW step");
    CHECK(Contains(named->experiment, "torch.optim.AdamW(params, ..., fused=True)"));
    CHECK(Contains(named->basis, "the AdamW step's (its Optimizer.step#AdamW.step ranges"));
  }
  SECTION("the step as a user annotation, as most profilers record it") {
    for (int i = 0; i < 10; ++i)
      b.AddRange(model::RangeKind::kUserAnnotation,
                 "Optimizer.step#SGD.step",
                 i * 10 * kMs + 6 * kMs - kUs,
                 i * 10 * kMs + 8 * kMs);
    auto named = analysis::framework::UnfusedOptimizerLever(b.trace, {}, 0);
    REQUIRE(named);
    CHECK(named->subject == "the SGD step");
    CHECK(named->time_ns == 20 * kMs);
  }
  SECTION("a fused optimizer by its class or its kernels proposes nothing") {
    TraceBuilder apex = Loop(kForeachAdd, kForeachSqrt);
    apex.Op("Optimizer.step#FusedAdam.step", 0, 100 * kMs);
    CHECK(!analysis::framework::UnfusedOptimizerLever(apex.trace, {}, 0));
    TraceBuilder annotated = Loop(kForeachAdd, kForeachSqrt);
    annotated.AddRange(
        model::RangeKind::kUserAnnotation, "Optimizer.step#FusedAdam.step", 0, 100 * kMs);
    CHECK(!analysis::framework::UnfusedOptimizerLever(annotated.trace, {}, 0));
    TraceBuilder fused =
        Loop(kForeachAdd, "void multi_tensor_apply_kernel<FusedAdamMathFunctor>()");
    CHECK(!analysis::framework::UnfusedOptimizerLever(fused.trace, {}, 0));
  }
  SECTION("gradient norms and AMP's unscale are no optimizer update") {
    TraceBuilder norms =
        Loop("void multi_tensor_apply_kernel<LpNormFunctor<float>>()",
             "void multi_tensor_apply_kernel<_amp_foreach_non_finite_check_and_unscale>()");
    CHECK(!analysis::framework::UnfusedOptimizerLever(norms.trace, {}, 0));
  }
}

TEST_CASE("warm-up steps: leading outliers, each against the steps after it",
          "[diagnosis][preroll]") {
  using analysis::LeadingOutliers;
  // The H200 MLP's step walls (ms): a lazy-loading first step, an allocator-growing second one.
  CHECK(LeadingOutliers({321, 8.97, 7.32, 7.35, 7.06, 7.09, 7.09, 7.06, 7.32, 7.05, 7.1, 7.1}) ==
        2);
  CHECK(LeadingOutliers({20, 10, 10, 10}) == 1);
  CHECK(LeadingOutliers({10, 10, 10}) == 0);
  CHECK(LeadingOutliers({100, 90, 80, 10, 10, 10}) == 3);  // never more than half
  CHECK(LeadingOutliers({10, 30, 10, 10}) == 0);           // a later outlier is no warm-up

  // Six steps of 30, 20 and four of 10 ms: the first two are left out.
  TraceBuilder b;
  std::int64_t t = 0, correlation = 1;
  for (std::int64_t wall : {30 * kMs, 20 * kMs, 10 * kMs, 10 * kMs, 10 * kMs, 10 * kMs}) {
    b.AddRange(model::RangeKind::kProfilerStep,
               "ProfilerStep#" + std::to_string(correlation),
               t,
               t + wall);
    b.Api("cudaLaunchKernel", t, t + 10 * kUs, correlation);
    b.Kernel("step", t + 20 * kUs, t + 5 * kMs, correlation++);
    t += wall;
  }
  auto lead = analysis::FindStepLead(
      b.trace, analysis::ComputeTraceWindow(b.trace), analysis::FindWindowSteps(b.trace, nullptr));
  CHECK(lead.warmup_steps == 2);
  CHECK(lead.end_ns == 50 * kMs);
  CHECK(lead.warmup_step_wall_ns == 50 * kMs);
  CHECK(lead.other_steps_median_ns == 10 * kMs);
  auto report = Analyze(b.trace);
  CHECK(report.predictions.wall_ns == 40 * kMs);
  REQUIRE(report.predictions.preroll);
  CHECK(report.predictions.preroll->warmup_steps == 2);
  REQUIRE(report.framework.step_summary);
  CHECK(report.framework.step_summary->warmup_steps == 2);
  CHECK(Contains(report.headline, "the first 2 steps, ProfilerStep#1"));
  CHECK(Contains(report.diagnosis.baseline, "over the 4 after the first 2"));
}

namespace {

// A program that allocates and frees in its loop of `iterations`, each with one kernel; after
// the loop it frees `exit_frees` buffers. `free_in_loop`: false leaks each iteration's buffer.
TraceBuilder AllocatingLoop(int iterations, bool free_in_loop, const std::string& kernel) {
  TraceBuilder b;
  std::int64_t correlation = 1, t = 0;
  b.Api("cudaMalloc", t, t + 100 * kUs);  // set-up: before the first GPU work
  t += kMs;
  for (int i = 0; i < iterations; ++i) {
    b.Api("cudaMalloc", t, t + 1 * kMs);
    b.Api("cudaLaunchKernel", t + 1 * kMs, t + 1 * kMs + 10 * kUs, correlation);
    b.Kernel(kernel, t + 1 * kMs + 20 * kUs, t + 3 * kMs, correlation++);
    if (free_in_loop)
      b.Api("cudaFree", t + 3 * kMs, t + 4 * kMs);
    t += 5 * kMs;
  }
  b.Api("cudaFree", t, t + 100 * kUs);  // exit
  return b;
}

}  // namespace

TEST_CASE("device allocations in the loop: churn, leaks, and a framework's caching allocator",
          "[findings][memory]") {
  auto churn = Analyze(AllocatingLoop(10, true, "scale_kernel").trace);
  const auto* f = FindingOf(churn, "device_alloc_churn");
  REQUIRE(f);
  // The first iteration's allocation precedes all GPU work (set-up) and the last one's free
  // follows it and the last allocation (teardown): nine of each are the loop's.
  CHECK(f->count == 18);
  CHECK(f->time_ns == 18 * kMs);
  CHECK(f->gpu_idle_caused_ns == 18 * kMs);  // no GPU work runs during any of them
  CHECK(Contains(f->summary, "9 device allocations and 9 frees outside one-time work"));
  CHECK(!Contains(f->summary, "never freed"));

  auto leak = Analyze(AllocatingLoop(10, false, "scale_kernel").trace);
  f = FindingOf(leak, "device_alloc_churn");
  REQUIRE(f);
  CHECK(Contains(f->summary, "10 of the 11 device allocations in the trace are never freed"));
  CHECK(Contains(f->summary, "6 live at the middle of the GPU span, 10 at the end"));

  // Buffers allocated at start-up and left to the exit do not pile up: no leak is claimed.
  TraceBuilder startup = AllocatingLoop(10, true, "scale_kernel");
  for (int i = 0; i < 3; ++i)
    startup.Api("cudaMalloc", 2 * kMs + 100 * kUs * i, 2 * kMs + 100 * kUs * i + 50 * kUs);
  auto startup_report = Analyze(startup.trace);  // the finding points into it
  f = FindingOf(startup_report, "device_alloc_churn");
  REQUIRE(f);
  CHECK(!Contains(f->summary, "never freed"));

  // PyTorch's caching allocator grows its pool and keeps it: no finding without frees.
  auto cached = Analyze(
      AllocatingLoop(10, false, "void at::native::vectorized_elementwise_kernel<4>()").trace);
  CHECK(!FindingOf(cached, "device_alloc_churn"));
  CHECK(!FindingOf(Analyze(AllocatingLoop(5, true, "scale_kernel").trace), "device_alloc_churn"));
}

TEST_CASE(
    "teardown: releases after the last GPU work and the last allocation, not a loop that "
    "allocates there",
    "[diagnosis][initialization]") {
  // One kernel, then a loop of 20 allocate/free pairs with no GPU work, then a final free.
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 10 * kUs, 1);
  b.Kernel("k", 20 * kUs, 2 * kMs, 1);
  std::int64_t t = 3 * kMs;
  for (int i = 0; i < 20; ++i, t += 2 * kMs) {
    b.Api("cudaMalloc", t, t + 500 * kUs);
    b.Api("cudaFree", t + kMs, t + kMs + 500 * kUs);
  }
  b.Api("cudaStreamDestroy", t, t + 50 * kUs);
  auto r = Analyze(b.trace);
  std::int64_t teardown_calls = 0;
  for (const auto& item : r.initialization.items) {
    CHECK(item.name != "cudaMalloc");
    if (item.kind == gpuperf::report::InitializationKind::kTeardown)
      teardown_calls += item.count;
  }
  CHECK(teardown_calls == 2);  // the free after the last allocation, cudaStreamDestroy
  CHECK(FindingOf(r, "device_alloc_churn"));
}

TEST_CASE("profiler overhead: every option that adds per-operator host work is named",
          "[diagnosis][host]") {
  TraceBuilder b;
  for (const char* key : {"profile_memory", "with_flops", "with_modules"})
    b.trace.metadata.properties[key] = "1";
  CHECK(Contains(analysis::ProfilerOverheadText(b.trace, true, "x"),
                 "recorded with shapes, allocator events, FLOP estimates and module hierarchy "
                 "(record_shapes, profile_memory, with_flops, with_modules)"));
  b.trace.metadata.properties["with_flops"] = "false";
  CHECK(!Contains(analysis::ProfilerOverheadText(b.trace, false, "x"), "with_flops"));
}

TEST_CASE("start-up: the stretch before the first step that the trace records nothing in",
          "[diagnosis][preroll]") {
  TraceBuilder b;
  b.Api("cudaGetDeviceCount", 0, 1 * kMs);  // process start
  std::int64_t correlation = 1;
  for (int i = 0; i < 3; ++i) {
    std::int64_t t = 100 * kMs + i * 10 * kMs;
    b.AddRange(
        model::RangeKind::kProfilerStep, "ProfilerStep#" + std::to_string(i), t, t + 10 * kMs);
    b.Api("cudaLaunchKernel", t, t + 10 * kUs, correlation);
    b.Kernel("step", t + 20 * kUs, t + 8 * kMs, correlation++);
  }
  auto lead = analysis::FindStepLead(
      b.trace, analysis::ComputeTraceWindow(b.trace), analysis::FindWindowSteps(b.trace, nullptr));
  CHECK(lead.lead_in_ns == 100 * kMs);
  CHECK(lead.lead_in_unrecorded_ns == 99 * kMs);
  CHECK(lead.lead_in_unrecorded_start_ns == 1 * kMs);
  auto report = Analyze(b.trace);
  CHECK(Contains(report.headline,
                 "99.0 ms of it, from +1.00 ms to +100 ms, the trace records "
                 "nothing"));
  SECTION("recorded host work in the lead leaves no stretch of half of it") {
    b.Op("aten::empty", 30 * kMs, 60 * kMs);
    auto busy = analysis::FindStepLead(b.trace,
                                       analysis::ComputeTraceWindow(b.trace),
                                       analysis::FindWindowSteps(b.trace, nullptr));
    CHECK(busy.lead_in_ns == 100 * kMs);
    CHECK(busy.lead_in_unrecorded_ns == 0);
  }
}

TEST_CASE("strided elementwise: PyTorch's non-vectorized path by kernel name, with its operators",
          "[levers]") {
  using analysis::framework::IsStridedElementwiseKernel;
  CHECK(
      IsStridedElementwiseKernel("void at::native::elementwise_kernel<128, 4, "
                                 "at::native::gpu_kernel_impl_nocast<...>>(int, ...)"));
  CHECK(
      IsStridedElementwiseKernel("void at::native::elementwise_kernel_manual_unroll<128, 8, "
                                 "at::native::gpu_kernel_impl_nocast<...>>(int, ...)"));  // ROCm
  CHECK(!IsStridedElementwiseKernel("void at::native::vectorized_elementwise_kernel<4, ...>()"));
  CHECK(!IsStridedElementwiseKernel("void at::native::unrolled_elementwise_kernel<...>()"));
  CHECK(!IsStridedElementwiseKernel("void (anonymous namespace)::elementwise_kernel_with_index<>"));
  gpuperf::report::AnalysisReport r;
  auto row = [&](const std::string& name, std::int64_t ns, const std::string& op) {
    gpuperf::report::KernelRow k;
    k.name = name;
    k.duration_ns.total = ns;
    k.duration_ns.count = 2;
    k.top_operator = op;
    r.kernels.push_back(k);
  };
  row("void at::native::elementwise_kernel<128, 4, A>()", 3 * kMs, "aten::mul");
  row("void at::native::elementwise_kernel<128, 4, B>()", 5 * kMs, "aten::copy_");
  row("void at::native::vectorized_elementwise_kernel<4, C>()", 7 * kMs, "aten::add");
  auto strided = analysis::framework::StridedElementwiseOf(r);
  CHECK(strided.time_ns == 8 * kMs);
  CHECK(strided.kernels == 4);
  CHECK(strided.top_operators == std::vector<std::string>{"aten::copy_", "aten::mul"});
}

TEST_CASE("host close behind: the pre-roll shows how far ahead the unrecorded host ran",
          "[diagnosis][host][corpus]") {
  auto path =
      gpuperf::testing::CorpusFile("kineto/tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz");
  if (!path)
    return;
  auto trace = gpuperf::io::ImportTraceFile(*path);
  REQUIRE(trace.ok());
  auto r = Analyze(trace.value());
  const auto& d = r.diagnosis;
  REQUIRE(d.bound_speedup_same_launches);
  CHECK(*d.bound_speedup_same_launches == Catch::Detail::Approx(1.06).margin(0.005));
  bool said = false;
  for (const std::string& line : d.support)
    said = said || Contains(line,
                            "at its start the GPU still had 13.7 ms of work the host had "
                            "queued earlier (the pre-roll), against the 2.03 ms");
  CHECK(said);
  // The bound with as many launches leads the headline (the host holds the gain beyond it).
  CHECK(Contains(r.headline,
                 "at most 1.06x faster if the kernels only get faster and the host "
                 "launches as many as now"));
}

TEST_CASE("copy phase: pageable copies beside an idle phase get their own ranked statement",
          "[diagnosis][transfer]") {
  // On an H100 (PCIe Gen5, 64 GB/s each way): a loop of 20 short kernels 2 ms apart (launch
  // gaps), then 4 pageable 64 MB copies at 8 GB/s (8.39 ms each) and 2 pinned 64 MB copies at
  // 50 GB/s (1.34 ms each), all on the host's thread.
  TraceBuilder b;
  b.Gpu("NVIDIA H100 80GB HBM3", 9, 132);
  std::int64_t t = 0, correlation = 1;
  for (int i = 0; i < 20; ++i, t += 2 * kMs) {
    b.Api("cudaLaunchKernel", t, t + 20 * kUs, correlation);
    b.Kernel("tiny", t + 30 * kUs, t + 40 * kUs, correlation++);
  }
  constexpr std::int64_t kBytes = 64 << 20;
  auto copy = [&](model::MemoryKind host, std::int64_t length) {
    b.Api("cudaMemcpy", t, t + length + 20 * kUs, correlation);
    b.Memcpy(
        model::CopyKind::kHtoD, t + 10 * kUs, t + 10 * kUs + length, kBytes, correlation++, host);
    t += length + 40 * kUs;
  };
  for (int i = 0; i < 4; ++i)
    copy(model::MemoryKind::kPageable, kBytes * 1'000'000'000 / (8'000'000'000LL));
  for (int i = 0; i < 2; ++i)
    copy(model::MemoryKind::kPinned, kBytes * 1'000'000'000 / (50'000'000'000LL));
  auto r = Analyze(b.trace);
  const auto& d = r.diagnosis;
  INFO(r.headline);
  // The idle (launch) phase and the copy phase are both statements; the larger bound leads.
  const gpuperf::report::Diagnosis* copies =
      d.bottleneck == gpuperf::report::Bottleneck::kTransferBound ? &d
      : !d.secondary.empty() &&
              d.secondary.front().bottleneck == gpuperf::report::Bottleneck::kTransferBound
          ? &d.secondary.front()
          : nullptr;
  REQUIRE(copies);
  CHECK(Contains(copies->next_experiment, "Pin the host buffers of the pageable copies"));
  CHECK(Contains(copies->next_experiment,
                 "at the rate this trace's own pinned copies reach, measured"));
  // 4 copies of 8.39 ms would take 1.34 ms each pinned: 28.2 ms less.
  const double window = static_cast<double>(t - 40 * kUs) / 1e6;
  REQUIRE(copies->bound_speedup);
  CHECK(*copies->bound_speedup ==
        Catch::Detail::Approx(window / (window - 4 * (8.389 - 1.342))).epsilon(0.01));
}

TEST_CASE("findings count the steady window and say how much they left out before it",
          "[findings][preroll]") {
  // Five ProfilerSteps, the first an outlier (30 ms, then 10 ms each), each ending in a 1 ms
  // cudaStreamSynchronize after its kernel (or only the first, the warm-up step).
  auto steps = [](bool every_step_waits) {
    TraceBuilder b;
    std::int64_t t = 0, correlation = 1;
    for (std::int64_t wall : {30 * kMs, 10 * kMs, 10 * kMs, 10 * kMs, 10 * kMs}) {
      b.AddRange(model::RangeKind::kProfilerStep,
                 "ProfilerStep#" + std::to_string(correlation),
                 t,
                 t + wall);
      b.Api("cudaLaunchKernel", t, t + 10 * kUs, correlation);
      b.Kernel("step", t + 20 * kUs, t + wall - 2 * kMs, correlation);
      if (every_step_waits || correlation == 1)
        b.Api("cudaStreamSynchronize", t + wall - 3 * kMs, t + wall - 2 * kMs);
      ++correlation;
      t += wall;
    }
    return b;
  };
  auto r = Analyze(steps(true).trace);
  REQUIRE(r.predictions.preroll);
  const auto* sync = FindingOf(r, "sync_api");
  REQUIRE(sync);
  INFO(sync->summary);
  CHECK(sync->count == 4);  // the warm-up step's wait is left out
  CHECK(sync->time_ns == 4 * kMs);
  CHECK(sync->rows.size() == 4);
  CHECK(
      Contains(sync->summary, "4 device or stream synchronizations held host threads for 4.00 ms"));
  CHECK(Contains(sync->summary,
                 " 1 more (1.00 ms blocked) lies before the steady-state window, in what the "
                 "diagnosis leaves out"));
  // The loop's first cycle starts at the window (30 ms), not at the warm-up wait's end (28 ms).
  CHECK(Contains(sync->summary, "(28.0 ms in all, 8.00 ms to 10.0 ms each"));
  // Only the warm-up step waits: all of it lies before, and then it is the finding.
  auto warmup_only = Analyze(steps(false).trace);
  sync = FindingOf(warmup_only, "sync_api");
  REQUIRE(sync);
  CHECK(sync->count == 1);
  CHECK(Contains(sync->summary, " It (1.00 ms blocked) lies before the steady-state window"));
  CHECK(Contains(sync->summary, "none is in the steady state, so they cost it nothing"));
  // The copy rules the same way: a pageable async copy in the warm-up step and one in the fourth.
  TraceBuilder copies = steps(true);
  std::int64_t correlation = 100;
  for (std::int64_t at : {5 * kMs, 55 * kMs}) {
    copies.Api("cudaMemcpyAsync", at, at + 2 * kMs, correlation);
    copies.Memcpy(model::CopyKind::kDtoH, at + 10 * kUs, at + 1 * kMs, 1 << 20, correlation++)
        .dst_kind = model::MemoryKind::kPageable;
  }
  auto with_copies = Analyze(copies.trace);
  const auto* pageable = FindingOf(with_copies, "pageable_async_memcpy");
  REQUIRE(pageable);
  CHECK(pageable->count == 1);
  CHECK(pageable->rows.size() == 1);
  CHECK(Contains(pageable->summary, " 1 more (2.00 ms blocked) lies before the steady-state"));
  // Launch overhead: three 1 µs kernels behind 10 µs calls in the warm-up step, two in the
  // fourth.
  for (std::int64_t at : {7 * kMs, 8 * kMs, 9 * kMs, 57 * kMs, 58 * kMs}) {
    copies.Api("cudaLaunchKernel", at, at + 10 * kUs, correlation);
    copies.Kernel("tiny", at + 20 * kUs, at + 21 * kUs, correlation++);
  }
  with_copies = Analyze(copies.trace);
  const auto* launch = FindingOf(with_copies, "launch_overhead");
  REQUIRE(launch);
  CHECK(launch->count == 2);
  CHECK(Contains(launch->summary,
                 " 4 more launch calls before the steady-state window (a start-up, warm-up "
                 "steps, the previous step's tail) are left out."));
}

TEST_CASE("profiler overhead: a sync finding whose cycles rest on profiled host time says so",
          "[diagnosis][host]") {
  // Six 10 ms cycles: a launch, an 8 ms kernel, a wait for it from 1 ms in, then 2 ms of host
  // work while the GPU idles. The sync finding's cycles rest on the host's part.
  TraceBuilder b;
  for (int i = 0; i < 6; ++i) {
    std::int64_t t = i * 10 * kMs;
    b.Api("cudaLaunchKernel", t, t + 10 * kUs, i + 1);
    b.Kernel("k", t + 50 * kUs, t + 8 * kMs, i + 1);
    b.Api("cudaDeviceSynchronize", t + kMs, t + 8 * kMs + 10 * kUs);
  }
  auto without = Analyze(b.trace);
  const auto* sync = FindingOf(without, "sync_api");
  REQUIRE(sync);
  REQUIRE(sync->gpu_idle_caused_ns);
  CHECK(*sync->gpu_idle_caused_ns > 0);
  CHECK(!Contains(sync->summary, "The trace was recorded with"));

  b.trace.metadata.properties["with_stack"] = "1";
  auto with = Analyze(b.trace);
  sync = FindingOf(with, "sync_api");
  REQUIRE(sync);
  CHECK(Contains(sync->summary,
                 "The trace was recorded with Python stacks (with_stack): the profiler's "
                 "per-operator work inflates the host's"));
  CHECK(Contains(sync->summary, "outside the waits that these cycles rest on"));
}

TEST_CASE("phase verdicts: each NVTX phase gets its own class from what fills its time",
          "[diagnosis][phases]") {
  // Four phases of one pass: copies (a 40 ms HtoD copy), launches (100 tiny kernels, each behind
  // a 300 µs launch call), allocations (20 cudaMalloc/cudaFree pairs, no GPU work) and a
  // blocking MPI_Send (10 ms, no GPU work).
  TraceBuilder b;
  auto phase = [&](const char* name, std::int64_t start, std::int64_t end) {
    model::Range& r = b.AddRange(model::RangeKind::kNvtx, name, start, end);
    r.pid = 100;
    r.tid = 101;
  };
  std::int64_t correlation = 1;
  phase("phase:copy", 0, 50 * kMs);
  b.Api("cudaMemcpy", 0, 41 * kMs, correlation);
  b.Memcpy(model::CopyKind::kHtoD, kMs, 41 * kMs, 1 << 30, correlation++);
  phase("phase:launch", 50 * kMs, 80 * kMs);
  for (int i = 0; i < 100; ++i) {
    std::int64_t t = 50 * kMs + i * 300 * kUs;
    b.Api("cudaLaunchKernel", t, t + 290 * kUs, correlation);
    b.Kernel("tiny", t + 292 * kUs, t + 297 * kUs, correlation++);
  }
  phase("phase:alloc", 80 * kMs, 100 * kMs);
  for (int i = 0; i < 20; ++i) {
    std::int64_t t = 80 * kMs + i * kMs;
    b.Api("cudaMalloc", t, t + 500 * kUs);
    b.Api("cudaFree", t + 500 * kUs, t + 990 * kUs);
  }
  phase("MPI_Send", 100 * kMs, 110 * kMs);
  b.Api("cudaLaunchKernel", 110 * kMs, 110 * kMs + 10 * kUs, correlation);
  b.Kernel("last", 110 * kMs + 20 * kUs, 111 * kMs, correlation++);
  auto r = Analyze(b.trace);
  REQUIRE(r.phase_verdicts.size() == 4);
  auto verdict = [&](const std::string& name) -> const gpuperf::report::PhaseVerdict* {
    for (const auto& v : r.phase_verdicts) {
      if (v.name == name)
        return &v;
    }
    return nullptr;
  };
  const auto* copy = verdict("phase:copy");
  REQUIRE(copy);
  CHECK(copy->verdict == gpuperf::report::PhaseClass::kTransferBound);
  CHECK(copy->copy_exposed_ns == 40 * kMs);
  CHECK(copy->idle_ns == 10 * kMs);
  CHECK(copy->idle_sync_ns == kMs);  // the copy call's own wait before the copy starts
  const auto* launch = verdict("phase:launch");
  REQUIRE(launch);
  CHECK(launch->verdict == gpuperf::report::PhaseClass::kLaunchBound);
  CHECK(launch->kernel_ns == 100 * 5 * kUs);
  CHECK(launch->idle_launch_ns == 100 * 290 * kUs);
  const auto* alloc = verdict("phase:alloc");
  REQUIRE(alloc);
  CHECK(alloc->verdict == gpuperf::report::PhaseClass::kAllocationBound);
  CHECK(alloc->idle_alloc_ns == 20 * 990 * kUs);
  const auto* mpi = verdict("MPI_Send");
  REQUIRE(mpi);
  CHECK(mpi->verdict == gpuperf::report::PhaseClass::kCommunicationBound);
  CHECK(mpi->idle_mpi_ns == 10 * kMs);
  // First the longest.
  CHECK(r.phase_verdicts.front().name == "phase:copy");

  // A phase whose GPU work runs after it (the host ahead): runs behind. B holds that work.
  TraceBuilder ahead;
  auto ahead_phase = [&](const char* name, std::int64_t start, std::int64_t end) {
    model::Range& range = ahead.AddRange(model::RangeKind::kNvtx, name, start, end);
    range.pid = 100;
    range.tid = 101;
  };
  ahead_phase("A", 0, 10 * kMs);
  ahead_phase("B", 10 * kMs, 40 * kMs);
  ahead.Api("cudaLaunchKernel", kMs, kMs + 10 * kUs, 1);
  ahead.Kernel("late", 12 * kMs, 32 * kMs, 1);
  ahead.Api("cudaDeviceSynchronize", 35 * kMs, 40 * kMs);
  auto behind = Analyze(ahead.trace);
  REQUIRE(behind.phase_verdicts.size() == 2);
  for (const auto& v : behind.phase_verdicts) {
    if (v.name == "A") {
      CHECK(v.verdict == gpuperf::report::PhaseClass::kRunsBehind);
      CHECK(v.launched_gpu_ns == 20 * kMs);
      CHECK(v.launched_inside_ns == 0);
    } else {
      CHECK(v.verdict == gpuperf::report::PhaseClass::kGpuBound);
      CHECK(v.kernel_ns == 20 * kMs);
    }
  }
  // The program does not wait for A's host time: no Amdahl limit for it.
  bool a_listed = false;
  for (const auto& p : behind.predictions.phases) {
    if (p.name == "A") {
      a_listed = true;
      CHECK_FALSE(p.limit_speedup);
    }
  }
  CHECK(a_listed);

  // One phase is the window's own diagnosis: no table.
  TraceBuilder one;
  model::Range& only = one.AddRange(model::RangeKind::kNvtx, "phase:copy", 0, 50 * kMs);
  only.pid = 100;
  one.Api("cudaMemcpy", 0, 41 * kMs, 1);
  one.Memcpy(model::CopyKind::kHtoD, kMs, 41 * kMs, 1 << 30, 1);
  one.Api("cudaLaunchKernel", 60 * kMs, 60 * kMs + 10 * kUs, 2);
  one.Kernel("k", 60 * kMs + 20 * kUs, 100 * kMs, 2);
  CHECK(Analyze(one.trace).phase_verdicts.empty());
}

TEST_CASE("phase verdicts: a phase whose GPU work is mostly collectives running alone",
          "[diagnosis][phases]") {
  // forward: 2 ms of GEMM, then 7 ms of NCCL send/recv with nothing beside it (hta dlrm rank 0's
  // forward); backward: 8 ms of GEMM with a 4 ms all-reduce hidden under it.
  TraceBuilder b;
  auto phase = [&](const char* name, std::int64_t start, std::int64_t end) {
    model::Range& r = b.AddRange(model::RangeKind::kUserAnnotation, name, start, end);
    r.pid = 100;
    r.tid = 101;
  };
  phase("## forward ##", 0, 10 * kMs);
  b.Api("cudaLaunchKernel", 0, 10 * kUs, 1);
  b.Kernel("ampere_sgemm_128x64_nn", 20 * kUs, 2 * kMs, 1);
  b.Api("cudaLaunchKernel", 20 * kUs, 30 * kUs, 2);
  b.Kernel("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t", 2 * kMs, 9 * kMs, 2);
  phase("## backward ##", 10 * kMs, 20 * kMs);
  b.Api("cudaLaunchKernel", 10 * kMs, 10 * kMs + 10 * kUs, 3);
  b.Kernel("ampere_sgemm_128x64_nt", 10 * kMs + 20 * kUs, 18 * kMs, 3);
  b.Api("cudaLaunchKernel", 10 * kMs + 20 * kUs, 10 * kMs + 30 * kUs, 4);
  b.Kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 12 * kMs, 16 * kMs, 4);
  auto r = Analyze(b.trace);
  REQUIRE(r.phase_verdicts.size() == 2);
  for (const auto& v : r.phase_verdicts) {
    if (v.name == "## forward ##") {
      CHECK(v.verdict == gpuperf::report::PhaseClass::kCommunicationBound);
      CHECK(v.communication_ns == 7 * kMs);
      CHECK(v.kernel_ns == 9 * kMs - 20 * kUs);
    } else {
      // The all-reduce runs under the GEMM: the phase waits for its computation.
      CHECK(v.verdict == gpuperf::report::PhaseClass::kGpuBound);
      CHECK(v.communication_ns == 0);
    }
  }
}

TEST_CASE(
    "phase verdicts: a wait loop's round trips apart from its waits, and what removing them "
    "gives back",
    "[diagnosis][phases]") {
  // phase:sync, 100 cycles of 10 µs: a 6 µs launch call, its 1 µs kernel, and a
  // cudaDeviceSynchronize from 6.5 µs to 10 µs. The GPU idles 2 µs inside each wait and 7 µs in
  // the round trip after it (the next launch call). phase:launch then launches without waits.
  // Inside each wait the GPU idles 2.5 µs (0.5 µs before the kernel starts, 2 µs after it ends);
  // the other 6.5 µs of each cycle's idle, up to the next wait, is the round trip (the first
  // cycle's lead before its kernel overlaps the first wait too, so it counts as one).
  TraceBuilder b;
  auto phase = [&](const char* name, std::int64_t start, std::int64_t end) {
    model::Range& r = b.AddRange(model::RangeKind::kNvtx, name, start, end);
    r.pid = 100;
    r.tid = 101;
  };
  std::int64_t correlation = 1;
  constexpr int kCycles = 100;
  phase("phase:sync", 0, kCycles * 10 * kUs);
  for (int i = 0; i < kCycles; ++i) {
    std::int64_t t = i * 10 * kUs;
    b.Api("cudaLaunchKernel", t, t + 6 * kUs, correlation);
    b.Kernel("tiny", t + 7 * kUs, t + 8 * kUs, correlation++);
    b.Api("cudaDeviceSynchronize", t + 6500, t + 10 * kUs);
  }
  const std::int64_t launch_start = kCycles * 10 * kUs;
  phase("phase:launch", launch_start, launch_start + kCycles * 7 * kUs);
  for (int i = 0; i < kCycles; ++i) {
    std::int64_t t = launch_start + i * 7 * kUs;
    b.Api("cudaLaunchKernel", t, t + 6 * kUs, correlation);
    b.Kernel("tiny", t + 7 * kUs, t + 8 * kUs, correlation++);
  }
  for (model::ApiCall& c : b.trace.api_calls) {
    c.pid = 100;
    c.tid = 101;
  }
  auto r = Analyze(b.trace);
  const gpuperf::report::PhaseVerdict* sync = nullptr;
  for (const auto& v : r.phase_verdicts)
    sync = v.name == "phase:sync" ? &v : sync;
  REQUIRE(sync);
  CHECK(sync->verdict == gpuperf::report::PhaseClass::kSyncBound);
  CHECK(sync->idle_round_trip_ns == kCycles * 6500);
  CHECK(sync->idle_sync_ns - sync->idle_round_trip_ns == kCycles * 2500);
  // Removing the waits gives back what the sync finding says they cost, not the round trips:
  // the launch calls remain.
  const gpuperf::report::Finding* finding = nullptr;
  for (const auto& f : r.findings)
    finding = f.id == gpuperf::report::finding_id::kSyncApi ? &f : finding;
  REQUIRE(finding);
  REQUIRE(finding->gpu_idle_caused_ns);
  CHECK(sync->wait_removal_ns == *finding->gpu_idle_caused_ns);
  // The loop's cost is no sum of its rows: their column says what they hold.
  CHECK(finding->columns.back() == "GPU idle removing it alone gives back (ns)");
  CHECK(sync->wait_removal_ns > 0);
  CHECK(sync->wait_removal_ns < sync->idle_sync_ns);
}

TEST_CASE("phases: measured in the steady-state window, as the kernels' shares are",
          "[diagnosis][phases]") {
  // 40 ms of one-time work (MPI_Init, the GPU idle), then 30 iterations of 2 ms inside the
  // range "loop"; "loop" also covers the last 10 ms of MPI_Init.
  TraceBuilder b;
  b.AddRange(model::RangeKind::kNvtx, "MPI_Init", 0, 40 * kMs);
  b.AddRange(model::RangeKind::kNvtx, "loop", 30 * kMs, 100 * kMs);
  b.AddRange(model::RangeKind::kNvtx, "tail", 70 * kMs, 100 * kMs);
  std::int64_t t = 40 * kMs;
  for (int i = 0; i < 30; ++i) {
    b.Api("cudaLaunchKernel", t, t + 5 * kUs, i + 1);
    b.Kernel("k", t + 10 * kUs, t + 2 * kMs, i + 1);
    t += 2 * kMs;
  }
  auto r = Analyze(b.trace);
  auto share = [&](const std::string& name) -> const gpuperf::report::CriticalShare* {
    for (const auto& p : r.predictions.phases) {
      if (p.name == name)
        return &p;
    }
    return nullptr;
  };
  const auto* loop = share("loop");
  const auto* tail = share("tail");
  REQUIRE(loop);
  REQUIRE(tail);
  CHECK(loop->critical_ns == 60 * kMs);  // not the 10 ms inside MPI_Init
  CHECK(tail->critical_ns == 30 * kMs);
  CHECK(tail->fraction == Approx(static_cast<double>(tail->critical_ns) /
                                 static_cast<double>(r.predictions.wall_ns)));
  CHECK(r.predictions.wall_ns == 60 * kMs);
}
