// The pre-roll (src/analysis/preroll.h): orphan GPU work from before the recording, before the
// trace's first launch call, is left out of the window the diagnosis measures. Hand-built traces
// with every figure computed by hand.
#include "analysis/predictions/preroll.h"

#include "gpuperf/analyze.h"

#include <catch2/catch.hpp>

#include "analysis/core/correlation.h"
#include "analysis/timeline/critical_time.h"
#include "analysis_builder.h"
#include "util/user_regex.h"

namespace {

using Catch::Detail::Approx;
using gpuperf::analysis::Analyze;
using gpuperf::analysis::ComputeTraceWindow;
using gpuperf::analysis::CorrelationIndex;
using gpuperf::analysis::FindPreRoll;
using gpuperf::testing::TraceBuilder;

constexpr std::int64_t kMs = 1'000'000;

// The previous step's tail: two orphan kernels [0, 4) and [4, orphan_end) ms; the host waits for
// them, then launches the step's one kernel at 10.5 ms, which runs [10.6, 30) ms.
TraceBuilder StepAfterTail(std::int64_t orphan_end) {
  TraceBuilder b;
  b.Kernel("void at::native::vectorized_elementwise_kernel<4>(int)", 0, 4 * kMs);
  b.Kernel("sm80_xmma_gemm_bf16", 4 * kMs, orphan_end);
  b.Api("cudaDeviceSynchronize", kMs / 10, 10 * kMs);
  b.Api("cudaLaunchKernel", 10 * kMs + kMs / 2, 10 * kMs + kMs / 2 + 10'000, 1);
  b.Kernel("step", 10 * kMs + 6 * kMs / 10, 30 * kMs, 1);
  return b;
}

}  // namespace

TEST_CASE("pre-roll: orphan work before the first launch call is left out of the window",
          "[diagnosis][preroll]") {
  TraceBuilder b = StepAfterTail(10 * kMs);
  CorrelationIndex index(b.trace);
  auto preroll = FindPreRoll(b.trace, index, ComputeTraceWindow(b.trace));
  CHECK(preroll.start_ns == 0);
  CHECK(preroll.end_ns == 10 * kMs);  // the tail ends before the first launch call
  CHECK(preroll.activities == 2);
  CHECK(preroll.gpu_ns == 10 * kMs);
  CHECK(preroll.category_ns.at(gpuperf::report::FrameworkCategory::kElementwise) == 4 * kMs);
  CHECK(preroll.category_ns.at(gpuperf::report::FrameworkCategory::kGemm) == 6 * kMs);

  auto report = Analyze(b.trace);
  // The window is 30 ms; the measured one 20 ms, and "step" holds 19.4 ms of it.
  CHECK(report.predictions.wall_ns == 20 * kMs);
  REQUIRE(report.predictions.preroll);
  CHECK(report.predictions.preroll->time_ns == 10 * kMs);
  CHECK(report.predictions.wall_source.find(
            "less its first 10.0 ms: 2 GPU activities with no launch call in the trace ran "
            "there before the trace's first launch call") != std::string::npos);
  // The orphan GEMM holds no critical time: it belongs to a step the trace did not record.
  for (const auto& share : report.predictions.kernels) {
    if (share.name == "sm80_xmma_gemm_bf16")
      CHECK(share.critical_ns == 0);
  }
  CHECK(report.diagnosis.dominant_name == "step");
  CHECK(report.diagnosis.dominant_fraction == Approx(19.4 / 20.0));
  // The triage's shares are of the measured window too: 19.4 ms of computation in 20 ms.
  bool computed = false;
  for (const auto& step : report.diagnosis.triage) {
    if (step.question == gpuperf::report::TriageQuestion::kDominantWork) {
      computed = true;
      CHECK(step.detail.find("computation covers 97.0% of the window") != std::string::npos);
    }
  }
  CHECK(computed);
  CHECK(report.diagnosis.baseline.find(
            "Excluded from the diagnosis window: its first 10.0 ms (10.0 ms of GPU busy time), 2 "
            "GPU activities with no launch call in the trace ran there") != std::string::npos);
}

TEST_CASE("pre-roll: capped at the first launch call, absent without orphans or launch calls",
          "[diagnosis][preroll]") {
  // The tail runs on past the first launch call (12 ms): from 10.5 ms the step's work is queued
  // behind it, and that is the measured iteration.
  TraceBuilder late = StepAfterTail(12 * kMs);
  CorrelationIndex late_index(late.trace);
  auto capped = FindPreRoll(late.trace, late_index, ComputeTraceWindow(late.trace));
  CHECK(capped.end_ns == 10 * kMs + kMs / 2);
  CHECK(capped.gpu_ns == 10 * kMs + kMs / 2);

  // Every kernel launched in the trace: nothing to leave out.
  TraceBuilder launched;
  launched.Api("cudaLaunchKernel", 0, 10'000, 1);
  launched.Kernel("k", 20'000, 5 * kMs, 1);
  CorrelationIndex launched_index(launched.trace);
  CHECK(FindPreRoll(launched.trace, launched_index, ComputeTraceWindow(launched.trace)).empty());
  CHECK_FALSE(Analyze(launched.trace).predictions.preroll);

  // A tail of queued work runs back to back: after an idle gap of 1 ms the GPU had run out of
  // it, and an orphan there was launched by a call the trace lost. The pre-roll stops at the gap.
  TraceBuilder gap = StepAfterTail(4 * kMs);
  gap.Kernel("lost_launch", 5 * kMs, 6 * kMs);
  CorrelationIndex gap_index(gap.trace);
  auto stopped = FindPreRoll(gap.trace, gap_index, ComputeTraceWindow(gap.trace));
  CHECK(stopped.end_ns == 4 * kMs);
  CHECK(stopped.activities == 2);
  // A pre-roll under 1% of the window changes no share: none.
  TraceBuilder tiny = StepAfterTail(4 * kMs + kMs / 2);
  tiny.trace.activities[0].end_ns = kMs / 10;  // the tail: [0, 0.1) ms, then a 3.9 ms gap
  CorrelationIndex tiny_index(tiny.trace);
  CHECK(FindPreRoll(tiny.trace, tiny_index, ComputeTraceWindow(tiny.trace)).empty());

  // Only orphans (an Nsight Compute CSV, a GPU-only trace): no launch call to measure from.
  TraceBuilder orphans;
  orphans.Kernel("k", 0, 5 * kMs);
  CorrelationIndex orphans_index(orphans.trace);
  CHECK(FindPreRoll(orphans.trace, orphans_index, ComputeTraceWindow(orphans.trace)).empty());
}

TEST_CASE("pre-roll: the headline says what was left out", "[diagnosis][preroll]") {
  auto report = Analyze(StepAfterTail(10 * kMs).trace);
  CHECK(report.headline.find("The first 10.0 ms (2 GPU activities launched before the recording "
                             "began, the previous step's tail) are left out: the diagnosis and "
                             "bounds are for the 20.0 ms steady-state window without them") !=
        std::string::npos);
}

TEST_CASE("warm-up step: a first step far above the others' median is left out like a pre-roll",
          "[diagnosis][preroll]") {
  // Four ProfilerSteps: the first 20 ms, the others 10 ms; two launched kernels in each.
  TraceBuilder b;
  std::int64_t correlation = 1;
  const std::int64_t starts[] = {0, 20 * kMs, 30 * kMs, 40 * kMs};
  for (int i = 0; i < 4; ++i) {
    std::int64_t t = starts[i];
    std::int64_t end = i == 0 ? 20 * kMs : t + 10 * kMs;
    b.AddRange(
        gpuperf::model::RangeKind::kProfilerStep, "ProfilerStep#" + std::to_string(i + 1), t, end);
    for (int k = 0; k < 2; ++k) {
      std::int64_t at = t + k * 4 * kMs;
      b.Api("cudaLaunchKernel", at, at + 10'000, correlation);
      b.Kernel(i == 0 && k == 0 ? "warmup_only" : "step", at + 20'000, at + 3 * kMs, correlation);
      ++correlation;
    }
  }
  auto warm = gpuperf::analysis::FindStepLead(
      b.trace, ComputeTraceWindow(b.trace), gpuperf::analysis::FindWindowSteps(b.trace, nullptr));
  CHECK(warm.warmup_step == "ProfilerStep#1");
  CHECK(warm.end_ns == 20 * kMs);  // the second step's start
  CHECK(warm.activities == 2);
  CHECK(warm.warmup_step_wall_ns == 20 * kMs);
  CHECK(warm.other_steps_median_ns == 10 * kMs);

  auto report = Analyze(b.trace);
  CHECK(report.predictions.wall_ns == 30 * kMs);  // the three steps after it
  REQUIRE(report.predictions.preroll);
  CHECK(report.predictions.preroll->warmup_step == "ProfilerStep#1");
  for (const auto& share : report.predictions.kernels) {
    if (share.name == "warmup_only")
      CHECK(share.critical_ns == 0);
  }
  CHECK(report.headline.find("The first 20.0 ms (the first step, ProfilerStep#1, with its 2 GPU "
                             "activities: an outlier, 20.0 ms against a median 10.0 ms of the "
                             "other steps") != std::string::npos);

  // The step-time distribution leaves the first step out with the window: three 10 ms steps.
  CHECK(report.diagnosis.baseline.find(
            "its 4 steps (ProfilerStep) give the step-time distribution; over the 3 after the "
            "first, left out of the window: median 10.0 ms, p95 10.0 ms, MAD 0 ns") !=
        std::string::npos);

  // A long step among the kept ones is named with the GPU idle in it: the fourth, 15 ms.
  TraceBuilder stall = b;
  stall.trace.ranges.back().end_ns = 55 * kMs;
  auto stalled = Analyze(stall.trace);
  CHECK(stalled.diagnosis.baseline.find("the longest step, 4 of 4 (ProfilerStep#4), takes 15.0 "
                                        "ms, 1.50x the median, the GPU idle") != std::string::npos);
  CHECK(report.diagnosis.baseline.find("the longest step") == std::string::npos);

  // Steps of even length: nothing left out.
  TraceBuilder even;
  for (int i = 0; i < 4; ++i)
    even.AddRange(gpuperf::model::RangeKind::kProfilerStep,
                  "ProfilerStep#" + std::to_string(i + 1),
                  i * 10 * kMs,
                  (i + 1) * 10 * kMs);
  even.Api("cudaLaunchKernel", 0, 10'000, 1);
  even.Kernel("step", 20'000, 39 * kMs, 1);
  CHECK(gpuperf::analysis::FindStepLead(even.trace,
                                        ComputeTraceWindow(even.trace),
                                        gpuperf::analysis::FindWindowSteps(even.trace, nullptr))
            .empty());
}

namespace {

// A whole-process recording: a 64 MB copy of the model at [1, 11) ms, 500 ms of start-up with
// nothing on the GPU, then `steps` NVTX steps "train_step" of 10 ms from 500 ms, each launching
// one 9 ms kernel; `first_ms` sets the first step's wall (a warm-up outlier when long).
TraceBuilder RecordedLoop(int steps, std::int64_t first_ms = 10) {
  TraceBuilder b;
  b.Api("cudaMemcpyAsync", kMs, 11 * kMs, 1);
  b.Memcpy(gpuperf::model::CopyKind::kHtoD,
           kMs,
           11 * kMs,
           64'000'000,
           1,
           gpuperf::model::MemoryKind::kPageable,
           gpuperf::model::MemoryKind::kDevice);
  std::int64_t t = 500 * kMs;
  for (int i = 0; i < steps; ++i) {
    std::int64_t wall = (i == 0 ? first_ms : 10) * kMs;
    b.AddRange(gpuperf::model::RangeKind::kNvtx, "train_step", t, t + wall);
    b.Api("cudaLaunchKernel", t, t + 10'000, 10 + i);
    b.Kernel("gemm", t + 20'000, t + 9 * kMs, 10 + i);
    t += wall;
  }
  return b;
}

}  // namespace

TEST_CASE("start-up before the first marked step is left out of the steady window",
          "[diagnosis][preroll]") {
  using gpuperf::analysis::FindStepLead;
  using gpuperf::analysis::FindWindowSteps;
  TraceBuilder b = RecordedLoop(4);
  auto pattern = gpuperf::util::UserRegex::Compile("^train_step$");
  REQUIRE(pattern.ok());
  const auto window = ComputeTraceWindow(b.trace);
  auto lead = FindStepLead(b.trace, window, FindWindowSteps(b.trace, &*pattern));
  CHECK(lead.warmup_step.empty());      // four even steps: no warm-up outlier
  CHECK(lead.lead_in_ns == 499 * kMs);  // from the first API call at 1 ms
  CHECK(lead.first_step == "train_step");
  CHECK(lead.end_ns == 500 * kMs);
  CHECK(lead.activities == 1);  // the model's copy

  gpuperf::analysis::AnalyzeOptions options;
  options.step_range = "^train_step$";
  auto report = Analyze(b.trace, options);
  CHECK(report.predictions.wall_ns == 40 * kMs);  // the four steps
  REQUIRE(report.predictions.preroll);
  CHECK(report.predictions.preroll->lead_in_ns == 499 * kMs);
  INFO(report.headline);
  CHECK(report.headline.find("the 499 ms before the first step, train_step: start-up before the "
                             "loop") != std::string::npos);
  // The start-up's copy is outside the window: the triage sees no exposed copies, and the
  // window is GPU-bound (36 of 40 ms busy), not idle.
  CHECK(report.diagnosis.bottleneck != gpuperf::report::Bottleneck::kTransferBound);
  CHECK(report.diagnosis.bottleneck != gpuperf::report::Bottleneck::kHostBound);
  bool transfer_seen = false;
  for (const auto& step : report.diagnosis.triage) {
    if (step.question == gpuperf::report::TriageQuestion::kTransfer) {
      transfer_seen = true;
      CHECK(step.detail.find("0.0% of the window") != std::string::npos);
    }
  }
  CHECK(transfer_seen);
  // The scope counts what the steady window holds: the four steps' kernels, not the copy.
  CHECK(report.diagnosis.scope.find("the steady-state window holds 4 kernel launches of 1 "
                                    "kernel, 0 copies, 0 synchronizations") != std::string::npos);

  // Without the pattern the ranges are no steps: nothing is left out.
  CHECK(FindStepLead(b.trace, window, FindWindowSteps(b.trace, nullptr)).empty());
  CHECK_FALSE(Analyze(b.trace).predictions.preroll);

  // A first step that is an outlier is left out with the start-up before it.
  TraceBuilder warm = RecordedLoop(4, 40);
  auto both = FindStepLead(
      warm.trace, ComputeTraceWindow(warm.trace), FindWindowSteps(warm.trace, &*pattern));
  CHECK(both.warmup_step == "train_step");
  CHECK(both.lead_in_ns == 499 * kMs);
  CHECK(both.end_ns == 540 * kMs);  // the second step's start
  auto warm_report = Analyze(warm.trace, options);
  REQUIRE(warm_report.predictions.preroll);
  CHECK(gpuperf::analysis::PreRollName(*warm_report.predictions.preroll) ==
        "the start-up and the warm-up step");
}

TEST_CASE("a lead under 1% of the window, or before optimizer steps, stays in it",
          "[diagnosis][preroll]") {
  using gpuperf::analysis::FindStepLead;
  using gpuperf::analysis::FindWindowSteps;
  auto pattern = gpuperf::util::UserRegex::Compile("^train_step$");
  REQUIRE(pattern.ok());
  // The copy and its call moved to 1 ms before the first of 200 steps: a lead of 1 ms in a
  // 2.001 s window, under 1%, stays in.
  TraceBuilder short_lead = RecordedLoop(200);
  short_lead.trace.api_calls.front().start_ns = 499 * kMs;
  short_lead.trace.api_calls.front().end_ns = 499 * kMs + 10'000;
  short_lead.trace.activities.front().start_ns = 499 * kMs;
  short_lead.trace.activities.front().end_ns = 499 * kMs + 100'000;
  CHECK(FindStepLead(short_lead.trace,
                     ComputeTraceWindow(short_lead.trace),
                     FindWindowSteps(short_lead.trace, &*pattern))
            .empty());
  // Steps from Optimizer.step calls are not marked: what lies before the first call is the first
  // iteration's forward and backward, not start-up.
  TraceBuilder optimizer;
  optimizer.Api("cudaLaunchKernel", kMs, kMs + 10'000, 1);
  optimizer.Kernel("forward", 2 * kMs, 300 * kMs, 1);
  for (int i = 0; i < 4; ++i) {
    gpuperf::model::HostOp op;
    op.name = optimizer.trace.strings.Intern("Optimizer.step#AdamW.step");
    op.start_ns = (400 + 10 * i) * kMs;
    op.end_ns = op.start_ns + kMs;
    optimizer.trace.host_ops.push_back(op);
  }
  auto steps = FindWindowSteps(optimizer.trace, nullptr);
  CHECK(steps.steps.size() == 3);
  CHECK_FALSE(steps.marked);
  CHECK(FindStepLead(optimizer.trace, ComputeTraceWindow(optimizer.trace), steps).empty());
}
