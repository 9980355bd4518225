// The diagnosis of a mixed window on hand-built traces: the idle phase of a GPU-bound window gets
// its own statement, the statement with the larger bound is ranked first, the headline gives the
// steady-state window's busy time, waits are told the queued idle inside them, the predictions'
// window is the diagnosis', and GEMM kernels built for misaligned operands are a finding. Every
// figure is computed by hand below.
#include "gpuperf/analyze.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <string>

#include "analysis/core/correlation.h"
#include "analysis/predictions/predictions.h"
#include "analysis_builder.h"

using Catch::Detail::Approx;
using gpuperf::analysis::Analyze;
using gpuperf::testing::TraceBuilder;
namespace analysis = gpuperf::analysis;
namespace model = gpuperf::model;
namespace report = gpuperf::report;

namespace {

constexpr std::int64_t kMs = 1'000'000;
constexpr std::int64_t kUs = 1'000;

using gpuperf::testing::Contains;

const report::Finding* Find(const report::AnalysisReport& r, const std::string& id) {
  for (const report::Finding& f : r.findings) {
    if (f.id == id)
      return &f;
  }
  return nullptr;
}

// Ten different 1 ms kernels, each waited for by a device synchronize that returns `late` after
// the kernel ends (the host was slow to wake); the next launch follows at once. Per period:
// 1 ms of kernel, late + 10 us of idle, of it `late` the synchronization's round trip.
TraceBuilder FlatKernelsWithSyncs(std::int64_t late = 700 * kUs) {
  TraceBuilder b;
  const std::int64_t period = 1010 * kUs + late;
  for (int i = 0; i < 10; ++i) {
    std::int64_t t0 = i * period;
    b.Api("cudaLaunchKernel", t0, t0 + 5 * kUs, i + 1);
    b.Kernel("kernel_" + std::to_string(i), t0 + 10 * kUs, t0 + 1010 * kUs, i + 1);
    b.Api("cudaDeviceSynchronize", t0 + 6 * kUs, t0 + period);
  }
  return b;
}

}  // namespace

TEST_CASE("ranking: the idle phase of a GPU-bound window is diagnosed and ranked by its bound",
          "[diagnosis][ranking]") {
  report::AnalysisReport r = Analyze(FlatKernelsWithSyncs().trace);
  const report::Diagnosis& d = r.diagnosis;
  // Window 17.1 ms: computation 10 ms (58%), idle 7.1 ms (41.5%): not dominant, yet large.
  REQUIRE(d.triage.size() >= 4);
  CHECK(d.triage[0].question == report::TriageQuestion::kGpuIdle);
  CHECK(d.triage[0].answer == report::TriageAnswer::kPartly);
  CHECK(d.triage.back().question == report::TriageQuestion::kDominantWork);
  // No kernel dominates (each 10% of the kernel time): the GPU statement is over the top five
  // together, 5 ms of 17.1 ms: at most 1 / (1 - 5/17.1) = 1.41x. The synchronizations cost the
  // idle of their cycles (about 700 us after each kernel, the first wait's included: the sync
  // finding's loop model), over 6 ms: more than 1.5x. The idle phase bounds more, so it is
  // ranked first and the kernel statement follows.
  CHECK(d.bottleneck == gpuperf::report::Bottleneck::kSyncBound);
  CHECK(d.label == "sync-bound");
  CHECK(d.dominant_kind == gpuperf::report::DominantKind::kIdle);
  CHECK(d.status == report::DiagnosisStatus::kFinding);
  REQUIRE(d.bound_speedup);
  CHECK(*d.bound_speedup > 1.5);
  REQUIRE(d.secondary.size() == 1);
  const report::Diagnosis& s = d.secondary.front();
  CHECK(s.dominant_kind == gpuperf::report::DominantKind::kKernel);
  CHECK(s.label == "GPU-bound, kernel class unknown");
  REQUIRE(s.bound_speedup);
  CHECK(*s.bound_speedup == Approx(1.0 / (1.0 - 5.0 / 17.1)).epsilon(1e-3));
  CHECK(Contains(s.next_experiment, "Measure the work of the top 5 kernels together"));
  bool ranked = false;
  for (const std::string& line : d.support)
    ranked = ranked || Contains(line, "Ranked first: its bound");
  CHECK(ranked);
  CHECK(Contains(r.headline, "; GPU phase: "));

  // Without the late returns the idle is launch latency only (10 us a period): under 15%, no
  // idle statement, and the kernel statement stays first.
  TraceBuilder tight;
  for (int i = 0; i < 10; ++i) {
    std::int64_t t0 = i * 1020 * kUs;
    tight.Api("cudaLaunchKernel", t0, t0 + 5 * kUs, i + 1);
    tight.Kernel("kernel_" + std::to_string(i), t0 + 10 * kUs, t0 + 1010 * kUs, i + 1);
    tight.Api("cudaDeviceSynchronize", t0 + 6 * kUs, t0 + 1015 * kUs);
  }
  report::AnalysisReport t = Analyze(tight.trace);
  CHECK(t.diagnosis.triage[0].answer == report::TriageAnswer::kNo);
  CHECK(t.diagnosis.dominant_kind == gpuperf::report::DominantKind::kKernel);
  CHECK(t.diagnosis.secondary.empty());
}

TEST_CASE("flat profile: the GPU statement is over the top kernels, a small wait follows it",
          "[diagnosis][ranking]") {
  // The syncs return 50 us late: 0.45 ms of round trips in a 10.6 ms window (1.04x), against ten
  // kernels of 1 ms each with no class. One kernel alone would bound 1 / (1 - 1/10.6) = 1.10x
  // and lose to nothing; the top five together bound 1 / (1 - 5/10.6) = 1.89x: the window is
  // GPU-bound, of a class to measure, and the headline says so.
  report::AnalysisReport r = Analyze(FlatKernelsWithSyncs(50 * kUs).trace);
  const report::Diagnosis& d = r.diagnosis;
  CHECK(d.bottleneck == gpuperf::report::Bottleneck::kUnknown);
  CHECK(d.dominant_kind == gpuperf::report::DominantKind::kKernel);
  CHECK(d.label == "GPU-bound, kernel class unknown");
  REQUIRE(d.bound_speedup);
  CHECK(*d.bound_speedup == Approx(1.0 / (1.0 - 5.0 / 10.6)).epsilon(1e-3));
  // The ranking's figure: those kernels made 2x faster, 1 / (1 - f + f / 2).
  REQUIRE(d.bound_speedup_at_2x);
  CHECK(*d.bound_speedup_at_2x == Approx(1.0 / (1.0 - 2.5 / 10.6)).epsilon(1e-3));
  CHECK(d.dominant_fraction == Approx(1.0 / 10.6).epsilon(1e-3));  // the named kernel's own f
  CHECK(Contains(d.next_experiment, "Measure the work of the top 5 kernels together (kernel_"));
  CHECK(Contains(r.headline, "faster if it leads to kernels 2x faster (Amdahl at an assumed 2x"));
  bool flat = false;
  for (const std::string& line : d.support)
    flat = flat || Contains(line, "No kernel dominates: the top kernel holds 10.0%");
  CHECK(flat);
  CHECK(Contains(r.headline, "Diagnosis: GPU-bound, kernel class unknown (hypothesis)"));

  // One kernel holding most of the time is not a flat profile: its own statement stays.
  TraceBuilder one;
  for (int i = 0; i < 10; ++i) {
    std::int64_t t0 = i * 1060 * kUs;
    one.Api("cudaLaunchKernel", t0, t0 + 5 * kUs, i + 1);
    one.Kernel(i < 8 ? "big" : "small_" + std::to_string(i), t0 + 10 * kUs, t0 + 1010 * kUs, i + 1);
    one.Api("cudaDeviceSynchronize", t0 + 6 * kUs, t0 + 1060 * kUs);
  }
  report::AnalysisReport o = Analyze(one.trace);
  CHECK(o.diagnosis.dominant_name == "big");
  CHECK_FALSE(Contains(o.diagnosis.next_experiment, "kernels together"));
}

