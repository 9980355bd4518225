// What the diagnosis' window holds and what fills its gaps, on hand-built traces: time before the
// first GPU activity with its work already launched is unobserved, not idle; a multi-process data
// loader's fetch in the gaps is the input pipeline; optimizer steps give the step distribution
// when there is no ProfilerStep; a wait finding carries its subject as a field. Every figure is
// computed by hand below.
#include "gpuperf/analyze.h"

#include <catch2/catch.hpp>

#include <string>

#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis_builder.h"

using Catch::Detail::Approx;
using gpuperf::analysis::Analyze;
using gpuperf::testing::TraceBuilder;
namespace report = gpuperf::report;

namespace {

constexpr std::int64_t kMs = 1'000'000;
constexpr std::int64_t kUs = 1'000;

using gpuperf::testing::Contains;

bool AnySupport(const report::Diagnosis& d, const std::string& part) {
  for (const std::string& line : d.support) {
    if (Contains(line, part))
      return true;
  }
  return false;
}

}  // namespace

TEST_CASE("window: time before the first GPU activity with its work queued is unobserved",
          "[diagnosis][window]") {
  // The host launches at 0 (the call ends at 5 us) and then works; the GPU starts the kernel only
  // at 8 ms and runs it back to back with a second one until 18 ms. Nothing recorded ran before
  // 8 ms, yet the work was queued: the GPU ran unrecorded work or the clocks differ. It was
  // dependency-bound on 8 ms of "queued idle"; now those 8 ms leave the window.
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  b.Api("cudaLaunchKernel", 10 * kUs, 15 * kUs, 2);
  b.Kernel("first", 8 * kMs, 13 * kMs, 1);
  b.Kernel("second", 13 * kMs, 18 * kMs, 2);
  report::AnalysisReport r = Analyze(b.trace);
  CHECK(r.initialization.steady_window_ns == 18 * kMs - (8 * kMs - 5 * kUs));
  CHECK(r.predictions.wall_ns == r.initialization.steady_window_ns);
  CHECK(r.diagnosis.bottleneck != gpuperf::report::Bottleneck::kDependencyBound);
  CHECK(r.diagnosis.dominant_kind == gpuperf::report::DominantKind::kKernel);
  CHECK(AnySupport(r.diagnosis, "Unobserved, not idle"));
  CHECK(Contains(r.predictions.wall_source, "(unobserved)"));

  // Queued inside the trace's body (after GPU work ran) stays a dependency: not unobserved.
  TraceBuilder body;
  body.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  body.Kernel("first", 10 * kUs, 1 * kMs, 1);
  body.Api("cudaLaunchKernel", 1 * kMs, 1 * kMs + 5 * kUs, 2);
  body.Kernel("second", 9 * kMs, 10 * kMs, 2);
  report::AnalysisReport q = Analyze(body.trace);
  CHECK(q.diagnosis.bottleneck == gpuperf::report::Bottleneck::kDependencyBound);
  CHECK_FALSE(AnySupport(q.diagnosis, "Unobserved, not idle"));
}