TEST_CASE("flat profile: one routine's lambda kernels are measured together",
          "[diagnosis][ranking]") {
  // Ten different 1 ms kernels as in the flat profile above, but three are lambdas of one
  // routine, advec: 30% of the critical kernel time, more than a dominant kernel's 20%. The
  // statement is over the routine: 3 ms of 10.6, made 2x faster 1 / (1 - 1.5/10.6).
  TraceBuilder b = FlatKernelsWithSyncs(50 * kUs);
  for (int i = 0; i < 3; ++i) {
    b.trace.activities[static_cast<std::size_t>(i)].name =
        b.trace.strings.Intern("void par_kernel<advec(int, double *)::[lambda(int) (instance " +
                               std::to_string(i + 1) + ")]>(Range, T1)");
  }
  report::AnalysisReport r = Analyze(b.trace);
  const report::Diagnosis& d = r.diagnosis;
  CHECK(d.bottleneck == gpuperf::report::Bottleneck::kUnknown);
  CHECK(Contains(d.next_experiment, "Measure the work of advec's 3 kernels together"));
  CHECK(Contains(d.next_experiment, "--kernel-name-base demangled -k regex:advec"));
  REQUIRE(d.bound_speedup_at_2x);
  CHECK(*d.bound_speedup_at_2x == Approx(1.0 / (1.0 - 1.5 / 10.6)).epsilon(1e-3));
  CHECK(Contains(d.falsified_by, "already near their roof"));
  bool routine = false;
  for (const std::string& line : d.support)
    routine = routine ||
              Contains(line, "3 of them (3 launches) instantiate lambdas of one routine, advec");
  CHECK(routine);
  // The routine dominates, not the top kernel by name: 3 ms of the 10.6 ms window, its f.
  CHECK(d.dominant_kind == gpuperf::report::DominantKind::kRoutine);
  CHECK(d.dominant_name == "advec");
  CHECK(d.dominant_fraction == Approx(3.0 / 10.6).epsilon(1e-3));
  CHECK(d.label == "GPU-bound, kernel class unknown");
}

TEST_CASE("flat profile: close runners-up are measured with a dominant kernel of unknown class",
          "[diagnosis][ranking]") {
  // Per period: "moe_up" 4 ms, "moe_down" 3 ms, "norm" 0.5 ms, back to back. moe_up holds 53%
  // of the critical kernel time (not flat), but moe_down holds 75% of moe_up's: naming moe_up
  // alone leaves 40% of the GPU time out of the experiment. The two are measured together.
  // The host launches everything up front (the GPU is the bottleneck: every kernel is critical).
  TraceBuilder b;
  std::int64_t t = 200 * kUs;
  int id = 0;
  for (int i = 0; i < 4; ++i) {
    for (auto [name, length] : {std::pair{"moe_up", 4 * kMs},
                                std::pair{"moe_down", 3 * kMs},
                                std::pair{"norm", 500 * kUs}}) {
      ++id;
      b.Api("cudaLaunchKernel", id * 10 * kUs, id * 10 * kUs + 5 * kUs, id);
      b.Kernel(name, t, t + length, id);
      t += length;
    }
  }
  report::AnalysisReport r = Analyze(b.trace);
  const report::Diagnosis& d = r.diagnosis;
  CHECK(d.label == "GPU-bound, kernel class unknown");
  CHECK(Contains(d.next_experiment,
                 "Measure the work of the top 2 kernels together (moe_up, "
                 "moe_down)"));
  CHECK(Contains(d.next_experiment, "they hold similar time"));
  bool said = false;
  for (const std::string& line : d.support)
    said = said || Contains(line, "2 kernels hold similar time (each at least 50% of the top");
  CHECK(said);
  // 28 ms of the two over the window (the first launch at 10 us to the last kernel's end): made
  // 2x faster, 1 / (1 - f / 2).
  REQUIRE(d.bound_speedup_at_2x);
  double f = 28.0 / (static_cast<double>(t - 10 * kUs) / 1e6);
  CHECK(*d.bound_speedup_at_2x == Approx(1.0 / (1.0 - f / 2)).epsilon(1e-3));
}

TEST_CASE("flat profile: a measurement ranks by its gain at 2x, under a measured host finding",
          "[diagnosis][ranking]") {
  // Per 1.4 ms period: ten different kernels of 900 us (critical: the next one is already
  // queued), each followed by a 100 us "tail" kernel, then 400 us of GPU idle under host operator
  // time. Idle is 28.6% of the window (the host's measured bound 1.40x); the top five kernels
  // hold 4.5 ms of critical time: their zero-time bound 1 / (1 - 4.5/14) = 1.47x would outrank
  // the host, but their gain at 2x is 1.19x: the host finding goes first, the measurement follows.
  // With `syncs` the host waits for each period's kernels (a device synchronization inside the
  // operator); without, it never waits, and faster kernels give nothing back today.
  auto build = [](bool syncs) {
    TraceBuilder b;
    for (int i = 0; i < 10; ++i) {
      std::int64_t t0 = i * 1400 * kUs;
      b.Api("cudaLaunchKernel", t0, t0 + 5 * kUs, 2 * i + 1);
      b.Api("cudaLaunchKernel", t0 + 6 * kUs, t0 + 11 * kUs, 2 * i + 2);
      b.Kernel("kernel_" + std::to_string(i), t0 + 10 * kUs, t0 + 910 * kUs, 2 * i + 1);
      b.Kernel("tail", t0 + 910 * kUs, t0 + 1010 * kUs, 2 * i + 2);
      b.Op("aten::index", t0 + 12 * kUs, t0 + 1400 * kUs);
      if (syncs)
        b.Api("cudaDeviceSynchronize", t0 + 13 * kUs, t0 + 1010 * kUs);
    }
    return b;
  };
  report::AnalysisReport r = Analyze(build(true).trace);
  const report::Diagnosis& d = r.diagnosis;
  CHECK(d.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  CHECK(d.status == report::DiagnosisStatus::kFinding);
  REQUIRE(d.secondary.size() == 1);
  CHECK(d.secondary.front().label == "GPU-bound, kernel class unknown");
  REQUIRE(d.secondary.front().bound_speedup_at_2x);
  CHECK(*d.secondary.front().bound_speedup_at_2x < *d.bound_speedup);
  REQUIRE(d.secondary.front().bound_speedup);
  CHECK(*d.secondary.front().bound_speedup > *d.bound_speedup);  // zero time would have won
  CHECK(Contains(d.secondary.front().next_experiment, "kernels together"));
  CHECK_FALSE(Contains(d.secondary.front().next_experiment, "until the idle phase is fixed"));

  // No host wait: the host's timeline is the wall, and it waits for the GPU only the 999 us the
  // last tail kernel runs after its last call. The GPU statement is held to that, 1 / (1 -
  // 0.999/14) = 1.077x, and says what it gives once the idle phase is fixed: its 2.7 ms at 2x
  // over the GPU's 10 ms of busy time.
  report::AnalysisReport free_running = Analyze(build(false).trace);
  const report::Diagnosis& f = free_running.diagnosis;
  CHECK(f.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  REQUIRE(f.secondary.size() == 1);
  const report::Diagnosis& gpu = f.secondary.front();
  REQUIRE(gpu.bound_speedup);
  CHECK(*gpu.bound_speedup == Approx(1.0 / (1.0 - 0.999 / 14.0)).epsilon(1e-3));
  REQUIRE(gpu.bound_speedup_at_2x);
  CHECK(*gpu.bound_speedup_at_2x == Approx(1.0 / (1.0 - 0.999 / 14.0)).epsilon(1e-3));
  CHECK(Contains(gpu.next_experiment,
                 "the host waits for the GPU's kernels 999 µs of the 14.0 ms window (7.1%"));
  CHECK(Contains(gpu.next_experiment,
                 "until the idle phase is fixed the whole program is at most 1.08x faster at any "
                 "local speedup"));
  CHECK(Contains(gpu.next_experiment, "the window falls toward the GPU's 10.0 ms busy time"));
}

TEST_CASE("GPU phase: overlapping the host work keeps its lead, which nothing overlaps",
          "[diagnosis][ranking]") {
  // 5 ms of host work before the first launch, then ten 1.8 ms periods: two kernels (900 us and
  // 100 us), then 800 us of host operator time with the GPU idle (its two launch calls, 8 us, are
  // not host work). Window 23.0 ms: host work 12.92 ms (5.0 ms of it the lead), the rest
  // 10.08 ms. The GPU statement (the top 6 kernels, 5.5 ms) saves 2.75 ms at 2x. Overlapped, the
  // window is 5.0 + max(7.92, 10.08) = 15.08 ms before and 5.0 + max(7.92, 7.33) = 12.92 ms
  // after: 1.17x, not the "nothing" of the host's 12.9 ms against the GPU's 10.0 ms busy time.
  TraceBuilder b;
  b.Op("preprocess", 0, 5 * kMs);
  for (int i = 0; i < 10; ++i) {
    std::int64_t t0 = 5 * kMs + i * 1800 * kUs;
    b.Api("cudaLaunchKernel", t0 - 10 * kUs, t0 - 5 * kUs, 2 * i + 1);
    b.Api("cudaLaunchKernel", t0 - 4 * kUs, t0 - 1 * kUs, 2 * i + 2);
    b.Kernel("kernel_" + std::to_string(i), t0, t0 + 900 * kUs, 2 * i + 1);
    b.Kernel("tail", t0 + 900 * kUs, t0 + 1000 * kUs, 2 * i + 2);
    b.Op("aten::index", t0 + 1000 * kUs, t0 + 1800 * kUs);
  }
  report::AnalysisReport r = Analyze(b.trace);
  const report::Diagnosis& d = r.diagnosis;
  REQUIRE(d.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  REQUIRE(d.secondary.size() == 1);
  CHECK(Contains(d.secondary.front().next_experiment,
                 "if that fix only overlaps the 12.9 ms of host work with the GPU (5.00 ms of it "
                 "before the first GPU work, which nothing overlaps), the host work sets the "
                 "window and this change gives 1.17x"));
  // A separate worker preparing the next input overlaps the lead too: the host's 12.9 ms against
  // the rest's 10.1 ms, 7.3 ms after the change: the host work stays the wall.
  CHECK(Contains(d.secondary.front().next_experiment,
                 "with a separate worker preparing the next input while the GPU runs this one, "
                 "the longer of that host work and the rest sets the window, and this change "
                 "gives nothing"));
  // The group's gains in the GPU phase are time off the GPU's busy time, not a speedup over the
  // wall computed with GPU-phase time.
  bool said = false;
  for (const std::string& line : d.secondary.front().support) {
    CHECK_FALSE(Contains(line, "Made 2x faster they would give"));
    said = said || Contains(line,
                            "Made 2x faster they would take 2.75 ms off the GPU's busy time (an "
                            "assumed local speedup: their class is not measured), 5.50 ms only if "
                            "they took no time");
  }
  CHECK(said);
}

TEST_CASE("headline: the steady-state window's busy time when it is not the GPU span",
          "[diagnosis][headline]") {
  // 90 ms of host work before the first launch, then 10 ms of GPU work: the span is 100% busy,
  // the window 10% busy. The headline must not say "busy 100.0%" alone beside a host verdict.
  TraceBuilder b;
  b.Op("preprocess", 0, 90 * kMs);
  b.Api("cudaLaunchKernel", 90 * kMs, 90 * kMs + 5 * kUs, 1);
  b.Kernel("k", 90 * kMs + 10 * kUs, 100 * kMs, 1);
  report::AnalysisReport r = Analyze(b.trace);
  CHECK(r.diagnosis.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  CHECK(Contains(r.headline, "The GPU is busy 9.99 ms of the 100 ms steady-state window (10.0%)"));
  CHECK(Contains(r.headline, "busy 100.0% of it"));
  // A window that is the span keeps the span sentence.
  TraceBuilder span;
  span.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  span.Kernel("k", 10 * kUs, 10 * kMs, 1);
  CHECK(Contains(Analyze(span.trace).headline, "The GPU span is 9.99 ms over 1 GPU activities"));
  // The Baseline line gives the window's busy share beside the span's.
  CHECK(Contains(r.diagnosis.baseline,
                 "busy 10.0% of the 100 ms steady-state window, which the diagnosis uses"));
}

TEST_CASE("launch queue: a median under a microsecond is said as such", "[diagnosis][queue]") {
  // 60 kernels, each starting as its launch call returns, 2 ms of host time between them:
  // host-bound with a median of 0 ns, which at Kineto's whole microseconds means "under 1 us".
  TraceBuilder b;
  for (int i = 0; i < 60; ++i) {
    std::int64_t t0 = i * 2 * kMs;
    b.Api("cudaLaunchKernel", t0, t0 + 5 * kUs, i + 1);
    b.Kernel("k", t0 + 5 * kUs, t0 + 100 * kUs, i + 1);
  }
  report::AnalysisReport r = Analyze(b.trace);
  REQUIRE(r.diagnosis.queue);
  CHECK(r.diagnosis.queue->median_ns == 0);
  INFO(r.diagnosis.queue->sentence);
  CHECK(Contains(r.diagnosis.queue->sentence,
                 "kernels start a median under 1 µs after their launch call returns"));
  CHECK_FALSE(Contains(r.diagnosis.queue->sentence, "a median 0 ns"));
}

TEST_CASE("headline: a span longer than the window, its one-time idle left out, says the window",
          "[diagnosis][headline]") {
  // A 1 ms kernel, then the first launch of "second" loads its module for 30 ms (lazy loading,
  // the GPU idle), then ten 1 ms kernels back to back: the span is 42 ms, 29% busy; the window
  // leaves out the 30 ms of one-time idle: 12 ms, busy but for the 20 us before two kernels. The
  // headline must not give the span's 71% idle beside a window the GPU keeps busy
  // (switchtransformers: 18.6% against 3.4%).
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  b.Kernel("first", 10 * kUs, 1 * kMs, 1);
  b.Api("cudaLaunchKernel", 1 * kMs, 31 * kMs, 2);
  b.Kernel("second", 31 * kMs + 10 * kUs, 32 * kMs, 2);
  for (int i = 0; i < 10; ++i) {
    b.Api("cudaLaunchKernel",
          31 * kMs + (i + 1) * 10 * kUs,
          31 * kMs + (i + 1) * 10 * kUs + 5 * kUs,
          3 + i);
    b.Kernel("first", (32 + i) * kMs, (33 + i) * kMs, 3 + i);
  }
  report::AnalysisReport r = Analyze(b.trace);
  INFO(r.headline);
  REQUIRE(r.initialization.time_ns > 0);
  CHECK(Contains(r.headline, "The GPU is busy 12.0 ms of the 12.0 ms steady-state window (99.8%)"));
  CHECK(Contains(r.headline, "is 42.0 ms, busy 28.5% of it"));
  CHECK_FALSE(Contains(r.headline, "The GPU span is"));
}

TEST_CASE("predictions: f is over the diagnosis' steady-state window", "[predictions]") {
  // A runs, the host works 2 ms with the GPU idle, B runs and is waited for: a 4 ms window.
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  b.Kernel("A", 10 * kUs, 1 * kMs, 1);
  b.Api("cudaLaunchKernel", 3 * kMs, 3 * kMs + 5 * kUs, 2);
  b.Kernel("B", 3 * kMs + 10 * kUs, 4 * kMs, 2);
  b.Api("cudaDeviceSynchronize", 3 * kMs + 6 * kUs, 4 * kMs);
  analysis::CorrelationIndex index(b.trace);
  std::vector<report::KernelRow> kernels = Analyze(b.trace).kernels;
  report::Predictions whole = analysis::ComputePredictions(b.trace, index, kernels, {}, 20);
  // 1 ms of that idle stretch was one-time work: the wall is 3 ms, and f of B its critical time
  // (990 us, the device's last operation, waited for) over 3 ms, not over 4 ms.
  report::Predictions steady =
      analysis::ComputePredictions(b.trace, index, kernels, {}, 20, nullptr, 1 * kMs);
  CHECK(whole.wall_ns == 4 * kMs);
  CHECK(steady.wall_ns == 3 * kMs);
  CHECK(Contains(steady.wall_source, "less 1.00 ms of one-time work (initialization)"));
  const report::CriticalShare* share = nullptr;
  for (const report::CriticalShare& s : steady.kernels) {
    if (s.name == "B")
      share = &s;
  }
  REQUIRE(share != nullptr);
  CHECK(share->critical_ns == 990 * kUs);
  CHECK(share->fraction == Approx(990.0 / 3000.0));
}

TEST_CASE("gemm alignment: CUTLASS kernels for operands under 16 bytes are a finding",
          "[findings]") {
  TraceBuilder b;
  model::Device h100;
  h100.compute_major = 9;
  h100.compute_minor = 0;
  b.trace.devices.push_back(h100);
  b.Kernel(
      "void cutlass::Kernel2<cutlass_75_tensorop_bf16_s1688gemm_bf16_128x128_nn_align1>("
      "cutlass_75_tensorop_bf16_s1688gemm_bf16_128x128_nn_align1::Params)",
      0,
      3 * kMs);
  // bf16 at align8 is 16 bytes, fp32 at align4 is 16 bytes: aligned.
  b.Kernel(
      "void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_16x16_32x1_nn_"
      "align8>(cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_16x16_32x1_nn_align8::Params)",
      3 * kMs,
      4 * kMs);
  b.Kernel("cutlass_80_tensorop_s1688gemm_256x128_32x3_nn_align4", 4 * kMs, 5 * kMs);
  b.Kernel("elementwise", 5 * kMs, 10 * kMs);
  report::AnalysisReport r = Analyze(b.trace);
  const report::Finding* f = Find(r, "gemm_misaligned");
  REQUIRE(f != nullptr);
  CHECK(f->count == 1);
  CHECK(f->time_ns == 3 * kMs);
  CHECK(f->severity == report::Severity::kWarning);  // 30% of kernel time
  REQUIRE(f->rows.size() == 1);
  CHECK(f->rows[0].cells[3] == "1");
  CHECK(f->rows[0].cells[4] == "2");
  CHECK(f->rows[0].cells[5] == "sm75");
  CHECK(Contains(f->summary, "(3.00 ms, 30.0% of the kernel time)"));
  CHECK(Contains(f->summary, "built for an older architecture than the GPU's (sm90)"));
  // A PyTorch trace without recorded shapes says so; another source is not asked for them.
  CHECK_FALSE(Contains(f->summary, "No launching operator recorded shapes"));
  b.trace.metadata.framework_profiler = true;
  report::AnalysisReport pytorch = Analyze(b.trace);
  for (const report::Finding& finding : pytorch.findings) {
    if (finding.id == "gemm_misaligned")
      CHECK(Contains(finding.summary, "No launching operator recorded shapes"));
  }
  // Aligned kernels only: no finding.
  TraceBuilder aligned;
  aligned.Kernel("cutlass_80_tensorop_s1688gemm_256x128_32x3_nn_align4", 0, kMs);
  CHECK(Find(Analyze(aligned.trace), "gemm_misaligned") == nullptr);
}

TEST_CASE("host-bound: idle mostly before the first GPU work is said to recur only in a loop",
          "[diagnosis][host]") {
  TraceBuilder b;
  b.Api("cudaMalloc", 0, 10 * kUs);  // the window starts here
  b.Api("cudaLaunchKernel", 8 * kMs, 8 * kMs + 5 * kUs, 1);
  b.Kernel("k", 8 * kMs + 10 * kUs, 9 * kMs, 1);
  report::AnalysisReport r = Analyze(b.trace);
  REQUIRE(r.diagnosis.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  bool said = false;
  for (const std::string& line : r.diagnosis.support)
    said = said || Contains(line, "of idle lies before the first or after the last GPU activity");
  CHECK(said);
}

TEST_CASE("small grid: long kernels on at most half as many blocks as SMs are flagged",
          "[diagnosis][findings]") {
  TraceBuilder b;
  model::Device a100;
  a100.id = 0;
  a100.sm_count = 108;
  b.trace.devices.push_back(a100);
  auto kernel = [&](const char* name, std::int64_t start, std::int64_t end, std::int32_t blocks) {
    model::GpuActivity& k = b.Kernel(name, start, end);
    k.grid = {blocks, 1, 1};
    k.block = {512, 1, 1};
  };
  kernel("saxpy", 0, 17 * kMs, 2);                   // 2 of 108 SMs, 17 ms: flagged
  kernel("saxpy", 17 * kMs, 34 * kMs, 2);            // every launch small
  kernel("wide", 34 * kMs, 40 * kMs, 60);            // more than half the SMs: not flagged
  kernel("tiny", 40 * kMs, 40 * kMs + 10 * kUs, 1);  // 10 us: launch latency, not flagged
  kernel("ncclKernel_AllReduce_RING_LL_Sum_float", 41 * kMs, 50 * kMs, 2);  // channels
  report::AnalysisReport r = Analyze(b.trace);
  const report::Finding* f = Find(r, "small_grid");
  REQUIRE(f != nullptr);
  CHECK(f->count == 2);
  CHECK(f->time_ns == 34 * kMs);
  CHECK(f->severity == report::Severity::kWarning);
  REQUIRE(f->rows.size() == 1);
  CHECK(f->rows[0].cells[0] == "saxpy");
  CHECK(f->rows[0].cells[4] == "2");
  CHECK(f->rows[0].cells[6] == "108");
  CHECK(Contains(f->summary, "launches at most 2 blocks of 512 threads on 108 SMs, 17.0 ms"));
  // The finding names its longest kernel, and the headline says it of the top kernel.
  CHECK(f->subject == "saxpy");
  INFO(r.headline);
  CHECK(Contains(r.headline,
                 "saxpy, takes 34.0 ms in 2 instances: 69.4% of kernel time (source: trace). It "
                 "runs on a grid of 2x1x1 blocks of 512x1x1 threads, under half as many blocks "
                 "as the GPU has SMs: most SMs idle while it runs (finding small_grid)."));
  // Its class rests on the grid, and the experiment launches more blocks.
  const report::KernelRow* saxpy = nullptr;
  for (const report::KernelRow& k : r.kernels)
    saxpy = k.name == "saxpy" ? &k : saxpy;
  REQUIRE(saxpy);
  CHECK(saxpy->classification.bound == report::KernelBound::kLatency);
  CHECK(saxpy->classification.basis == "launch_grid");
  CHECK(Contains(saxpy->classification.reason,
                 "its largest grid, 2 blocks, leaves at least half of the 108 SMs without a block "
                 "while each instance runs 17.0 ms on average"));
  CHECK(r.diagnosis.bottleneck == report::Bottleneck::kLatencyBound);
  CHECK(Contains(r.diagnosis.next_experiment, "Launch the dominant kernel on more blocks"));

  // A library GEMM takes its grid from the shape and its algorithm: another algorithm is the
  // lever, not a grid the user cannot set.
  TraceBuilder gemm;
  model::Device turing;
  turing.id = 0;
  turing.sm_count = 68;
  gemm.trace.devices.push_back(turing);
  for (int i = 0; i < 5; ++i) {
    model::GpuActivity& k = gemm.Kernel("volta_sgemm_128x32_tn", i * kMs, i * kMs + 600 * kUs);
    k.grid = {32, 1, 1};
    k.block = {256, 1, 1};
  }
  const report::AnalysisReport lib = Analyze(gemm.trace);
  CHECK(lib.diagnosis.bottleneck == report::Bottleneck::kLatencyBound);
  CHECK(Contains(lib.diagnosis.next_experiment, "torch.backends.cudnn.benchmark=True"));
  // One launch with a full grid clears the name: its small launches are its smaller inputs.
  kernel("saxpy", 50 * kMs, 51 * kMs, 216);
  CHECK(Find(Analyze(b.trace), "small_grid") == nullptr);
}

TEST_CASE("dependency: queued idle inside a graph launch is named", "[diagnosis][queued]") {
  // One graph launch runs two nodes with 2 ms between them: the second was queued throughout.
  TraceBuilder b;
  b.Api("cudaGraphLaunch", 0, 5 * kUs, 1);
  b.Kernel("node_a", 10 * kUs, 1 * kMs, 1);
  b.Kernel("node_b", 3 * kMs, 4 * kMs, 1);
  report::AnalysisReport r = Analyze(b.trace);
  CHECK(r.diagnosis.bottleneck == gpuperf::report::Bottleneck::kDependencyBound);
  bool named = false;
  for (const std::string& line : r.diagnosis.support)
    named = named || Contains(line, "2.00 ms of that queued idle lies inside a CUDA graph launch");
  CHECK(named);
  // All of the queued idle is there: the experiment starts with the graphs' nodes.
  CHECK(Contains(r.diagnosis.next_experiment,
                 "first the CUDA graph launches, which hold 2.00 ms of the 2.00 ms of queued "
                 "idle"));
  CHECK(Contains(r.diagnosis.next_experiment, "nsys --cuda-graph-trace=node"));
  // The first node starting with the launch call (whole microseconds): all of the idle is
  // queued, and the rest is not split into three zeros.
  TraceBuilder queued_only;
  queued_only.Api("cudaGraphLaunch", 0, 5 * kUs, 1);
  queued_only.Kernel("node_a", 0, 1 * kMs, 1);
  queued_only.Kernel("node_b", 3 * kMs, 4 * kMs, 1);
  bool rest = false;
  for (const std::string& line : Analyze(queued_only.trace).diagnosis.support) {
    CHECK_FALSE(Contains(line, "elsewhere launch calls cover 0 ns"));
    rest = rest || Contains(line, "no launch call, other CUDA call or host time covers the rest");
  }
  CHECK(rest);
  // Two launches of one node each, the same gap between them: no graph holds the idle.
  TraceBuilder two;
  two.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  two.Kernel("node_a", 10 * kUs, 1 * kMs, 1);
  two.Api("cudaLaunchKernel", 6 * kUs, 9 * kUs, 2);
  two.Kernel("node_b", 3 * kMs, 4 * kMs, 2);
  for (const std::string& line : Analyze(two.trace).diagnosis.support)
    CHECK_FALSE(Contains(line, "inside a CUDA graph launch"));
  // Without the host's waits the graph may wait on an event the host records late: no bound for
  // unrecorded work.
  CHECK_FALSE(r.diagnosis.bound_speedup_unrecorded_graph_work);
}

TEST_CASE("dependency: graph idle that nothing recorded could end may be unrecorded work",
          "[diagnosis][queued]") {
  // The graph above, its 2 ms gap (1 ms to 3 ms) with the host polling cudaStreamSynchronize in
  // 0.95 ms calls through 95% of it: no host event was late and nothing ran, so the graph may
  // hold nodes the trace lacks. Tracing them comes first; if they hold work, none of the 2 ms
  // comes back (1.00x), against 2.00x if it is idle.
  TraceBuilder b;
  b.Api("cudaGraphLaunch", 0, 5 * kUs, 1);
  b.Kernel("node_a", 10 * kUs, 1 * kMs, 1);
  b.Kernel("node_b", 3 * kMs, 4 * kMs, 1);
  b.Api("cudaStreamSynchronize", 1 * kMs, 1950 * kUs);
  b.Api("cudaStreamSynchronize", 2 * kMs, 2950 * kUs);
  report::AnalysisReport r = Analyze(b.trace);
  const report::Diagnosis& d = r.diagnosis;
  REQUIRE(d.bottleneck == gpuperf::report::Bottleneck::kDependencyBound);
  bool said = false;
  for (const std::string& line : d.support)
    said = said || Contains(line,
                            "Through 2.00 ms of that idle inside graph launches the host was "
                            "blocked waiting for the GPU (in each of those stretches 80% of the "
                            "time or more; most in cudaStreamSynchronize) and no GPU work ran");
  CHECK(said);
  CHECK(Contains(d.next_experiment,
                 "first the CUDA graph launches, which hold 2.00 ms of the 2.00 ms of queued "
                 "idle, 2.00 ms of it while the host waited for the GPU and no recorded work "
                 "ran"));
  REQUIRE(d.bound_speedup);
  CHECK(*d.bound_speedup == Approx(2.0).epsilon(1e-3));
  REQUIRE(d.bound_speedup_unrecorded_graph_work);
  CHECK(*d.bound_speedup_unrecorded_graph_work == Approx(1.0).epsilon(1e-3));
  CHECK(Contains(r.headline,
                 "at most 1.00x faster if the graphs' idle, which nothing recorded could end, is "
                 "work the trace does not record; 2.00x if node-level tracing shows it idle"));
  CHECK(Contains(d.falsified_by, "Node-level graph tracing (nsys --cuda-graph-trace=node)"));
  // The host blocked through under 80% of it (one poll): it may have been late with an event.
  TraceBuilder half = b;
  half.trace.api_calls.pop_back();
  CHECK_FALSE(Analyze(half.trace).diagnosis.bound_speedup_unrecorded_graph_work);
}

TEST_CASE("host-bound: host records the input holds are named, not asked for",
          "[diagnosis][host]") {
  // 8 ms of host time with no CUDA call and no recorded host work between two kernels.
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  b.Kernel("a", 10 * kUs, 1 * kMs, 1);
  b.Api("cudaLaunchKernel", 9 * kMs, 9 * kMs + 5 * kUs, 2);
  b.Kernel("b", 9 * kMs + 10 * kUs, 10 * kMs, 2);
  report::AnalysisReport plain = Analyze(b.trace);
  REQUIRE(plain.diagnosis.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  CHECK(Contains(plain.diagnosis.missing_evidence, "host-side ranges or CPU samples"));
  // CPU samples of the launching thread, none in the gap: they are not asked for.
  auto sample = [&](const char* function, std::int64_t t) {
    model::CpuSample s;
    s.function = b.trace.strings.Intern(function);
    s.time_ns = t;
    s.pid = 100;
    s.tid = 101;
    b.trace.cpu_samples.push_back(s);
  };
  for (std::int64_t t = 100 * kUs; t <= 300 * kUs; t += 100 * kUs)
    sample("kernel_wait", t);
  report::AnalysisReport outside = Analyze(b.trace);
  CHECK(Contains(outside.diagnosis.missing_evidence, "its CPU samples fall outside them"));
  CHECK_FALSE(Contains(outside.diagnosis.missing_evidence, "would confirm it"));
  CHECK_FALSE(Contains(outside.diagnosis.next_experiment, "CPU sampling"));
  // The headline's first clause of the experiment never ends inside a parenthesis.
  CHECK(Contains(outside.headline, "the program steps they serve) and move the work"));
  // One in the gap is too few to name anything.
  sample("decode_frame", 5 * kMs);
  report::AnalysisReport one = Analyze(b.trace);
  CHECK_FALSE(Contains(one.diagnosis.missing_evidence, "decode_frame"));
  // 35 in the gap (3.5 of its 8 ms, under half: still a hypothesis) name what the host ran there.
  for (std::int64_t t = 1100 * kUs; t < 4600 * kUs; t += 100 * kUs)
    sample("decode_frame", t);
  report::AnalysisReport held = Analyze(b.trace);
  CHECK(held.diagnosis.status == report::DiagnosisStatus::kHypothesis);
  CHECK(Contains(held.diagnosis.missing_evidence, "CPU samples put the host in decode_frame"));
}

TEST_CASE("ranking: a material wait gets the idle statement under 15% idle",
          "[diagnosis][ranking]") {
  // Ten 1 ms kernels each followed by a synchronize that returns 120 us late: idle 130 us a
  // period (11.5%, under the 15% that calls for an idle statement by itself), yet the waits'
  // round trips bound 1.12x (over the 1.05x that makes a wait material). The flat profile's
  // top five kernels bound 1 / (1 - 5/11.3) = 1.79x: the GPU statement stays first.
  TraceBuilder b;
  for (int i = 0; i < 10; ++i) {
    std::int64_t t0 = i * 1130 * kUs;
    b.Api("cudaLaunchKernel", t0, t0 + 5 * kUs, i + 1);
    b.Kernel("kernel_" + std::to_string(i), t0 + 10 * kUs, t0 + 1010 * kUs, i + 1);
    b.Api("cudaDeviceSynchronize_v3020", t0 + 6 * kUs, t0 + 1130 * kUs);
  }
  report::AnalysisReport r = Analyze(b.trace);
  const report::Finding* sync = Find(r, "sync_api");
  REQUIRE(sync != nullptr);
  REQUIRE(sync->bound_speedup_if_removed);
  REQUIRE(r.diagnosis.secondary.size() == 1);
  CHECK(r.diagnosis.triage[0].answer == report::TriageAnswer::kNo);
  CHECK(r.diagnosis.dominant_kind == gpuperf::report::DominantKind::kKernel);
  const report::Diagnosis& s = r.diagnosis.secondary.front();
  CHECK(s.bottleneck == gpuperf::report::Bottleneck::kSyncBound);
  REQUIRE(s.bound_speedup);
  CHECK(*s.bound_speedup > 1.1);
  CHECK(Contains(r.headline, "; idle phase: sync-bound; next experiment: Measure the work of"));
  // The call is named without its version suffix.
  CHECK(Contains(s.next_experiment, "\"cudaDeviceSynchronize\""));
}

TEST_CASE("dominant phase: a phase whose host waits for the GPU says so", "[diagnosis][phase]") {
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  b.Kernel("k", 10 * kUs, 8 * kMs, 1);
  // The range holds 8 ms of the 20 ms window; 6 ms of it the host waits in a synchronize.
  b.AddRange(model::RangeKind::kUserAnnotation, "data_dist", 1 * kMs, 9 * kMs);
  b.Api("cudaStreamSynchronize", 2 * kMs, 8 * kMs);
  b.Api("cudaLaunchKernel", 9 * kMs, 9 * kMs + 5 * kUs, 2);
  b.Kernel("k2", 9 * kMs + 10 * kUs, 20 * kMs, 2);
  report::AnalysisReport r = Analyze(b.trace);
  bool said = false;
  for (const std::string& line : r.diagnosis.support)
    said = said || (Contains(line, "Dominant phase: data_dist") &&
                    Contains(line,
                             "6.00 ms of it the host was blocked in calls waiting for the "
                             "GPU"));
  CHECK(said);
}

namespace {

// An all-reduce launched at `t` for `length`, inside annotation `site` ("" for none) and, when
// `elements` > 0, inside PyTorch's "nccl:all_reduce" marker recording a float message of them.
void AllReduce(TraceBuilder& b,
               std::int64_t& t,
               std::int64_t length,
               const std::string& site,
               std::int64_t& correlation,
               std::int64_t elements = 0) {
  if (!site.empty()) {
    model::Range& r = b.AddRange(model::RangeKind::kUserAnnotation, site, t, t + 3 * kUs);
    r.pid = 100;
    r.tid = 101;
  }
  if (elements > 0) {
    b.trace.range_shapes.Add(
        b.trace.ranges.size(),
        std::uint64_t{b.trace.strings.Intern("[[" + std::to_string(elements) + "]]")} << 32 |
            b.trace.strings.Intern(R"(["float"])"));
    model::Range& r =
        b.AddRange(model::RangeKind::kUserAnnotation, "nccl:all_reduce", t, t + 2 * kUs);
    r.pid = 100;
    r.tid = 101;
  }
  b.Api("cudaLaunchKernel", t, t + 1 * kUs, correlation);
  b.Kernel(
      "ncclDevKernel_AllReduce_Sum_f32_RING_LL", t + 5 * kUs, t + 5 * kUs + length, correlation);
  ++correlation;
  t += length + 10 * kUs;
}

std::string CollectiveLine(const report::AnalysisReport& r) {
  for (const std::string& line : r.diagnosis.support)
    if (Contains(line, "Grouped by call site"))
      return line;
  return "";
}

}  // namespace

TEST_CASE("collectives: a call site whose instances spread is said as waiting for other ranks",
          "[diagnosis][collectives]") {
  // A 10 ms GEMM; ten 1 ms all-reduces in "bucket_a", then four 0.1 ms and one 3 ms with no
  // range around their launch: 13.4 ms of collectives, 2.9 ms above that site's median.
  TraceBuilder b;
  b.Kernel("gemm_kernel", 0, 10 * kMs);
  std::int64_t t = 10 * kMs, correlation = 1;
  for (int i = 0; i < 10; ++i)
    AllReduce(b, t, 1 * kMs, "bucket_a", correlation);
  for (int i = 0; i < 5; ++i)
    AllReduce(b, t, i == 2 ? 3 * kMs : 100 * kUs, "", correlation);
  std::string said = CollectiveLine(Analyze(b.trace));
  INFO(said);
  CHECK(Contains(said,
                 "1 of the 2 sites of 3 or more calls spread, the slowest call at least 1.5x the "
                 "fastest (ncclDevKernel_AllReduce_Sum_f32_RING_LL with no range around its "
                 "launch: 5 calls, 100 µs to 3.00 ms); the other 1 is tight "
                 "(ncclDevKernel_AllReduce_Sum_f32_RING_LL in bucket_a: 10 calls, 1.00 ms to "
                 "1.00 ms)"));
  CHECK(Contains(said,
                 "Of the collectives' 13.4 ms of kernel time, 2.90 ms lies above the spreading "
                 "sites' fastest calls. A collective runs until every rank arrives"));
}

TEST_CASE(
    "collectives: exposed communication mostly above its sites' fastest calls is a "
    "hypothesis",
    "[diagnosis][collectives]") {
  // A 2 ms GEMM, then ten all-reduces at one site: nine of 100 us and one of 4 ms, 3.9 ms above
  // the fastest of 4.9 ms exposed: waiting for other ranks, not transfer.
  auto analyze = [](bool spread) {
    TraceBuilder b;
    b.Kernel("gemm_kernel", 0, 2 * kMs);
    std::int64_t t = 2 * kMs, correlation = 1;
    for (int i = 0; i < 10; ++i)
      AllReduce(b, t, spread ? (i == 4 ? 4 * kMs : 100 * kUs) : 490 * kUs, "bucket", correlation);
    return Analyze(b.trace);
  };
  report::AnalysisReport waits = analyze(true);
  REQUIRE(waits.diagnosis.bottleneck == report::Bottleneck::kCommunicationBound);
  CHECK(waits.diagnosis.status == report::DiagnosisStatus::kHypothesis);
  bool said = false;
  for (const std::string& line : waits.diagnosis.support)
    said = said || Contains(line,
                            "3.90 ms of the collectives' time lies above the fastest call of its "
                            "site, against 4.90 ms of exposed communication");
  CHECK(said);
  // The same time in tight calls is transfer: a finding.
  report::AnalysisReport tight = analyze(false);
  REQUIRE(tight.diagnosis.bottleneck == report::Bottleneck::kCommunicationBound);
  CHECK(tight.diagnosis.status == report::DiagnosisStatus::kFinding);
}

TEST_CASE("collectives: one rank's waits for the others bound what it gains alone",
          "[diagnosis][collectives]") {
  // Rank 0 of 8: ten cycles of a 2 ms operator launching a 0.5 ms GEMM, then an all-reduce of
  // 4 KB (1000 floats) taking 1.5 ms, which its message needs at most 104 us of (4 us at 1 GB/s
  // and 100 us of latency): 1.396 ms of each is waiting for other ranks.
  TraceBuilder b;
  b.trace.metadata.world_size = 8;
  std::int64_t t = 0, correlation = 1;
  for (int i = 0; i < 10; ++i) {
    b.Op("aten::linear", t, t + 2 * kMs);
    b.Api("cudaLaunchKernel", t + 1900 * kUs, t + 2 * kMs, correlation);
    b.Kernel("gemm_kernel", t + 2 * kMs, t + 2500 * kUs, correlation++);
    t += 2500 * kUs;
    AllReduce(b, t, 1500 * kUs, "", correlation, 1000);
  }
  report::AnalysisReport r = Analyze(b.trace);
  const report::Diagnosis& d = r.diagnosis;
  REQUIRE(d.bottleneck == report::Bottleneck::kHostBound);
  REQUIRE(d.bound_speedup);
  CHECK(d.peer_wait_ns == 10 * (1500 * kUs - 4 * kUs - 100 * kUs));
  REQUIRE(d.bound_speedup_this_rank_only);
  CHECK(*d.bound_speedup_this_rank_only < *d.bound_speedup);
  // What it saves alone, up to its waits, only lengthens them.
  const double window = static_cast<double>(r.predictions.wall_ns);
  const double saved = window * (1 - 1 / *d.bound_speedup);
  CHECK(*d.bound_speedup_this_rank_only ==
        Approx(window / (window - (saved - static_cast<double>(d.peer_wait_ns)))).epsilon(1e-4));
  CHECK(Contains(r.headline,
                 fmt::format("; {:.2f}x if only this rank changes (it waits at least 14.0 ms in "
                             "collectives for other ranks)",
                             *d.bound_speedup_this_rank_only)));
  // One process alone waits for nobody.
  b.trace.metadata.world_size = 1;
  report::AnalysisReport single = Analyze(b.trace);
  CHECK(single.diagnosis.peer_wait_ns == 0);
  CHECK_FALSE(single.diagnosis.bound_speedup_this_rank_only);
}

TEST_CASE("collectives: messages of other sizes at one site are transfers, not waits",
          "[diagnosis][collectives]") {
  // One site, no range: five 1 ms all-reduces of 64 MB and five 0.1 ms of 4 MB, each in its
  // nccl:all_reduce marker. By kernel name alone the site would spread 10x; by message it is
  // tight, and the bandwidth of each message is its bytes over its median instance.
  TraceBuilder b;
  b.Kernel("gemm_kernel", 0, 10 * kMs);
  std::int64_t t = 10 * kMs, correlation = 1;
  for (int i = 0; i < 10; ++i) {
    bool large = i % 2 == 0;
    AllReduce(b, t, large ? 1 * kMs : 100 * kUs, "", correlation, large ? 16'000'000 : 1'000'000);
  }
  std::string said = CollectiveLine(Analyze(b.trace));
  INFO(said);
  CHECK(Contains(said,
                 "all 2 sites of 3 or more calls are tight, the slowest call under 1.5x the "
                 "fastest (ncclDevKernel_AllReduce_Sum_f32_RING_LL of 64.0 MB (nccl:all_reduce) "
                 "with no range around its launch: 5 calls, 1.00 ms to 1.00 ms, fastest 64.0 "
                 "GB/s of message; ncclDevKernel_AllReduce_Sum_f32_RING_LL of 4.00 MB "
                 "(nccl:all_reduce) with no range around its launch: 5 calls, 100 µs to 100 µs, "
                 "fastest 40.0 GB/s of message). On this rank's evidence the collectives' 5.50 ms "
                 "of kernel time is transfer time"));
  // With the job's rank count the bandwidth is the links' (NCCL-tests' bus bandwidth: an
  // all-reduce on 4 ranks carries 2 x 3/4 of its message per link).
  TraceBuilder four = b;
  four.trace.metadata.world_size = 4;
  CHECK(Contains(CollectiveLine(Analyze(four.trace)), "fastest 96.0 GB/s on the links (4 ranks)"));
  // A SendRecv kernel under an all_reduce marker is not that all-reduce: no bus bandwidth.
  TraceBuilder sendrecv = four;
  for (model::GpuActivity& a : sendrecv.trace.activities) {
    if (sendrecv.trace.Name(a.name).starts_with("nccl"))
      a.name = sendrecv.trace.strings.Intern("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t");
  }
  std::string mismatched = CollectiveLine(Analyze(sendrecv.trace));
  INFO(mismatched);
  CHECK_FALSE(Contains(mismatched, "on the links"));
  CHECK(Contains(mismatched,
                 "fastest 64.0 GB/s of the marker's message (a SendRecv kernel under "
                 "nccl:all_reduce: not that collective's bus bandwidth)"));
  // Without the markers the same instances spread at one site.
  TraceBuilder unmarked;
  unmarked.Kernel("gemm_kernel", 0, 10 * kMs);
  t = 10 * kMs;
  correlation = 1;
  for (int i = 0; i < 10; ++i)
    AllReduce(unmarked, t, i % 2 == 0 ? 1 * kMs : 100 * kUs, "", correlation);
  CHECK(Contains(CollectiveLine(Analyze(unmarked.trace)),
                 "1 of the 1 sites of 3 or more calls spread"));
}

TEST_CASE("host-bound: a single-process DataLoader is named with its remedy", "[diagnosis][host]") {
  // 8 ms of Python preprocessing, no operator inside, between two kernels, under the
  // single-process DataLoader iterator.
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  b.Kernel("a", 10 * kUs, 1 * kMs, 1);
  b.Frame(
      "torch/utils/data/dataloader.py(673): __next__ "
      "<_SingleProcessDataLoaderIter>",
      1 * kMs,
      9 * kMs);
  b.Frame(
      "scipy/ndimage/_interpolation.py(500): zoom_shift", 1 * kMs + 10 * kUs, 9 * kMs - 10 * kUs);
  b.Api("cudaLaunchKernel", 9 * kMs, 9 * kMs + 5 * kUs, 2);
  b.Kernel("b", 9 * kMs + 10 * kUs, 10 * kMs, 2);
  report::AnalysisReport r = Analyze(b.trace);
  REQUIRE(r.diagnosis.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  CHECK(Contains(r.diagnosis.next_experiment, "num_workers=0"));
  CHECK(Contains(r.diagnosis.next_experiment, "zoom_shift"));
}

TEST_CASE("levers: a GEMM lever says when the GEMMs run kernels for misaligned operands",
          "[diagnosis][levers]") {
  // A V100 running FP32 CUTLASS GEMMs built for 1-element (4-byte) alignment: the AMP lever,
  // and beside it the misaligned-operand finding the new path should also fix.
  TraceBuilder b;
  model::Device v100;
  v100.name = "Tesla V100-SXM2-32GB";
  v100.compute_major = 7;
  b.trace.devices.push_back(v100);
  for (int i = 0; i < 10; ++i) {
    std::int64_t t0 = i * 1000 * kUs;
    b.Api("cudaLaunchKernel", i * kUs, i * kUs + 500, 2 * i + 1);
    // Ten different GEMM kernels: a flat profile, measured at 2x like the lever.
    b.Kernel("cutlass_70_simt_sgemm_" + std::to_string(64 + i) + "x128_8x2_nn_align1",
             t0 + 10 * kUs,
             t0 + 700 * kUs,
             2 * i + 1);
    b.Api("cudaLaunchKernel", i * kUs + 600, i * kUs + 900, 2 * i + 2);
    b.Kernel("elementwise_kernel", t0 + 700 * kUs, t0 + 1000 * kUs, 2 * i + 2);
  }
  report::AnalysisReport r = Analyze(b.trace);
  REQUIRE(Find(r, "gemm_misaligned") != nullptr);
  const report::Diagnosis& d = r.diagnosis;
  CHECK(d.bottleneck == gpuperf::report::Bottleneck::kTensorCoresUnused);
  bool beside = false;
  for (const std::string& line : d.support)
    beside = beside || Contains(line,
                                "of GEMM time runs kernels built for misaligned operands "
                                "(gemm_misaligned, trace)");
  CHECK(beside);
}

TEST_CASE("levers: an assumed-speedup lever on most of a flat profile is its concrete change",
          "[diagnosis][levers]") {
  // A V100 running ten different 1 ms kernels back to back, `gemms` of them FP32 SGEMMs: the
  // flat profile's measurement (the top 5 at 2x) bounds more than AMP on the SGEMMs at 2x, but
  // when AMP gives back at least half of it, AMP is the experiment.
  auto analyze = [](int gemms) {
    TraceBuilder b;
    model::Device v100;
    v100.name = "Tesla V100-SXM2-32GB";
    v100.compute_major = 7;
    b.trace.devices.push_back(v100);
    for (int i = 0; i < 10; ++i) {
      std::int64_t t0 = i * 1000 * kUs;
      b.Api("cudaLaunchKernel", i * kUs, i * kUs + 500, i + 1);
      b.Kernel(i < gemms ? "volta_sgemm_" + std::to_string(32 + i) + "x128_nn"
                         : "my_kernel_" + std::to_string(i),
               t0 + 10 * kUs,
               t0 + 1000 * kUs,
               i + 1);
    }
    return Analyze(b.trace);
  };
  // Four of ten: AMP gives back 2 ms (1.25x), the measurement 2.5 ms (1.33x).
  report::AnalysisReport most = analyze(4);
  INFO(most.diagnosis.next_experiment);
  CHECK(most.diagnosis.lever == gpuperf::report::LeverKind::kAmp);
  CHECK(most.diagnosis.bottleneck == gpuperf::report::Bottleneck::kTensorCoresUnused);
  bool reference = false;
  for (const std::string& line : most.diagnosis.support)
    reference = reference || Contains(line,
                                      "measuring the top kernels would give 1.33x at an assumed "
                                      "2x, and this concrete change reaches at least half of that "
                                      "gain");
  CHECK(reference);
  // The falsifier names the tensor-core kernels as a V100's cuBLAS names them.
  CHECK(Contains(most.diagnosis.falsified_by, "(h884/s884/hmma in their names"));
  // Two of ten: AMP gives back 1 ms, under half of the measurement's 2.5 ms (the top 5 at 2x),
  // which stays.
  report::AnalysisReport few = analyze(2);
  INFO(few.diagnosis.next_experiment);
  std::string lines;
  for (const std::string& line : few.diagnosis.support)
    lines += line + "\n";
  INFO(lines);
  CHECK(few.diagnosis.lever == gpuperf::report::LeverKind::kNone);
  CHECK(few.diagnosis.dominant_kind == gpuperf::report::DominantKind::kKernel);
  REQUIRE(few.diagnosis.bound_speedup_at_2x);
}

TEST_CASE("class peers: compute-bound GEMMs of similar time are one statement at their floors",
          "[diagnosis][ranking]") {
  // Per period on an H100 (989.5 TFLOP/s dense bf16 by the datasheet): "gemm_a" 4 ms and
  // "gemm_b" 3 ms, each counted at 80% of that roof in bf16 on tensor cores, and "norm" 0.5 ms,
  // back to back, launched up front. gemm_b holds 75% of gemm_a's time: the statement covers
  // both, each at its floor (1.25x faster locally).
  auto build = [](bool counters_on_b) {
    TraceBuilder b;
    b.Gpu("NVIDIA H100 80GB HBM3", 9, 132);
    std::int64_t t = 200 * kUs;
    int id = 0;
    for (int i = 0; i < 4; ++i) {
      for (auto [name, length] : {std::pair{"gemm_a", 4 * kMs},
                                  std::pair{"gemm_b", 3 * kMs},
                                  std::pair{"norm", 500 * kUs}}) {
        ++id;
        b.Api("cudaLaunchKernel", id * 10 * kUs, id * 10 * kUs + 5 * kUs, id);
        b.Kernel(name, t, t + length, id);
        if (std::string(name) != "norm" && (counters_on_b || std::string(name) == "gemm_a")) {
          model::KernelCounters c;
          c.activity = b.trace.activities.size() - 1;
          c.metrics["sm__ops_path_tensor_src_bf16_dst_fp32.sum"] =
              0.8 * 989.5e12 * static_cast<double>(length) / 1e9;
          c.metrics["dram__bytes_read.sum"] = 1e8;
          c.metrics["dram__bytes_write.sum"] = 1e8;
          b.trace.counters.push_back(c);
        }
        t += length;
      }
    }
    return std::pair{b, t};
  };
  auto [traced, end] = build(true);
  report::AnalysisReport r = Analyze(traced.trace);
  const report::Diagnosis& d = r.diagnosis;
  INFO(d.next_experiment);
  CHECK(d.bottleneck == gpuperf::report::Bottleneck::kComputeBound);
  CHECK(Contains(d.next_experiment,
                 "Cut the arithmetic time of the top 2 kernels (gemm_a, "
                 "gemm_b): they already run bf16 on tensor cores, so what is "
                 "left is FP8 where accuracy allows"));
  bool said = false;
  for (const std::string& line : d.support)
    said = said || Contains(line,
                            "2 kernels hold similar time (each at least 50% of the top "
                            "one's) and are measured compute-bound too: gemm_a, gemm_b at "
                            "80% and 80% of their roofs");
  CHECK(said);
  // Window: the first launch at 10 us to the last kernel's end. Each GEMM at its floor saves a
  // fifth of its 28 ms in all: 5.6 ms.
  const double window = static_cast<double>(end - 10 * kUs) / 1e6;
  REQUIRE(d.bound_speedup);
  CHECK(*d.bound_speedup == Approx(window / (window - 5.6)).epsilon(1e-3));
  // At half the floors (FP8's doubled roof): each keeps 0.4 of its time, saving 16.8 ms.
  CHECK(Contains(d.next_experiment,
                 fmt::format("at FP8's roof, twice theirs by the datasheet, {:.2f}x",
                             window / (window - 16.8))));

  // Without counters on gemm_b its class is unknown: the statement stays on gemm_a alone.
  auto [alone, alone_end] = build(false);
  report::AnalysisReport single = Analyze(alone.trace);
  CHECK(single.diagnosis.bottleneck == gpuperf::report::Bottleneck::kComputeBound);
  CHECK(Contains(single.diagnosis.next_experiment,
                 "Cut the arithmetic time of the dominant "
                 "kernel: it already runs bf16 on tensor cores"));
  CHECK_FALSE(Contains(single.diagnosis.next_experiment, "top 2 kernels"));
}