TEST_CASE("host-bound: a multi-process data loader's fetch in the gaps is the input pipeline",
          "[diagnosis][host]") {
  // Five steps: a 20 ms fetch of the next batch (the loader waits for its workers), then 5 ms of
  // GPU work. The fetch fills 80% of the window: speed up the input pipeline, not CUDA graphs.
  TraceBuilder b;
  const std::string fetch = "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__";
  for (int i = 0; i < 5; ++i) {
    std::int64_t t0 = i * 25 * kMs;
    b.Op(fetch, t0, t0 + 20 * kMs);
    b.Op("aten::conv2d", t0 + 20 * kMs, t0 + 20 * kMs + 10 * kUs);
    b.Api("cudaLaunchKernel", t0 + 20 * kMs, t0 + 20 * kMs + 5 * kUs, i + 1);
    b.Kernel("conv", t0 + 20 * kMs + 10 * kUs, t0 + 25 * kMs, i + 1);
  }
  report::AnalysisReport r = Analyze(b.trace);
  const report::Diagnosis& d = r.diagnosis;
  CHECK(d.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  CHECK(d.status == report::DiagnosisStatus::kFinding);
  CHECK(Contains(d.next_experiment, "Speed up the input pipeline"));
  CHECK(Contains(d.next_experiment, "num_workers"));
  CHECK_FALSE(Contains(d.next_experiment, "CUDA graph"));
  // The same fetch named by a single-process loader keeps the move-it-off-the-thread lever.
  TraceBuilder single;
  for (int i = 0; i < 5; ++i) {
    std::int64_t t0 = i * 25 * kMs;
    single.Op("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", t0, t0 + 20 * kMs);
    single.Api("cudaLaunchKernel", t0 + 20 * kMs, t0 + 20 * kMs + 5 * kUs, i + 1);
    single.Kernel("conv", t0 + 20 * kMs + 10 * kUs, t0 + 25 * kMs, i + 1);
  }
  report::AnalysisReport s = Analyze(single.trace);
  CHECK(Contains(s.diagnosis.next_experiment, "num_workers=0"));
  CHECK_FALSE(Contains(s.diagnosis.next_experiment, "Speed up the input pipeline"));
}

TEST_CASE("steps: optimizer steps give the step distribution without ProfilerStep",
          "[framework][steps]") {
  // Four optimizer.step() calls at 0, 10, 22 and 32 ms: three iterations of 10, 12 and 10 ms.
  TraceBuilder b;
  for (std::int64_t t : {0, 10, 22, 32}) {
    b.Op("Optimizer.step#SGD.step", t * kMs, t * kMs + 1 * kMs);
    b.Api("cudaLaunchKernel", t * kMs + 1 * kMs, t * kMs + 1 * kMs + 5 * kUs, t + 1);
    b.Kernel("update", t * kMs + 1 * kMs + 10 * kUs, t * kMs + 3 * kMs, t + 1);
  }
  report::AnalysisReport r = Analyze(b.trace);
  REQUIRE(r.framework.steps.size() == 3);
  CHECK(r.framework.steps[1].wall_ns == 12 * kMs);
  REQUIRE(r.framework.step_summary);
  CHECK(r.framework.step_summary->source == "Optimizer.step (from one call to the next)");
  CHECK(r.framework.step_summary->median_wall_ns == Approx(10 * kMs));
  CHECK(Contains(r.diagnosis.baseline, "its 3 steps (Optimizer.step"));
  CHECK_FALSE(Contains(r.diagnosis.baseline, "no run-to-run distribution"));
  // One call is no iteration: no steps, and the baseline asks for repeats.
  TraceBuilder one;
  one.Op("Optimizer.step#SGD.step", 0, 1 * kMs);
  one.Api("cudaLaunchKernel", 1 * kMs, 1 * kMs + 5 * kUs, 1);
  one.Kernel("update", 1 * kMs + 10 * kUs, 3 * kMs, 1);
  report::AnalysisReport o = Analyze(one.trace);
  CHECK(o.framework.steps.empty());
  CHECK(Contains(o.diagnosis.baseline, "no run-to-run distribution"));
}

TEST_CASE("findings: a wait finding names its subject as a field", "[findings]") {
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  b.Kernel("k", 10 * kUs, 1 * kMs, 1);
  b.Api("cudaDeviceSynchronize_v3020", 6 * kUs, 2 * kMs);
  b.Api("cudaStreamSynchronize", 3 * kMs, 3 * kMs + 10 * kUs);
  report::AnalysisReport r = Analyze(b.trace);
  const report::Finding* sync = nullptr;
  for (const report::Finding& f : r.findings)
    sync = f.id == "sync_api" ? &f : sync;
  REQUIRE(sync != nullptr);
  CHECK(sync->subject == "cudaDeviceSynchronize");  // the longest wait, without its suffix
}

TEST_CASE("host-bound: vLLM's operators in the gaps get vLLM's own graph capture as the lever",
          "[diagnosis][host]") {
  // Five layers: 4 ms of host time in vLLM's attention operator, then 1 ms of GPU work.
  auto build = [](const std::string& op) {
    TraceBuilder b;
    for (int i = 0; i < 5; ++i) {
      std::int64_t t0 = i * 5 * kMs;
      b.Op(op, t0, t0 + 4 * kMs);
      b.Api("cudaLaunchKernel", t0 + 4 * kMs - 10 * kUs, t0 + 4 * kMs - 5 * kUs, i + 1);
      b.Kernel("attention", t0 + 4 * kMs, t0 + 5 * kMs, i + 1);
    }
    return b;
  };
  report::AnalysisReport v = Analyze(build("vllm::unified_attention_with_output").trace);
  CHECK(v.diagnosis.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  CHECK(Contains(v.diagnosis.next_experiment, "without enforce_eager"));
  report::AnalysisReport t = Analyze(build("aten::scaled_dot_product_attention").trace);
  CHECK(t.diagnosis.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  CHECK_FALSE(Contains(t.diagnosis.next_experiment, "enforce_eager"));
}

TEST_CASE("waits: a wait is never credited the idle before it began", "[diagnosis][waits]") {
  // 18.5 ms of host work (a data loader) with the GPU idle, then a synchronous 1 MiB copy whose
  // call [19, 21) ms runs its GPU part [19.5, 20.5) ms, then the next kernel. The copy ends the
  // long gap; it did not cause it: it is credited the 0.5 ms of the gap after its call began and
  // the 0.51 ms round trip after its GPU part, not its whole 2 ms against the loader's gap.
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  b.Kernel("A", 10 * kUs, 1 * kMs, 1);
  b.Op("loader", 1 * kMs, 19 * kMs);
  b.Api("cudaMemcpy", 19 * kMs, 21 * kMs, 2);
  b.Memcpy(gpuperf::model::CopyKind::kHtoD, 19500 * kUs, 20500 * kUs, 1 << 20, 2);
  b.Api("cudaLaunchKernel", 21 * kMs, 21 * kMs + 5 * kUs, 3);
  b.Kernel("B", 21 * kMs + 10 * kUs, 25 * kMs, 3);
  report::AnalysisReport r = Analyze(b.trace);
  const report::Finding* copy = nullptr;
  for (const report::Finding& f : r.findings)
    copy = f.id == "sync_memcpy" ? &f : copy;
  REQUIRE(copy != nullptr);
  REQUIRE(copy->gpu_idle_caused_ns);
  CHECK(*copy->gpu_idle_caused_ns == 500 * kUs + 510 * kUs);
}

TEST_CASE("window: after the last step, time the trace records nothing in is unobserved",
          "[diagnosis][window]") {
  // Two steps, two kernels ending at 10 ms; the host's last op ends at 12 ms; the trace ends
  // with a closing synchronization at [40 ms, 40.05 ms). The 28 ms in between hold no record at
  // all: they leave the idle and the window. The recorded 2 ms op after the last kernel stays.
  TraceBuilder b;
  b.AddRange(gpuperf::model::RangeKind::kProfilerStep, "ProfilerStep#1", 0, 5 * kMs);
  b.AddRange(gpuperf::model::RangeKind::kProfilerStep, "ProfilerStep#2", 5 * kMs, 10 * kMs);
  b.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  b.Kernel("first", 10 * kUs, 5 * kMs, 1);
  b.Api("cudaLaunchKernel", 10 * kUs, 15 * kUs, 2);
  b.Kernel("second", 5 * kMs, 10 * kMs, 2);
  b.Op("aten::item", 10 * kMs, 12 * kMs);
  b.Api("cudaDeviceSynchronize", 40 * kMs, 40 * kMs + 50 * kUs);
  report::AnalysisReport r = Analyze(b.trace);
  const std::int64_t unobserved = 28 * kMs;
  CHECK(r.initialization.steady_window_ns == 40 * kMs + 50 * kUs - unobserved);
  CHECK(r.predictions.wall_ns == r.initialization.steady_window_ns);
  CHECK(Contains(r.predictions.wall_source, "after the last GPU activity"));
  CHECK(AnySupport(r.diagnosis, "28.0 ms passed in which the trace records nothing"));
  CHECK(Contains(r.headline, "The last 28.0 ms, after the last GPU activity and the last step"));
  // Without steps (a single-shot program) the same tail may be its own post-processing: idle.
  TraceBuilder single = b;
  single.trace.ranges.clear();
  report::AnalysisReport one = Analyze(single.trace);
  CHECK(one.initialization.steady_window_ns == 40 * kMs + 50 * kUs);
  CHECK(one.initialization.unobserved_tail_ns == 0);
  // An unrecorded stretch under 1 ms stays idle.
  TraceBuilder short_tail;
  short_tail.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  short_tail.Kernel("first", 10 * kUs, 10 * kMs, 1);
  short_tail.Api("cudaDeviceSynchronize", 10 * kMs + 500 * kUs, 10 * kMs + 550 * kUs);
  report::AnalysisReport s = Analyze(short_tail.trace);
  CHECK(s.initialization.steady_window_ns == 10 * kMs + 550 * kUs);
  CHECK_FALSE(AnySupport(s.diagnosis, "the trace records nothing"));
}

TEST_CASE("initialization: a repeated host range's outlying first instance is one-time work",
          "[diagnosis][initialization]") {
  // A range's first instance takes 100 ms, then four of 10 ms, each followed by 10 ms of GPU
  // work. The first one's 90 ms beyond the median is one-time work (10x the median); the later
  // ones stay in the steady state.
  TraceBuilder b;
  const std::string fetch = "## build_batch ##";
  std::int64_t t = 0;
  for (int i = 0; i < 5; ++i) {
    std::int64_t length = i == 0 ? 100 * kMs : 10 * kMs;
    gpuperf::model::Range& range =
        b.AddRange(gpuperf::model::RangeKind::kUserAnnotation, fetch, t, t + length);
    range.pid = 100;  // the launching thread, where the waits are
    range.tid = 101;
    t += length;
    b.Api("cudaLaunchKernel", t, t + 5 * kUs, i + 1);
    b.Kernel("step", t + 10 * kUs, t + 10 * kMs, i + 1);
    t += 10 * kMs;
  }
  report::AnalysisReport r = Analyze(b.trace);
  REQUIRE_FALSE(r.initialization.items.empty());
  const report::InitializationItem& item = r.initialization.items.front();
  CHECK(item.kind == gpuperf::report::InitializationKind::kFirstCall);
  CHECK(item.name == fetch);
  CHECK(item.time_ns == 90 * kMs);
  CHECK(Contains(item.evidence, "first instance 100 ms: 10x the median of its 5 instances"));
  // No marked steps: the later first calls stay in; the headline does not call it steady, nor
  // one pass (these five fetches may be unmarked iterations).
  CHECK(Contains(r.headline, "the diagnosis and bounds are for the window without it"));
  CHECK(Contains(r.headline,
                 "the trace marks no steps (ProfilerStep, or ranges named by --step-range), so "
                 "the window is not a steady state of warm steps"));
  CHECK_FALSE(Contains(r.headline, "one pass"));
  TraceBuilder stepped = b;
  stepped.AddRange(gpuperf::model::RangeKind::kProfilerStep, "ProfilerStep#1", 0, 120 * kMs);
  stepped.AddRange(gpuperf::model::RangeKind::kProfilerStep, "ProfilerStep#2", 120 * kMs, t);
  const report::AnalysisReport stepped_report = Analyze(stepped.trace);
  CHECK(Contains(stepped_report.headline, "for the steady state without it"));
  CHECK_FALSE(Contains(stepped_report.headline, "one pass"));
  // Another range needs 10x its median: 5x (a 50 ms first instance) is no outlier.
  TraceBuilder other;
  t = 0;
  for (int i = 0; i < 5; ++i) {
    std::int64_t length = i == 0 ? 50 * kMs : 10 * kMs;
    other.AddRange(gpuperf::model::RangeKind::kUserAnnotation, "## forward ##", t, t + length);
    t += length;
    other.Api("cudaLaunchKernel", t, t + 5 * kUs, i + 1);
    other.Kernel("step", t + 10 * kUs, t + 10 * kMs, i + 1);
    t += 10 * kMs;
  }
  CHECK(Analyze(other.trace).initialization.items.empty());
  // A first instance that is mostly a wait for the GPU (a synchronization inside it) is the queue
  // draining, not warm-up: the same 100 ms range holding a 95 ms cudaStreamSynchronize.
  TraceBuilder waited = b;
  waited.Api("cudaLaunchKernel", 1 * kMs, 1 * kMs + 5 * kUs, 99);
  waited.Kernel("queued", 2 * kMs, 97 * kMs, 99);
  waited.Api("cudaStreamSynchronize", 2 * kMs, 97 * kMs);
  const report::AnalysisReport waited_report = Analyze(waited.trace);
  for (const report::InitializationItem& i : waited_report.initialization.items)
    CHECK(i.name != fetch);
  // Nor is a first instance that a later one comes within 2x of (a stall that recurs).
  TraceBuilder recurring = b;
  recurring.AddRange(gpuperf::model::RangeKind::kUserAnnotation, fetch, t, t + 60 * kMs).pid = 100;
  recurring.trace.ranges.back().tid = 101;
  CHECK(Analyze(recurring.trace).initialization.items.empty());
  // Nor is a first instance that a later one outlasts (a bimodal series has no warm-up).
  TraceBuilder later = b;
  later.AddRange(gpuperf::model::RangeKind::kUserAnnotation, fetch, t, t + 120 * kMs).pid = 100;
  later.trace.ranges.back().tid = 101;
  CHECK(Analyze(later.trace).initialization.items.empty());
  // A range seen twice has no median to stand out from.
  TraceBuilder twice;
  twice.AddRange(gpuperf::model::RangeKind::kUserAnnotation, fetch, 0, 400 * kMs);
  twice.AddRange(gpuperf::model::RangeKind::kUserAnnotation, fetch, 400 * kMs, 410 * kMs);
  twice.Api("cudaLaunchKernel", 410 * kMs, 410 * kMs + 5 * kUs, 1);
  twice.Kernel("step", 411 * kMs, 420 * kMs, 1);
  CHECK(Analyze(twice.trace).initialization.items.empty());
}

namespace {

// Step i of a host-bound loop: a 20 ms ProfilerStep range from i x 20 ms, and a 15 ms host
// operator at its start.
void HostStep(TraceBuilder& b, int i) {
  std::int64_t t0 = i * 20 * kMs;
  gpuperf::model::Range& step = b.AddRange(gpuperf::model::RangeKind::kProfilerStep,
                                           "ProfilerStep#" + std::to_string(i),
                                           t0,
                                           t0 + 20 * kMs);
  step.pid = 100;
  step.tid = 101;
  b.Op("aten::linear", t0, t0 + 15 * kMs);
}

}  // namespace

TEST_CASE("host-bound: a step that synchronizes is captured in a graph only between its waits",
          "[diagnosis][host]") {
  // Four 20 ms steps: an operator runs 15 ms on the host and launches a 1 ms kernel at its end;
  // inside it the host synchronizes `syncs` times (returning at once: nothing runs). The gaps are
  // operator time: host-bound, and capture is the lever, but a graph holds no host wait.
  auto build = [](int syncs) {
    TraceBuilder b;
    for (int i = 0; i < 4; ++i) {
      std::int64_t t0 = i * 20 * kMs;
      HostStep(b, i);
      for (int s = 0; s < syncs; ++s)
        b.Api("cudaStreamSynchronize", t0 + (s + 1) * kMs, t0 + (s + 1) * kMs + 10 * kUs);
      b.Api("cudaLaunchKernel", t0 + 14900 * kUs, t0 + 14905 * kUs, i + 1);
      b.Kernel("k", t0 + 15 * kMs, t0 + 16 * kMs, i + 1);
    }
    return Analyze(b.trace);
  };
  report::AnalysisReport three = build(3);
  CHECK(three.diagnosis.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  CHECK(Contains(three.diagnosis.next_experiment,
                 "12 host-blocking synchronizations over its 4 steps (3 a step)"));
  report::AnalysisReport one = build(1);
  CHECK(one.diagnosis.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  CHECK_FALSE(Contains(one.diagnosis.next_experiment, "host-blocking synchronizations"));
}

TEST_CASE("host-bound: the syncs of copies to the device are costed by the idle they cause",
          "[diagnosis][host][syncs]") {
  // Four 20 ms steps of 15 ms host operator work; each copies its input to the device twice
  // (aten::to: a 10 us copy call, then a 20 us sync), all while the GPU idles.
  TraceBuilder b;
  std::int64_t correlation = 1;
  for (int i = 0; i < 4; ++i) {
    std::int64_t t0 = i * 20 * kMs;
    HostStep(b, i);
    for (int c = 0; c < 2; ++c) {
      std::int64_t at = t0 + (1 + 4 * c) * kMs;
      b.Op("aten::to", at, at + 40 * kUs);
      b.Api("cudaMemcpyAsync", at, at + 10 * kUs, correlation);
      b.Memcpy(gpuperf::model::CopyKind::kHtoD, at + 12 * kUs, at + 18 * kUs, 1 << 20, correlation);
      ++correlation;
      b.Api("cudaStreamSynchronize", at + 10 * kUs, at + 30 * kUs);
    }
    b.Api("cudaLaunchKernel", t0 + 14900 * kUs, t0 + 14905 * kUs, correlation);
    b.Kernel("k", t0 + 15 * kMs, t0 + 16 * kMs, correlation);
    ++correlation;
  }
  report::AnalysisReport r = Analyze(b.trace);
  INFO(r.diagnosis.next_experiment);
  REQUIRE(r.diagnosis.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  // 8 copies of 30 us each block the host 240 us; each 6 us copy runs with no kernel beside it.
  CHECK(
      Contains(r.diagnosis.next_experiment,
               "of the 8 sync calls, 8 inside copy operators (aten::copy_, aten::to) that copy to "
               "the device"));
  CHECK(Contains(r.diagnosis.next_experiment,
                 "in the steady window their copy and sync calls block the host 240 µs"));
  CHECK(Contains(r.diagnosis.next_experiment,
                 "their copies run 48.0 µs with no kernel beside them: pinned buffers with a "
                 "prefetch on another stream give back at most both"));
}

TEST_CASE("initialization: a first call slow at each of several shapes is one-time per shape",
          "[diagnosis][initialization]") {
  // aten::addmm at two input shapes, five calls each: the first call of each shape takes 5 ms,
  // the others 50 us. Both are one-time work, and the evidence says a new shape pays it again.
  TraceBuilder b;
  std::int64_t t = 0;
  int id = 0;
  for (const char* dims : {"[[888,64],[64,64]]", "[[888,64],[64,256]]"}) {
    for (int i = 0; i < 5; ++i) {
      std::int64_t length = i == 0 ? 5 * kMs : 50 * kUs;
      b.Op("aten::addmm", t, t + length).input_dims = b.trace.strings.Intern(dims);
      b.Api("cudaLaunchKernel", t + length - 10 * kUs, t + length - 5 * kUs, ++id);
      b.Kernel("gemm", t + length, t + length + 20 * kUs, id);
      t += length + 30 * kUs;
    }
  }
  report::AnalysisReport r = Analyze(b.trace);
  REQUIRE(r.initialization.items.size() == 1);
  const report::InitializationItem& item = r.initialization.items.front();
  CHECK(item.name == "aten::addmm");
  CHECK(item.count == 2);
  CHECK(Contains(item.evidence, "the first call of each of its 2 input shapes is slow"));
}

TEST_CASE("host-bound: a loader-paced window says what a fed step takes against a starved one",
          "[diagnosis][host]") {
  // Eight steps: four the loader fed (a 1 ms fetch, 10 ms of GPU work) and four it starved (a
  // 40 ms fetch, then the same 10 ms). Medians 11 ms against 50 ms: up to 4.5x a starved step.
  TraceBuilder b;
  const std::string fetch = "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__";
  std::int64_t t = 0;
  for (int i = 0; i < 8; ++i) {
    std::int64_t wait = i < 4 ? 1 * kMs : 40 * kMs;
    gpuperf::model::Range& step = b.AddRange(gpuperf::model::RangeKind::kProfilerStep,
                                             "ProfilerStep#" + std::to_string(i),
                                             t,
                                             t + wait + 10 * kMs);
    step.pid = 100;
    step.tid = 101;
    b.Op(fetch, t, t + wait);
    b.Api("cudaLaunchKernel", t + wait, t + wait + 5 * kUs, i + 1);
    b.Kernel("step", t + wait + 10 * kUs, t + wait + 10 * kMs, i + 1);
    t += wait + 10 * kMs;
  }
  report::AnalysisReport r = Analyze(b.trace);
  CHECK(Contains(r.diagnosis.next_experiment, "Speed up the input pipeline"));
  CHECK(AnySupport(r.diagnosis,
                   "4 of the 8 steps are starved (the GPU idles over half of the step): median "
                   "50.0 ms against 11.0 ms for the 4 the loader fed; a loader that keeps up "
                   "makes a starved step up to 4.55x faster"));
}

TEST_CASE("host-bound: a loader's first fetch that waits for its workers' start is named",
          "[diagnosis][host]") {
  // Eight 10 ms steps behind a worker-process loader: each fetch unpacks its batch (an operator
  // inside, 100 us); the first waits 200 ms, the next three 40 ms, the rest 1 ms. The first is
  // five times any later fetch: the workers' start-up, paid once per epoch without persistent
  // workers, which the advice names beside the loader's whole wait.
  auto loop = [](std::int64_t first_wait) {
    TraceBuilder b;
    const std::string fetch = "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__";
    std::int64_t t = 0;
    for (int i = 0; i < 8; ++i) {
      std::int64_t wait = i == 0 ? first_wait : i < 4 ? 40 * kMs : 1 * kMs;
      b.Op(fetch, t, t + wait);
      b.Op("aten::set_", t + wait - 150 * kUs, t + wait - 50 * kUs);
      b.Api("cudaLaunchKernel", t + wait, t + wait + 5 * kUs, i + 1);
      b.Kernel("step", t + wait + 10 * kUs, t + wait + 10 * kMs, i + 1);
      t += wait + 10 * kMs;
    }
    return Analyze(b.trace);
  };
  const report::AnalysisReport r = loop(200 * kMs);
  CHECK(Contains(r.diagnosis.next_experiment, "Speed up the input pipeline"));
  CHECK(Contains(r.diagnosis.next_experiment,
                 "200 ms of it in the first fetch, which waits for the workers' start-up"));
  // A first fetch under twice the longest later one is a slow fetch like the others.
  const report::AnalysisReport s = loop(70 * kMs);
  CHECK(Contains(s.diagnosis.next_experiment, "Speed up the input pipeline"));
  CHECK_FALSE(Contains(s.diagnosis.next_experiment, "in the first fetch"));
}

TEST_CASE("host-bound: gradients zeroed with kernels are named with set_to_none",
          "[diagnosis][host]") {
  // Four 20 ms steps: 15 ms of an operator launching a 1 ms kernel, then zero_grad for 2 ms
  // filling 10 gradients (zero_ > fill_, each a 1 us kernel), while the GPU otherwise idles.
  TraceBuilder b;
  std::int64_t correlation = 1;
  for (int i = 0; i < 4; ++i) {
    std::int64_t t0 = i * 20 * kMs;
    HostStep(b, i);
    b.Api("cudaLaunchKernel", t0 + 14900 * kUs, t0 + 14905 * kUs, correlation);
    b.Kernel("k", t0 + 15 * kMs, t0 + 16 * kMs, correlation++);
    std::int64_t z = t0 + 16 * kMs;
    b.Op("Optimizer.zero_grad#SGD.zero_grad", z, z + 2 * kMs);
    for (int g = 0; g < 10; ++g) {
      std::int64_t at = z + 10 * kUs + g * 150 * kUs;
      b.Op("aten::zero_", at, at + 100 * kUs);
      b.Op("aten::fill_", at + 5 * kUs, at + 95 * kUs);
      b.Api("cudaLaunchKernel", at + 10 * kUs, at + 15 * kUs, correlation);
      b.Kernel("fill_kernel", at + 20 * kUs, at + 21 * kUs, correlation++);
    }
  }
  report::AnalysisReport r = Analyze(b.trace);
  REQUIRE(r.diagnosis.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  std::string lines;
  for (const std::string& line : r.diagnosis.support)
    lines += line + "\n";
  INFO(lines);
  CHECK(Contains(lines,
                 "Optimizer.zero_grad#SGD.zero_grad zeroes the gradients with kernels: 40 fill "
                 "operators in 4 calls (10 a call), 2.00 ms of host time a call"));
  CHECK(Contains(lines, "optimizer.zero_grad(set_to_none=True) (PyTorch's default since 2.0)"));
  INFO(r.diagnosis.next_experiment);
  CHECK(Contains(r.diagnosis.next_experiment, "The cheapest part first: Optimizer.zero_grad#"));
  // Without the fills, nothing is said.
  TraceBuilder none;
  none.Op("Optimizer.zero_grad#SGD.zero_grad", 0, kMs);
  CHECK(gpuperf::analysis::ZeroGradWork(none.trace, {}, {0, 10 * kMs}, 10 * kMs).text.empty());
}

TEST_CASE("baseline: iterations the trace does not mark give the run-to-run distribution",
          "[diagnosis][steps]") {
  // Four iterations of kernels a then b, periods 10, 10 and 13 ms, and no step ranges.
  auto build = [](bool last_differs) {
    TraceBuilder b;
    std::int64_t starts[] = {0, 10 * kMs, 20 * kMs, 33 * kMs};
    std::int64_t correlation = 1;
    for (int i = 0; i < 4; ++i) {
      std::int64_t t = starts[i];
      b.Api("cudaLaunchKernel", t, t + 5 * kUs, correlation);
      b.Kernel("a", t + 10 * kUs, t + 2 * kMs, correlation++);
      b.Api("cudaLaunchKernel", t + 2 * kMs, t + 2 * kMs + 5 * kUs, correlation);
      b.Kernel(last_differs && i == 3 ? "c" : "b", t + 3 * kMs, t + 4 * kMs, correlation++);
    }
    return gpuperf::analysis::UnmarkedIterationsText(b.trace);
  };
  std::string said = build(false);
  CHECK(said ==
        "its GPU work repeats in 4 unmarked iterations (a, the same 2 kernel launches in each): "
        "the period from one iteration's first kernel to the next's, median 10.0 ms, p95 13.0 "
        "ms, MAD 0 ns over 3 periods (trace: kernel start times), is its run-to-run "
        "distribution; mark the iterations (an NVTX range, --step-range) to analyse them as "
        "steps");
  CHECK(build(true).empty());  // the last iteration runs other work: no clean repetition
}

TEST_CASE("host work: a step marker recorded as an operator is not named as host work",
          "[diagnosis][host]") {
  // 2021-era traces record ProfilerStep#N as an operator around the whole step.
  TraceBuilder b;
  for (int i = 0; i < 4; ++i) {
    HostStep(b, i);
    std::int64_t t0 = i * 20 * kMs;
    b.Op("ProfilerStep#" + std::to_string(i), t0, t0 + 20 * kMs);
    b.Api("cudaLaunchKernel", t0 + 14900 * kUs, t0 + 14905 * kUs, i + 1);
    b.Kernel("k", t0 + 15 * kMs, t0 + 16 * kMs, i + 1);
  }
  report::AnalysisReport r = Analyze(b.trace);
  std::string lines;
  for (const std::string& line : r.diagnosis.support)
    lines += line + "\n";
  INFO(lines);
  CHECK(Contains(lines, "most in aten::linear ("));
  CHECK_FALSE(Contains(lines, "ProfilerStep#0 ("));
}
