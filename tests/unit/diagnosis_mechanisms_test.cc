// The diagnosis mechanisms of issue 14 on hand-built traces: waits sized by the GPU idle they
// cause, the launch-queue depth, graph launches counted once, implicit synchronization,
// one-time work, coverage gaps, floors at the minimum kernel latency, vendor tools, a
// visible-devices remap and the devices a scope counts. Every figure is computed by hand below.
#include "gpuperf/analyze.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <string>

#include "analysis/core/correlation.h"
#include "analysis/core/names.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/diagnosis/initialization.h"
#include "analysis/predictions/amdahl.h"
#include "analysis/predictions/predictions.h"
#include "analysis/timeline/device_remap.h"
#include "analysis/timeline/tables.h"
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

const report::Finding* Find(const report::AnalysisReport& r, const std::string& id) {
  for (const report::Finding& f : r.findings) {
    if (f.id == id)
      return &f;
  }
  return nullptr;
}

using gpuperf::testing::Contains;

// Two 10 ms kernels; a device synchronize blocks the host from 1 ms to 10.005 ms while the GPU is
// busy, then the next launch (10.010-10.015 ms) starts kernel B at 10.020 ms.
TraceBuilder SyncWhileBusy() {
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  b.Kernel("A", 10 * kUs, 10 * kMs, 1);
  b.Api("cudaDeviceSynchronize", 1 * kMs, 10 * kMs + 5 * kUs);
  b.Api("cudaLaunchKernel", 10 * kMs + 10 * kUs, 10 * kMs + 15 * kUs, 2);
  b.Kernel("B", 10 * kMs + 20 * kUs, 20 * kMs, 2);
  return b;
}

}  // namespace

TEST_CASE("waits: a synchronization while the GPU is busy costs only the idle it causes",
          "[diagnosis][waits]") {
  report::AnalysisReport r = Analyze(SyncWhileBusy().trace);
  const report::Finding* sync = Find(r, "sync_api");
  REQUIRE(sync != nullptr);
  CHECK(sync->time_ns == 9 * kMs + 5 * kUs);
  REQUIRE(sync->host_blocked_ns);
  CHECK(*sync->host_blocked_ns == 9 * kMs + 5 * kUs);
  // The gap [10.000, 10.020) ms is the synchronization's round trip: 20 us of idle caused.
  REQUIRE(sync->gpu_idle_caused_ns);
  CHECK(*sync->gpu_idle_caused_ns == 20 * kUs);
  REQUIRE(sync->bound_speedup_if_removed);
  CHECK(*sync->bound_speedup_if_removed == Approx(1.0 / (1.0 - 20.0 * kUs / (20.0 * kMs))));
  CHECK(sync->columns.back() == "GPU idle caused (ns)");
  CHECK(sync->rows.at(0).cells.back() == std::to_string(20 * kUs));
  // The idle is not the diagnosis: the GPU was busy 99.8% of the window.
  CHECK(r.diagnosis.bottleneck != gpuperf::report::Bottleneck::kSyncBound);
}

TEST_CASE("waits: idle after a wait with long host work is capped by the wait's length",
          "[diagnosis][waits]") {
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  b.Kernel("A", 10 * kUs, 1 * kMs, 1);
  b.Api("cudaStreamSynchronize", 900 * kUs, 1 * kMs + 5 * kUs);  // waits 105 us
  // 5 ms of host work with no CUDA call, then the next launch.
  b.Api("cudaLaunchKernel", 6 * kMs, 6 * kMs + 5 * kUs, 2);
  b.Kernel("B", 6 * kMs + 10 * kUs, 7 * kMs, 2);
  report::AnalysisReport r = Analyze(b.trace);
  const report::Finding* sync = Find(r, "sync_api");
  REQUIRE(sync != nullptr);
  // The gap [1, 6.01) ms holds 4.995 ms with no call: host work the wait exposed. Without the
  // wait the host would have started 105 us earlier, so the wait caused at most that.
  CHECK(*sync->gpu_idle_caused_ns == 105 * kUs);
}

TEST_CASE("launch queue: median and p90 depth decide GPU-bound versus host-bound",
          "[diagnosis][queue]") {
  TraceBuilder ahead;
  // 60 launches 10 us apart; kernels of 200 us each run back to back from 1.2 ms: the queue
  // depth of launch i is 1.2 ms + i * 190 us - 5 us.
  for (int i = 0; i < 60; ++i) {
    std::int64_t t = i * 10 * kUs;
    ahead.Api("cudaLaunchKernel", t, t + 5 * kUs, i + 1);
    std::int64_t start = 1200 * kUs + i * 200 * kUs;
    ahead.Kernel("k", start, start + 200 * kUs, i + 1);
  }
  report::AnalysisReport r = Analyze(ahead.trace);
  REQUIRE(r.diagnosis.queue);
  CHECK(r.diagnosis.queue->launches == 60);
  // Sorted depths: 1195 + 190 i us; median = element 29, p90 = element 53 (nearest rank below).
  CHECK(r.diagnosis.queue->median_ns == 1195 * kUs + 29 * 190 * kUs);
  CHECK(r.diagnosis.queue->p90_ns == 1195 * kUs + 53 * 190 * kUs);
  CHECK(r.diagnosis.queue->verdict == gpuperf::report::QueueVerdict::kGpuBound);
  CHECK(Contains(r.diagnosis.queue->sentence,
                 "GPU-bound while it launches: the host runs 6.71 ms ahead"));

  TraceBuilder waiting;
  // The same launches, but each kernel runs 10 us, 1 ms apart: the queue is deep while the GPU
  // idles 99%: the work waits on something other than the host.
  for (int i = 0; i < 60; ++i) {
    std::int64_t t = i * 10 * kUs;
    waiting.Api("cudaLaunchKernel", t, t + 5 * kUs, i + 1);
    std::int64_t start = 1200 * kUs + i * kMs;
    waiting.Kernel("k", start, start + 10 * kUs, i + 1);
  }
  r = Analyze(waiting.trace);
  REQUIRE(r.diagnosis.queue);
  CHECK(r.diagnosis.queue->verdict == gpuperf::report::QueueVerdict::kGpuWaits);
  CHECK(Contains(r.diagnosis.queue->sentence, "Queued but idle"));

  TraceBuilder behind;
  for (int i = 0; i < 60; ++i) {
    std::int64_t t = i * kMs;
    behind.Api("cudaLaunchKernel", t, t + 5 * kUs, i + 1);
    behind.Kernel("k", t + 10 * kUs, t + 20 * kUs, i + 1);
  }
  r = Analyze(behind.trace);
  REQUIRE(r.diagnosis.queue);
  CHECK(r.diagnosis.queue->median_ns == 5 * kUs);
  CHECK(r.diagnosis.queue->verdict == gpuperf::report::QueueVerdict::kHostBound);
  CHECK(Contains(r.diagnosis.queue->sentence, "Host-bound"));
}

TEST_CASE("launch queue: undetermined from too few launches, slow calls or a draining program",
          "[diagnosis][queue]") {
  // `launches` launch calls 1 ms apart, each call `call_us` long, its kernel starting
  // `start_us` after the call starts; with `sync`, a device synchronize after every kernel.
  auto build = [](int launches, std::int64_t call_us, std::int64_t start_us, bool sync) {
    TraceBuilder b;
    for (int i = 0; i < launches; ++i) {
      std::int64_t t = i * kMs;
      b.Api("cudaLaunchKernel", t, t + call_us * kUs, i + 1);
      b.Kernel("k", t + start_us * kUs, t + (start_us + 10) * kUs, i + 1);
      if (sync)
        b.Api("cudaDeviceSynchronize", t + call_us * kUs, t + (start_us + 12) * kUs);
    }
    return b;
  };
  // 49 launches: one short of kMinQueueLaunches.
  report::AnalysisReport r = Analyze(build(49, 5, 10, false).trace);
  REQUIRE(r.diagnosis.queue);
  CHECK(r.diagnosis.queue->verdict == gpuperf::report::QueueVerdict::kUndetermined);
  CHECK(r.diagnosis.queue->median_ns == 5 * kUs);  // the figures stay
  CHECK(Contains(r.diagnosis.queue->sentence, "49 launch calls are too few"));
  CHECK(Contains(r.diagnosis.queue->sentence, "median 5.00 µs"));
  CHECK(Contains(r.headline, "The launch queue gives no verdict on GPU- versus host-bound"));
  CHECK_FALSE(Contains(r.headline, "Host-bound:"));
  // A host-side verdict over host time recorded with Python stacks says so beside the verdict.
  CHECK_FALSE(Contains(r.headline, "The host time it rests on was recorded with"));
  TraceBuilder profiled = build(49, 5, 10, false);
  profiled.trace.metadata.properties["with_stack"] = "1";
  const report::AnalysisReport with_stack = Analyze(profiled.trace);
  REQUIRE(with_stack.diagnosis.bottleneck == report::Bottleneck::kHostBound);
  CHECK(Contains(with_stack.headline,
                 "The host time it rests on was recorded with Python stacks (with_stack), whose "
                 "per-operator work inflates it"));

  // Five graph launches of 20 nodes each, every one queued 2 ms behind the GPU's work: few calls,
  // but the host is ahead at each, so the queue decides (GPU-bound).
  {
    TraceBuilder graphs;
    std::int64_t gpu = 2 * kMs;
    for (int g = 0; g < 5; ++g) {
      const std::int64_t call = g * 10 * kUs;
      graphs.Api("cudaGraphLaunch", call, call + 5 * kUs, g + 1);
      for (int n = 0; n < 20; ++n, gpu += 100 * kUs)
        graphs.Kernel("node", gpu, gpu + 100 * kUs, g + 1);
    }
    report::AnalysisReport q = Analyze(graphs.trace);
    REQUIRE(q.diagnosis.queue);
    CHECK(q.diagnosis.queue->launches == 5);
    CHECK_FALSE(q.diagnosis.queue->too_few_launches);
    CHECK(q.diagnosis.queue->verdict == gpuperf::report::QueueVerdict::kGpuBound);
  }

  // 60 launches whose kernels start 10 us into a 2 ms call: the call's end is no queue entry.
  r = Analyze(build(60, 2000, 10, false).trace);
  REQUIRE(r.diagnosis.queue);
  CHECK(r.diagnosis.queue->verdict == gpuperf::report::QueueVerdict::kUndetermined);
  CHECK(r.diagnosis.queue->median_ns == 0);
  CHECK(Contains(r.diagnosis.queue->sentence,
                 "60 of 60 kernels started before their launch call returned"));

  // 60 launches, each followed by a device synchronize: the program drains the queue.
  r = Analyze(build(60, 5, 10, true).trace);
  REQUIRE(r.diagnosis.queue);
  CHECK(r.diagnosis.queue->verdict == gpuperf::report::QueueVerdict::kUndetermined);
  CHECK(Contains(r.diagnosis.queue->sentence,
                 "the host waits for the GPU 60 times for 60 launch calls"));
  CHECK_FALSE(Contains(r.diagnosis.queue->sentence, "too few"));
  // One synchronization per three launches leaves the queue to decide.
  TraceBuilder some_syncs = build(60, 5, 10, false);
  for (int i = 0; i < 20; ++i)
    some_syncs.Api("cudaStreamSynchronize", i * 3 * kMs + 30 * kUs, i * 3 * kMs + 40 * kUs);
  r = Analyze(some_syncs.trace);
  REQUIRE(r.diagnosis.queue);
  CHECK(r.diagnosis.queue->verdict == gpuperf::report::QueueVerdict::kHostBound);
}

TEST_CASE("graph launches: one call counts once, its nodes are not shorter than it",
          "[diagnosis][graphs]") {
  TraceBuilder b;
  // One 500 us graph launch runs 10 kernels of 2 us.
  b.Api("cudaGraphLaunch", 0, 500 * kUs, 1);
  for (int i = 0; i < 10; ++i)
    b.Kernel("node", 600 * kUs + i * 3 * kUs, 602 * kUs + i * 3 * kUs, 1);
  report::AnalysisReport r = Analyze(b.trace);
  CHECK(r.launch.launches == 1);
  CHECK(r.launch.call_time_ns == 500 * kUs);
  CHECK(r.launch.graph_launches == 1);
  CHECK(r.launch.graph_kernels == 10);
  CHECK(r.launch.kernels_shorter_than_launch == 0);
  CHECK(r.launch.api_to_kernel_ratio == Approx(500.0 / 20.0));
  CHECK(r.kernels.at(0).short_instances == 0);
  CHECK(r.kernels.at(0).graph_instances == 10);
  // A 2 us node under one wave is latency-bound, not launch-bound: it has no launch call.
  CHECK(r.kernels.at(0).classification.bound == gpuperf::report::KernelBound::kLatency);
  CHECK(r.kernels.at(0).classification.basis == "launch");
  CHECK(Contains(r.kernels.at(0).classification.reason, "10 of its 10 instances ran as graph"));
  CHECK(Find(r, "launch_overhead") == nullptr);
  CHECK_FALSE(Contains(r.diagnosis.next_experiment, "CUDA graph"));
  // The queue depth is per call: its first node starts 100 us after the call returns.
  REQUIRE(r.diagnosis.queue);
  CHECK(r.diagnosis.queue->launches == 1);
  CHECK(r.diagnosis.queue->median_ns == 100 * kUs);
}

TEST_CASE("implicit synchronization: a pageable async copy is sized by host time and idle",
          "[diagnosis][waits]") {
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  b.Kernel("A", 10 * kUs, 10 * kMs, 1);
  // A 704-byte device-to-pageable copy: the call blocks from 1 ms until the copy ends.
  b.Api("cudaMemcpyAsync", 1 * kMs, 10 * kMs + 20 * kUs, 2);
  b.Memcpy(model::CopyKind::kDtoH,
           10 * kMs + 10 * kUs,
           10 * kMs + 12 * kUs,
           704,
           2,
           model::MemoryKind::kDevice,
           model::MemoryKind::kPageable);
  b.Api("cudaLaunchKernel", 10 * kMs + 30 * kUs, 10 * kMs + 35 * kUs, 3);
  b.Kernel("B", 10 * kMs + 40 * kUs, 20 * kMs, 3);
  report::AnalysisReport r = Analyze(b.trace);
  const report::Finding* f = Find(r, "pageable_async_memcpy");
  REQUIRE(f != nullptr);
  CHECK(f->time_ns == 2 * kUs);  // the GPU copy time, as nsys counts it
  CHECK(*f->host_blocked_ns == 9 * kMs + 20 * kUs);
  // Idle: [10.000, 10.010) and [10.012, 10.040) ms, both round trips of the copy call.
  CHECK(*f->gpu_idle_caused_ns == 38 * kUs);
  CHECK(*f->bound_speedup_if_removed == Approx(1.0 / (1.0 - 38.0 * kUs / (20.0 * kMs))));
  CHECK(Contains(f->summary, "implicit synchronization"));
  // A copy to pageable memory waits for the work ahead of it on its stream, not for staging.
  CHECK(Contains(f->summary,
                 "copy to pageable host memory, so each call returns only once its "
                 "copy is done, and the copy runs only after the work queued before "
                 "it on its stream"));
  CHECK_FALSE(Contains(f->summary, "stage them"));
}

TEST_CASE("waits: a device-to-host copy the host then reads is credited only the idle it overlaps",
          "[diagnosis][waits]") {
  // A kernel, then a synchronous copy whose GPU part runs until 1.99 ms inside a call that
  // returns at 2.00 ms, then 8 ms of host work before the next launch: the gap [1.99, 10.01) ms
  // holds long host work, so it is not a round trip.
  auto trace = [](model::CopyKind kind) {
    TraceBuilder b;
    b.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
    b.Kernel("A", 10 * kUs, 1 * kMs, 1);
    b.Api("cudaMemcpy", 6 * kUs, 2 * kMs, 2);
    b.Memcpy(kind, 1 * kMs, 2 * kMs - 10 * kUs, 1 << 20, 2);
    b.Api("cudaLaunchKernel", 10 * kMs, 10 * kMs + 5 * kUs, 3);
    b.Kernel("B", 10 * kMs + 10 * kUs, 11 * kMs, 3);
    return b;
  };
  // Device to host: the host needs the data, so without the wait its work could not have
  // started earlier; only the 10 us of the gap inside the call count (and the 4 us of idle
  // before kernel A that the call overlaps from its start, a round trip either way).
  report::AnalysisReport dtoh = Analyze(trace(model::CopyKind::kDtoH).trace);
  const report::Finding* f = Find(dtoh, "sync_memcpy");
  REQUIRE(f != nullptr);
  CHECK(*f->host_blocked_ns == 2 * kMs - 6 * kUs);
  CHECK(*f->gpu_idle_caused_ns == 10 * kUs + 4 * kUs);
  // Host to device from pinned memory made asynchronous, the host goes on at once: the wait's
  // whole length could come back in the gap after it, and no more: the host moves by that much.
  report::AnalysisReport htod = Analyze(trace(model::CopyKind::kHtoD).trace);
  const report::Finding* g = Find(htod, "sync_memcpy");
  REQUIRE(g != nullptr);
  CHECK(*g->gpu_idle_caused_ns == 2 * kMs - 6 * kUs);
}

TEST_CASE("initialization: first-call outliers, names and capture windows are one-time work",
          "[diagnosis][initialization]") {
  TraceBuilder b;
  // The process's first CUDA call creates the context: 300 ms.
  b.Api("cudaMalloc", 0, 300 * kMs);
  // A JIT range and a graph capture window.
  b.AddRange(model::RangeKind::kNvtx, "KernelExecutor::compileFusion", 300 * kMs, 320 * kMs);
  b.Api("cudaStreamBeginCapture", 320 * kMs, 320 * kMs + 5 * kUs);
  b.Api("cudaLaunchKernel", 321 * kMs, 321 * kMs + 5 * kUs);
  b.Api("cudaStreamEndCapture", 322 * kMs, 323 * kMs);
  // Steady state: 20 launches of 5 us, the first launch of kernel "k" loads its module: 10 ms.
  std::int64_t t = 330 * kMs;
  for (int i = 0; i < 20; ++i) {
    std::int64_t call = i == 0 ? 10 * kMs : 5 * kUs;
    b.Api("cudaLaunchKernel", t, t + call, i + 1);
    b.Kernel("k", t + call + 5 * kUs, t + call + 1 * kMs, i + 1);
    t += call + 1 * kMs;
  }
  analysis::CorrelationIndex index(b.trace);
  analysis::InitializationResult init =
      analysis::DetectInitialization(b.trace, index, analysis::ComputeTraceWindow(b.trace));
  std::map<std::string, std::int64_t> by_kind;
  for (const report::InitializationItem& item : init.report.items)
    by_kind[std::string(report::ToString(item.kind))] += item.time_ns;
  CHECK(by_kind["context_creation"] == 300 * kMs);
  CHECK(by_kind["jit_compile"] == 20 * kMs);
  CHECK(by_kind["graph_capture"] == 3 * kMs);
  CHECK(by_kind["lazy_loading"] == 10 * kMs);
  CHECK(init.report.time_ns == 333 * kMs);

  // Most of the window is one-time work: that is the diagnosis.
  report::AnalysisReport r = Analyze(b.trace);
  CHECK(r.initialization.time_ns == 333 * kMs);
  CHECK(r.diagnosis.bottleneck == gpuperf::report::Bottleneck::kInitialization);
  CHECK(r.diagnosis.status == report::DiagnosisStatus::kFinding);
  CHECK(Contains(r.diagnosis.next_experiment, "Profile after warm-up"));
  CHECK_FALSE(Contains(r.diagnosis.next_experiment, "CUDA graph"));

  // The same set-up before work that runs once (a test, a single call): there is no later
  // iteration to profile, so the experiment is to build one.
  TraceBuilder once;
  once.Api("cudaMalloc", 0, 300 * kMs);
  once.AddRange(model::RangeKind::kNvtx, "KernelExecutor::compileFusion", 300 * kMs, 320 * kMs);
  once.Api("cudaLaunchKernel", 330 * kMs, 340 * kMs, 1);
  once.Kernel("k", 340 * kMs + 5 * kUs, 341 * kMs, 1);
  once.Api("cudaLaunchKernel", 341 * kMs, 341 * kMs + 5 * kUs, 2);
  once.Kernel("other", 341 * kMs + 10 * kUs, 341 * kMs + 100 * kUs, 2);
  report::AnalysisReport single = Analyze(once.trace);
  REQUIRE(single.diagnosis.bottleneck == gpuperf::report::Bottleneck::kInitialization);
  INFO(single.diagnosis.next_experiment);
  CHECK(Contains(single.diagnosis.next_experiment, "Build a steady state to profile"));
  CHECK(Contains(single.diagnosis.next_experiment, "Run the work several times in one process"));
}

TEST_CASE("initialization: a communication library's set-up and shut-down are one-time work",
          "[diagnosis][initialization]") {
  TraceBuilder b;
  b.AddRange(model::RangeKind::kNvtx, "MPI_Init", 0, 200 * kMs);
  std::int64_t t = 200 * kMs;
  for (int i = 0; i < 10; ++i) {
    b.Api("cudaLaunchKernel", t, t + 5 * kUs, i + 1);
    b.Kernel("k", t + 10 * kUs, t + 1 * kMs, i + 1);
    b.AddRange(model::RangeKind::kNvtx, "MPI_Send", t + 1 * kMs, t + 2 * kMs);  // steady state
    t += 2 * kMs;
  }
  b.AddRange(model::RangeKind::kNvtx, "ncclCommDestroy", t, t + 5 * kMs);
  analysis::CorrelationIndex index(b.trace);
  analysis::InitializationResult init =
      analysis::DetectInitialization(b.trace, index, analysis::ComputeTraceWindow(b.trace));
  std::map<std::string, std::int64_t> by_name;
  std::map<std::string, std::string> kind;
  for (const report::InitializationItem& item : init.report.items) {
    by_name[item.name] += item.time_ns;
    kind[item.name] = std::string(report::ToString(item.kind));
  }
  CHECK(by_name["MPI_Init"] == 200 * kMs);
  CHECK(kind["MPI_Init"] == "setup");
  CHECK(by_name["ncclCommDestroy"] == 5 * kMs);
  CHECK(kind["ncclCommDestroy"] == "teardown");
  CHECK(by_name.count("MPI_Send") == 0);
}

TEST_CASE("initialization: an item inside a wider named one says that its time is included",
          "[diagnosis][initialization]") {
  TraceBuilder b;
  b.AddRange(model::RangeKind::kNvtx, "MPI_Init", 0, 200 * kMs);
  b.Api("cudaHostRegister", 100 * kMs, 190 * kMs);  // the process's first CUDA call
  b.Api("cudaLaunchKernel", 200 * kMs, 200 * kMs + 5 * kUs, 1);
  b.Kernel("k", 200 * kMs + 10 * kUs, 210 * kMs, 1);
  analysis::CorrelationIndex index(b.trace);
  analysis::InitializationResult init =
      analysis::DetectInitialization(b.trace, index, analysis::ComputeTraceWindow(b.trace));
  bool said = false;
  for (const report::InitializationItem& item : init.report.items) {
    if (item.name == "cudaHostRegister")
      said = Contains(item.evidence, "inside MPI_Init (setup), whose time includes it");
  }
  CHECK(said);
  CHECK(init.report.time_ns == 200 * kMs);  // the union, not 200 + 90 ms
}

TEST_CASE("phases: one-time work is never the dominant phase of the steady state",
          "[diagnosis][initialization]") {
  TraceBuilder b;
  b.AddRange(model::RangeKind::kNvtx, "MPI_Init", 0, 40 * kMs);
  std::int64_t t = 40 * kMs;
  for (int i = 0; i < 30; ++i) {
    b.Api("cudaLaunchKernel", t, t + 5 * kUs, i + 1);
    b.Kernel("k", t + 10 * kUs, t + 2 * kMs, i + 1);
    t += 2 * kMs;
  }
  report::AnalysisReport r = Analyze(b.trace);
  bool init = false;
  for (const report::InitializationItem& item : r.initialization.items)
    init = init || item.name == "MPI_Init";
  REQUIRE(init);
  // Long enough to be named, were it steady-state work (40 of 100 ms): the phases are measured
  // in the steady-state window, which it lies outside of.
  CHECK(std::none_of(r.predictions.phases.begin(),
                     r.predictions.phases.end(),
                     [](const report::CriticalShare& p) { return p.name == "MPI_Init"; }));
  for (const std::string& line : r.diagnosis.support)
    CHECK_FALSE(Contains(line, "Dominant phase: MPI_Init"));
}

TEST_CASE("initialization: the steady-state diagnosis and bounds leave one-time work out",
          "[diagnosis][initialization]") {
  TraceBuilder b;
  b.Api("cudaFree", 0, 40 * kMs);  // context creation, 40 ms
  // 60 ms of steady state: one kernel busy 59 ms, host-blocking sync at the end.
  b.Api("cudaLaunchKernel", 40 * kMs, 40 * kMs + 5 * kUs, 1);
  b.Kernel("big", 41 * kMs, 100 * kMs, 1);
  report::AnalysisReport r = Analyze(b.trace);
  CHECK(r.initialization.time_ns == 40 * kMs);
  CHECK(r.initialization.fraction == Approx(0.4));
  CHECK(r.diagnosis.bottleneck != gpuperf::report::Bottleneck::kInitialization);
  CHECK(r.diagnosis.dominant_kind == gpuperf::report::DominantKind::kKernel);
  // f over the 60 ms steady window: 59 / 60, not 59 / 100.
  CHECK(r.diagnosis.dominant_fraction == Approx(59.0 / 60.0));
  REQUIRE(r.diagnosis.triage.size() >= 2);
  CHECK(r.diagnosis.triage[0].question == report::TriageQuestion::kInitialization);
  CHECK(r.diagnosis.triage[0].answer == report::TriageAnswer::kNo);
}

TEST_CASE("initialization: lazily loaded first launches, even when nearly every launch is one",
          "[diagnosis][initialization]") {
  TraceBuilder b;
  b.Api("cudaFree", 0, 2 * kMs);  // context creation
  std::int64_t t = 2 * kMs;
  for (int i = 0; i < 3; ++i, t += kMs)
    b.Api("cuLibraryLoadData", t, t + 500 * kUs);
  // Ten kernels, each launched once through a 3 ms call (the driver loads its module there):
  // the median cudaLaunchKernel call is itself such a first launch.
  std::int64_t correlation = 1;
  for (int i = 0; i < 10; ++i, ++correlation, t += 3 * kMs + 20 * kUs) {
    b.Api("cudaLaunchKernel_v7000", t, t + 3 * kMs, correlation);
    b.Kernel("k" + std::to_string(i), t + 3 * kMs - 2 * kUs, t + 3 * kMs + 8 * kUs, correlation);
  }
  // Two repeats of k0: 5 us calls, 2 us kernels (shorter than their launch).
  for (int i = 0; i < 2; ++i, ++correlation, t += 100 * kUs) {
    b.Api("cudaLaunchKernel_v7000", t, t + 5 * kUs, correlation);
    b.Kernel("k0", t + 10 * kUs, t + 12 * kUs, correlation);
  }
  analysis::CorrelationIndex index(b.trace);
  analysis::InitializationResult init =
      analysis::DetectInitialization(b.trace, index, analysis::ComputeTraceWindow(b.trace));
  const report::InitializationItem* lazy = nullptr;
  for (const report::InitializationItem& item : init.report.items) {
    if (item.kind == report::InitializationKind::kLazyLoading && item.name == "cudaLaunchKernel")
      lazy = &item;
  }
  REQUIRE(lazy != nullptr);
  CHECK(lazy->count == 10);
  CHECK(lazy->time_ns == 30 * kMs);
  CHECK(Contains(lazy->evidence, "too few for a median; 3 module loads in the trace"));
  // The module loads themselves are one-time work, however short (each 500 us here).
  std::int64_t loads = 0, loads_ns = 0;
  for (const report::InitializationItem& item : init.report.items) {
    if (item.kind == report::InitializationKind::kLazyLoading && item.name == "cuLibraryLoadData") {
      loads += item.count;
      loads_ns += item.time_ns;
    }
  }
  CHECK(loads == 3);
  CHECK(loads_ns == 1500 * kUs);

  // The launch-overhead finding counts the steady launches only, and its bound with them.
  report::AnalysisReport r = Analyze(b.trace);
  const report::Finding* launch = Find(r, "launch_overhead");
  REQUIRE(launch != nullptr);
  CHECK(launch->count == 2);
  CHECK(launch->time_ns == 10 * kUs);
  CHECK(Contains(launch->summary, "10 launch calls inside one-time work (30.0 ms"));
  CHECK(r.diagnosis.bottleneck == gpuperf::report::Bottleneck::kInitialization);
  CHECK_FALSE(Contains(r.diagnosis.next_experiment, "CUDA graph"));
}

TEST_CASE("initialization: first launches in a steady trace are judged against repeats",
          "[diagnosis][initialization]") {
  // Five kernels launched 20 times each through 5 us calls; each kernel's first launch takes
  // `first_us`.
  auto build = [](std::int64_t first_us) {
    TraceBuilder b;
    std::int64_t t = 0;
    std::int64_t correlation = 1;
    for (int round = 0; round < 20; ++round) {
      for (int k = 0; k < 5; ++k, ++correlation) {
        std::int64_t call = round == 0 ? first_us * kUs : 5 * kUs;
        b.Api("cudaLaunchKernel", t, t + call, correlation);
        b.Kernel("k" + std::to_string(k), t + call + 5 * kUs, t + call + 50 * kUs, correlation);
        t += call + 60 * kUs;
      }
    }
    return b;
  };
  auto lazy_count = [](const TraceBuilder& b) {
    analysis::CorrelationIndex index(b.trace);
    analysis::InitializationResult init =
        analysis::DetectInitialization(b.trace, index, analysis::ComputeTraceWindow(b.trace));
    std::int64_t n = 0;
    for (const report::InitializationItem& item : init.report.items)
      n += item.kind == report::InitializationKind::kLazyLoading ? item.count : 0;
    return n;
  };
  // The process's first call is context creation; the other four first launches count.
  CHECK(lazy_count(build(2000)) == 4);
  CHECK(lazy_count(build(500)) == 0);  // under 1 ms: no module load
  TraceBuilder slow_repeats = build(2000);
  for (model::ApiCall& c : slow_repeats.trace.api_calls) {
    if (c.duration_ns() == 5 * kUs)
      c.end_ns = c.start_ns + 400 * kUs;  // 2 ms is 5x the repeats' 400 us: under 10x
  }
  CHECK(lazy_count(slow_repeats) == 0);
}

TEST_CASE("coverage gap: a long wait with nothing running or queued is not a sync cost",
          "[diagnosis][waits]") {
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  b.Kernel("A", 10 * kUs, 1 * kMs, 1);
  // 45 ms in a stream synchronize while the GPU runs nothing recorded.
  b.Api("cudaStreamSynchronize", 2 * kMs, 47 * kMs);
  b.Api("cudaLaunchKernel", 47 * kMs + 5 * kUs, 47 * kMs + 10 * kUs, 2);
  b.Kernel("B", 47 * kMs + 15 * kUs, 48 * kMs, 2);
  report::AnalysisReport r = Analyze(b.trace);
  const report::Finding* sync = Find(r, "sync_api");
  REQUIRE(sync != nullptr);
  CHECK(*sync->gpu_idle_caused_ns == 0);
  CHECK(!sync->bound_speedup_if_removed);
  CHECK(r.diagnosis.bottleneck != gpuperf::report::Bottleneck::kSyncBound);
  bool said = false;
  for (const std::string& line : r.diagnosis.support)
    said = said || Contains(line, "gap in the trace's coverage");
  CHECK(said);
}

TEST_CASE("floors: never below the minimum kernel latency, ranking by critical time",
          "[predictions]") {
  TraceBuilder b;
  // "tiny": 10 instances of 3 us with a modeled floor of 10 ns in all; "big": one 1 ms kernel
  // without a floor and the most critical time.
  for (int i = 0; i < 10; ++i)
    b.Kernel("tiny", i * 10 * kUs, i * 10 * kUs + 3 * kUs);
  b.Kernel("big", 200 * kUs, 1200 * kUs);
  analysis::CorrelationIndex index(b.trace);
  auto kernels = analysis::KernelTable(b.trace, index, 1200 * kUs);
  report::Predictions p = analysis::ComputePredictions(
      b.trace, index, kernels, {{"tiny", {10, gpuperf::report::EvidenceTier::kModeled}}}, 20);
  REQUIRE(p.kernels.size() == 2);
  CHECK(p.ranking == "critical_ns");
  CHECK(p.kernels[0].name == "big");
  const report::CriticalShare& tiny = p.kernels[1];
  CHECK(*tiny.floor_ns == 10);  // the model's floor, kept as it is
  // 30 us over 10 instances x 2 us, not 30 us / 10 ns = 3000x.
  CHECK(*tiny.max_local_speedup == Approx(30.0 / (10.0 * analysis::kMinKernelLatencyNs / 1000.0)));
  CHECK(*tiny.recoverable_ns == analysis::TimeSavedNs(tiny.critical_ns, 1.5));
}

TEST_CASE("vendor: AMD traces are told the ROCm tools", "[diagnosis][vendor]") {
  TraceBuilder b;
  model::Device d;
  d.id = 0;
  d.name = "AMD Instinct MI300X";
  b.trace.devices.push_back(d);
  b.Api("hipLaunchKernel", 0, 100, 1);
  b.Kernel("big", 100, 900'100, 1);
  report::AnalysisReport r = Analyze(b.trace);
  CHECK(r.diagnosis.bottleneck == gpuperf::report::Bottleneck::kUnknown);
  CHECK(Contains(r.diagnosis.next_experiment, "rocprof-compute"));
  CHECK_FALSE(Contains(r.diagnosis.next_experiment, "Nsight"));
}

TEST_CASE("devices: a visible-devices remap is resolved only when unambiguous",
          "[diagnosis][vendor]") {
  TraceBuilder b;
  model::Device d;
  d.id = 0;
  d.name = "AMD Instinct MI300X";
  b.trace.devices.push_back(d);
  b.Kernel("k", 0, 100, model::kNoId, 7, 2);
  b.Kernel("k", 200, 300, model::kNoId, 7, 2);
  model::Trace two = b.trace;
  CHECK(analysis::ResolveDeviceRemap(b.trace));
  REQUIRE(b.trace.FindDevice(2) != nullptr);
  CHECK(b.trace.FindDevice(2)->name == "AMD Instinct MI300X");
  CHECK(b.trace.diagnostics.Get(gpuperf::model::Diagnostic::kAnalysisDeviceRemapped) == 1);
  // Work on two ids: which one the description meant is unknown.
  two.activities[1].device = 3;
  CHECK_FALSE(analysis::ResolveDeviceRemap(two));
  CHECK(two.FindDevice(2) == nullptr);
}

TEST_CASE("scope: counts the devices the window uses, not every device described",
          "[diagnosis][vendor]") {
  TraceBuilder b;
  for (int i = 0; i < 8; ++i) {
    model::Device d;
    d.id = i;
    d.name = "NVIDIA A100";
    b.trace.devices.push_back(d);
  }
  b.Api("cudaLaunchKernel", 0, 100, 1);
  b.Kernel("k", 100, 1000, 1, 7, 3);
  report::AnalysisReport r = Analyze(b.trace);
  CHECK(Contains(r.diagnosis.scope, "1 device used (of 8 the trace describes): 3: NVIDIA A100"));
}

TEST_CASE("unsupported devices: an MTIA trace is named, not called empty", "[diagnosis]") {
  TraceBuilder b;
  b.Api("mtiaLaunchKernel", 0, 100);
  report::AnalysisReport r = Analyze(b.trace);
  CHECK(r.diagnosis.dominant_kind == gpuperf::report::DominantKind::kNone);
  CHECK(Contains(r.diagnosis.missing_evidence, "MTIA"));
}

TEST_CASE("graph capture: a window that captures graphs is never told to use graphs",
          "[diagnosis][graphs]") {
  auto launch_bound = [](bool capture) {
    TraceBuilder b;
    // Launch calls of 900 us cover the idle time between 10 us kernels: launch-bound.
    for (int i = 0; i < 10; ++i) {
      std::int64_t t = i * kMs;
      b.Api("cudaLaunchKernel", t, t + 900 * kUs, i + 1);
      b.Kernel("k", t + 905 * kUs, t + 915 * kUs, i + 1);
    }
    if (capture) {
      b.Api("cudaStreamBeginCapture", 10 * kMs, 10 * kMs + 1 * kUs);
      b.Api("cudaStreamEndCapture", 10 * kMs + 2 * kUs, 10 * kMs + 3 * kUs);
    }
    return Analyze(b.trace);
  };
  report::AnalysisReport plain = launch_bound(false);
  CHECK(plain.diagnosis.bottleneck == gpuperf::report::Bottleneck::kLaunchBound);
  CHECK(Contains(plain.diagnosis.next_experiment, "CUDA graph"));
  report::AnalysisReport captured = launch_bound(true);
  CHECK(captured.diagnosis.bottleneck == gpuperf::report::Bottleneck::kLaunchBound);
  REQUIRE(captured.initialization.items.size() == 1);
  CHECK(captured.initialization.items[0].kind == report::InitializationKind::kGraphCapture);
  CHECK_FALSE(Contains(captured.diagnosis.next_experiment, "CUDA graph"));
}

TEST_CASE("waits: idle while the next work is already queued is no wait's doing",
          "[diagnosis][waits][queued]") {
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  b.Kernel("A", 10 * kUs, 1 * kMs, 1);
  // B is launched at once but runs only at 5 ms: it waits on another stream's event.
  b.Api("cudaLaunchKernel", 20 * kUs, 25 * kUs, 2);
  b.Api("cudaStreamWaitEvent", 26 * kUs, 27 * kUs);
  b.Kernel("B", 5 * kMs, 6 * kMs, 2);
  b.Api("cudaStreamSynchronize", 30 * kUs, 6 * kMs + 5 * kUs);
  report::AnalysisReport r = Analyze(b.trace);
  const report::Finding* sync = Find(r, "sync_api");
  REQUIRE(sync != nullptr);
  REQUIRE(sync->gpu_idle_caused_ns);
  // The gap [1, 5) ms had B queued throughout; the wait ends the recording 5 us after B, with no
  // host work after it to delay (run forward).
  CHECK(*sync->gpu_idle_caused_ns == 0);
  // That queued idle lies inside the wait: said beside the caused idle, never credited to it.
  REQUIRE(sync->gpu_idle_queued_ns);
  CHECK(*sync->gpu_idle_queued_ns == 4 * kMs);
  CHECK(Contains(sync->summary,
                 "(4.00 ms more idle lies inside them with the next GPU work already queued"));
  CHECK(r.diagnosis.bottleneck == gpuperf::report::Bottleneck::kDependencyBound);
  // The trace does not record what the queued work waited for: a hypothesis, not a finding.
  CHECK(r.diagnosis.status == report::DiagnosisStatus::kHypothesis);
  CHECK(Contains(r.diagnosis.next_experiment, "Find what the queued work waits for"));
  CHECK(Contains(r.diagnosis.next_experiment, "1 cross-stream waits"));
  bool named = false;
  for (const std::string& s : r.diagnosis.support)
    named = named || Contains(s, "the next GPU work had already been launched");
  CHECK(named);
  for (const std::string& s : r.diagnosis.support)
    CHECK_FALSE(Contains(s, "no change on this rank alone"));  // no collectives here
  // The same with a collective in the window: the bound says it may need the other ranks.
  b.Kernel("ncclKernel_AllReduce_RING_LL_Sum_float", 6 * kMs, 6 * kMs + 100 * kUs);
  bool ranks = false;
  for (const std::string& s : Analyze(b.trace).diagnosis.support)
    ranks = ranks || Contains(s, "no change on this rank alone removes");
  CHECK(ranks);
  // Without the correlation join (no launch calls for B) the same gap is the host's.
  TraceBuilder orphan;
  orphan.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  orphan.Kernel("A", 10 * kUs, 1 * kMs, 1);
  orphan.Kernel("B", 5 * kMs, 6 * kMs);
  CHECK(Analyze(orphan.trace).diagnosis.bottleneck !=
        gpuperf::report::Bottleneck::kDependencyBound);
}

TEST_CASE("waits: a wait before host work that ends the program gives back its length",
          "[diagnosis][waits]") {
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  b.Kernel("A", 10 * kUs, 1 * kMs, 1);
  b.Api("cudaDeviceSynchronize", 100 * kUs, 1 * kMs + 5 * kUs);
  b.Op("postprocess", 1 * kMs + 10 * kUs, 5 * kMs);  // host work after the GPU is done
  report::AnalysisReport r = Analyze(b.trace);
  const report::Finding* sync = Find(r, "sync_api");
  REQUIRE(sync != nullptr);
  REQUIRE(sync->gpu_idle_caused_ns);
  // None of the idle lies next to it (the GPU is done at 1 ms), but the host's work after it
  // ends the program: without the wait it ends 905 us sooner (run forward).
  CHECK(*sync->gpu_idle_caused_ns == 905 * kUs);
  REQUIRE(sync->gpu_idle_later_ns);
  CHECK(*sync->gpu_idle_later_ns == 905 * kUs);
}

TEST_CASE("host-bound: Python frames of launching threads only, work outside operators is moved",
          "[diagnosis][host]") {
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  b.Kernel("A", 10 * kUs, 100 * kUs, 1);
  b.Frame("preprocess.py(10): normalize", 200 * kUs, 9900 * kUs);
  b.Frame("threading.py(359): wait", 0, 10100 * kUs, 999);  // a monitor thread, asleep
  b.Api("cudaLaunchKernel", 10 * kMs, 10 * kMs + 5 * kUs, 2);
  b.Kernel("B", 10 * kMs + 10 * kUs, 10 * kMs + 100 * kUs, 2);
  report::AnalysisReport r = Analyze(b.trace);
  CHECK(r.diagnosis.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  CHECK(r.diagnosis.status == report::DiagnosisStatus::kFinding);
  CHECK(Contains(r.diagnosis.next_experiment, "preprocess.py(10): normalize"));
  // Overlapping 9.7 ms of host work in a 10.1 ms window leaves max(9.7, 0.4) ms: 1.04x at most,
  // too little to lead with: the experiment is to make it faster, and says why.
  CHECK(Contains(r.diagnosis.next_experiment,
                 "Overlapped with the GPU work without getting faster, it gives at most 1.04x"));
  REQUIRE(r.diagnosis.bound_speedup_overlapped);
  CHECK(*r.diagnosis.bound_speedup_overlapped == Approx(10.1 / 9.7).epsilon(1e-3));
  CHECK(Contains(r.diagnosis.next_experiment,
                 "Make the host work that fills the gaps faster: preprocess.py(10): normalize"));
  CHECK(Contains(r.diagnosis.next_experiment,
                 "Moved beside the GPU in this window it would overlap almost nothing: the rest of "
                 "the window, "
                 "which it could overlap, is"));
  // The host work in the gaps (9.9 ms) is more than the named frame (9.7 ms): its own bound is
  // said in brackets.
  CHECK(Contains(r.headline,
                 "if that host work takes no time (25.25x if only the work it names does), 1.04x "
                 "if it only moves beside the GPU (Amdahl)"));
  CHECK_FALSE(Contains(r.diagnosis.next_experiment, "graph ("));
  for (const std::string& s : r.diagnosis.support)
    CHECK_FALSE(Contains(s, "threading.py"));
  // The same gap filled by a framework operator: the dispatch path, which graphs shorten.
  TraceBuilder ops;
  ops.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  ops.Kernel("A", 10 * kUs, 100 * kUs, 1);
  ops.Op("aten::index", 200 * kUs, 9900 * kUs);
  ops.Api("cudaLaunchKernel", 10 * kMs, 10 * kMs + 5 * kUs, 2);
  ops.Kernel("B", 10 * kMs + 10 * kUs, 10 * kMs + 100 * kUs, 2);
  report::AnalysisReport with_ops = Analyze(ops.trace);
  CHECK(with_ops.diagnosis.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  CHECK_FALSE(Contains(with_ops.diagnosis.next_experiment, "Move the host work"));
  // A Python frame around an operator (a module's forward, F.linear) is the dispatch path too.
  TraceBuilder forward;
  forward.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  forward.Kernel("A", 10 * kUs, 100 * kUs, 1);
  forward.Frame("<built-in function linear>", 200 * kUs, 9900 * kUs);
  forward.Op("aten::linear", 9800 * kUs, 9890 * kUs);
  forward.Api("cudaLaunchKernel", 10 * kMs, 10 * kMs + 5 * kUs, 2);
  forward.Kernel("B", 10 * kMs + 10 * kUs, 10 * kMs + 100 * kUs, 2);
  CHECK_FALSE(Contains(Analyze(forward.trace).diagnosis.next_experiment, "Move the host work"));
}

TEST_CASE("initialization: one-time host work beside GPU work leaves the steady window whole",
          "[diagnosis][initialization]") {
  TraceBuilder b;
  b.Api("cudaFree", 0, 40 * kMs);  // context creation, 40 ms: the GPU idles through it
  b.Api("cudaLaunchKernel", 40 * kMs, 40 * kMs + 5 * kUs, 1);
  b.Kernel("big", 41 * kMs, 100 * kMs, 1);
  // 30 ms of JIT compilation on another thread while "big" runs: removing it would not shorten
  // the wall.
  b.Op("nvrtcCompileProgram", 50 * kMs, 80 * kMs, 202);
  report::AnalysisReport r = Analyze(b.trace);
  CHECK(r.initialization.time_ns == 70 * kMs);
  // f over the 60 ms steady window (100 ms less the 40 ms with the GPU idle), not over 30 ms.
  CHECK(r.diagnosis.dominant_fraction == Approx(59.0 / 60.0));
  // The report says which window that is: 100 - 70 = 30 ms is not it.
  CHECK(r.initialization.steady_window_ns == 60 * kMs);
  CHECK(Contains(r.headline, "a 60.0 ms window"));
}

TEST_CASE("initialization: a first host op of another shape is not a slow first instance",
          "[diagnosis][initialization]") {
  auto build = [](const std::string& first_dims) {
    TraceBuilder b;
    // A 5 ms aten::copy_ first (the input cast), then ten 20 us copies in the GPU loop.
    b.Op("aten::copy_", 0, 5 * kMs).input_dims = b.trace.strings.Intern(first_dims);
    for (int i = 0; i < 10; ++i) {
      std::int64_t t = 6 * kMs + i * 100 * kUs;
      b.Op("aten::copy_", t, t + 20 * kUs).input_dims = b.trace.strings.Intern("[[64,64],[64,64]]");
      b.Api("cudaLaunchKernel", t + 5 * kUs, t + 10 * kUs, i + 1);
      b.Kernel("copy_kernel", t + 15 * kUs, t + 40 * kUs, i + 1);
    }
    return Analyze(b.trace);
  };
  auto has_copy = [](const report::AnalysisReport& r) {
    for (const report::InitializationItem& item : r.initialization.items) {
      if (item.kind == report::InitializationKind::kFirstCall && item.name == "aten::copy_")
        return true;
    }
    return false;
  };
  CHECK(has_copy(build("[[64,64],[64,64]]")));  // the loop's shape: a slow first call
  CHECK_FALSE(has_copy(build("[[1,128,3,224,224],[1,128,3,224,224]]")));  // another op's work
}

TEST_CASE("dominant phase: only from 30% of the window, never a range around all of it",
          "[diagnosis][phase]") {
  // One kernel keeps the GPU busy for 99 ms of a 100 ms window; a root range covers it all.
  auto build = [](std::int64_t phase_ms) {
    TraceBuilder b;
    b.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
    b.Kernel("k", 10 * kUs, 99 * kMs, 1);
    b.AddRange(model::RangeKind::kNvtx, "run", 0, 100 * kMs);
    b.AddRange(model::RangeKind::kNvtx, "forward", 10 * kMs, (10 + phase_ms) * kMs);
    return b;
  };
  auto phase_line = [](const report::AnalysisReport& r) {
    for (const std::string& line : r.diagnosis.support) {
      if (Contains(line, "Dominant phase"))
        return line;
    }
    return std::string();
  };
  report::AnalysisReport r = Analyze(build(60).trace);
  CHECK(Contains(phase_line(r),
                 "Dominant phase: forward (nvtx range), 60.0% of the steady-state window"));
  r = Analyze(build(5).trace);  // 5%: the root range is the largest, and says nothing
  CHECK(phase_line(r).empty());

  // Blocked mostly in a synchronization: the GPU is behind. Blocked in its own copy: the copy.
  TraceBuilder waits = build(60);
  waits.Api("cudaDeviceSynchronize", 20 * kMs, 60 * kMs);
  CHECK(Contains(phase_line(Analyze(waits.trace)),
                 "40.0 ms of it the host was blocked in calls waiting for the GPU "
                 "(synchronizations, copies), so the phase is long because the GPU is behind"));
  TraceBuilder copies = build(60);
  copies.Api("cudaMemcpy", 20 * kMs, 60 * kMs, 2);
  copies.Memcpy(model::CopyKind::kHtoD, 21 * kMs, 60 * kMs, 1 << 30, 2);
  CHECK(Contains(phase_line(Analyze(copies.trace)),
                 "39.0 ms of that while its own copies ran (synchronous, or staged through "
                 "pageable memory), so its copies, more than its own host work, make it long"));
}

TEST_CASE("next experiment: PyTorch options only for PyTorch traces", "[diagnosis][vendor]") {
  // A GPU-bound window whose kernel has no counters and no shapes: the class is unknown and the
  // experiment asks for a byte/FLOP model.
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 1 * kUs, 5 * kUs, 1);
  b.Kernel("k", 10 * kUs, 99 * kMs, 1);
  b.trace.metadata.format = "nsys-sqlite";
  report::AnalysisReport r = Analyze(b.trace);
  REQUIRE(r.diagnosis.bottleneck == gpuperf::report::Bottleneck::kUnknown);
  CHECK_FALSE(Contains(r.diagnosis.next_experiment, "PyTorch"));
  CHECK(Contains(r.diagnosis.next_experiment, "gpuperf analyze --model FILE"));

  b.Op("aten::custom", 0, 6 * kUs);
  r = Analyze(b.trace);
  // Operators from a source that is not a framework profiler: its options are not named.
  CHECK_FALSE(Contains(r.diagnosis.next_experiment, "PyTorch"));
  b.trace.metadata.framework_profiler = true;
  r = Analyze(b.trace);
  REQUIRE(r.diagnosis.bottleneck == gpuperf::report::Bottleneck::kUnknown);
  CHECK(Contains(r.diagnosis.next_experiment, "record shapes (PyTorch record_shapes=True)"));
}

TEST_CASE("waits: orphan work from before the recording was queued before any wait",
          "[diagnosis][waits][queued]") {
  TraceBuilder b;
  // The previous step's tail: two orphan kernels with a bubble between them, drained by a sync.
  b.Kernel("tail_a", 0, 1 * kMs);
  b.Kernel("tail_b", 1 * kMs + 200 * kUs, 2 * kMs);
  b.Api("cudaDeviceSynchronize", 10 * kUs, 2 * kMs + 5 * kUs);
  b.Api("cudaLaunchKernel", 2 * kMs + 50 * kUs, 2 * kMs + 55 * kUs, 1);
  b.Kernel("step", 2 * kMs + 60 * kUs, 5 * kMs, 1);
  report::AnalysisReport r = Analyze(b.trace);
  const report::Finding* sync = Find(r, "sync_api");
  REQUIRE(sync != nullptr);
  REQUIRE(sync->gpu_idle_caused_ns);
  // The 200 us bubble had tail_b queued (launched before the recording): only the 60 us restart
  // after the sync is its doing.
  CHECK(*sync->gpu_idle_caused_ns == 60 * kUs);
}

TEST_CASE("ncu input: no timeline questions, and no program wall time claimed",
          "[diagnosis][ncu]") {
  TraceBuilder b;
  b.trace.metadata.format = "ncu-csv";
  b.trace.metadata.has_timeline = false;
  b.Kernel("gemm", 0, 10 * kMs);
  b.Kernel("init", 20 * kMs, 25 * kMs);
  report::AnalysisReport r = Analyze(b.trace);
  REQUIRE_FALSE(r.diagnosis.triage.empty());
  CHECK(r.diagnosis.triage.front().question == report::TriageQuestion::kDominantWork);
  for (const report::TriageStep& step : r.diagnosis.triage)
    CHECK(step.question != report::TriageQuestion::kGpuIdle);
  CHECK(Contains(r.diagnosis.target_metric, "kernel time of the profiled launches"));
  CHECK(Contains(r.diagnosis.baseline, "no timeline"));
  CHECK_FALSE(Contains(r.diagnosis.baseline, "GPU span"));
}

TEST_CASE("initialization: allocations that recur in a repeated phase are said beside it",
          "[diagnosis][initialization]") {
  // 100 ms of context creation, then two "iter" phases of 10 ms, each 8.5 ms in cudaMalloc before
  // its kernel, and an "other" phase of GPU work: one-time work dominates, and the allocations
  // recur in the window left after it.
  TraceBuilder b;
  b.Api("cudaFree", 0, 100 * kMs);
  auto phase = [&](const char* name, std::int64_t start, std::int64_t end) {
    model::Range& r = b.AddRange(model::RangeKind::kNvtx, name, start, end);
    r.pid = 100;
    r.tid = 101;
  };
  for (int i = 0; i < 2; ++i) {
    const std::int64_t t = 100 * kMs + i * 10 * kMs;
    phase("iter", t, t + 10 * kMs);
    b.Api("cudaMalloc", t + 500 * kUs, t + 9 * kMs);
    b.Api("cudaLaunchKernel", t + 9 * kMs, t + 9 * kMs + 10 * kUs, i + 1);
    b.Kernel("k", t + 9500 * kUs, t + 10 * kMs, i + 1);
  }
  phase("other", 120 * kMs, 125 * kMs);
  b.Api("cudaLaunchKernel", 120 * kMs, 120 * kMs + 10 * kUs, 3);
  b.Kernel("big", 120 * kMs + 20 * kUs, 124 * kMs, 3);
  report::AnalysisReport r = Analyze(b.trace);
  REQUIRE(r.diagnosis.bottleneck == report::Bottleneck::kInitialization);
  bool said = false;
  for (const std::string& line : r.diagnosis.support)
    said = said || Contains(line,
                            "In the window left after it, the phase iter is "
                            "allocation-bound");
  CHECK(said);
}

TEST_CASE("initialization: one call found by two passes is one item",
          "[diagnosis][initialization]") {
  TraceBuilder b;
  // The process's first CUDA call is a module load: context creation and a named one-time API.
  b.Api("cuModuleLoadData", 0, 3 * kMs);
  std::int64_t t = 4 * kMs;
  for (int i = 0; i < 20; ++i) {
    b.Api("cudaLaunchKernel", t, t + 5 * kUs, i + 1);
    b.Kernel("k", t + 10 * kUs, t + 200 * kUs, i + 1);
    t += 300 * kUs;
  }
  analysis::CorrelationIndex index(b.trace);
  analysis::InitializationResult init =
      analysis::DetectInitialization(b.trace, index, analysis::ComputeTraceWindow(b.trace));
  std::int64_t module_items = 0;
  for (const report::InitializationItem& item : init.report.items)
    module_items += item.name == "cuModuleLoadData" ? 1 : 0;
  CHECK(module_items == 1);
  CHECK(init.report.time_ns == 3 * kMs);
}

TEST_CASE("host-bound: graph advice counts the idle under launch calls too", "[diagnosis]") {
  // Ten 1.1 ms periods: an operator whose host work leaves the GPU idle 900 us, then a 100 us
  // launch call, then its 100 us kernel. A captured graph removes both the host time between
  // the launches and the launch calls: the bound counts 900 + 100 us of idle per period.
  TraceBuilder b;
  for (int i = 0; i < 10; ++i) {
    std::int64_t t0 = i * 1100 * kUs;
    b.Op("aten::linear", t0, t0 + 1000 * kUs);
    b.Api("cudaLaunchKernel", t0 + 900 * kUs, t0 + 1000 * kUs, i + 1);
    b.Kernel("gemm_" + std::to_string(i), t0 + 1000 * kUs, t0 + 1100 * kUs, i + 1);
  }
  gpuperf::report::AnalysisReport r = Analyze(b.trace);
  const gpuperf::report::Diagnosis& d = r.diagnosis;
  REQUIRE(d.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  REQUIRE(d.status == report::DiagnosisStatus::kFinding);
  CHECK(Contains(d.next_experiment, "capture the step in a CUDA graph"));
  bool counted = false;
  for (const std::string& line : d.support)
    counted = counted || Contains(line, "The bound counts the 1.00 ms of idle under launch calls");
  CHECK(counted);
  // 10 ms of the 11 ms window is idle, all of it host time or launch calls: 11 / (11 - 10).
  REQUIRE(d.bound_speedup);
  CHECK(*d.bound_speedup == Approx(11.0).epsilon(1e-3));

  // A PyTorch trace of inference: the forward with fixed shapes, no optimizer step to capture.
  b.trace.metadata.framework_profiler = true;
  const std::string inference = Analyze(b.trace).diagnosis.next_experiment;
  CHECK(Contains(inference,
                 "torch.cuda.graph around the whole forward; with inputs of fixed "
                 "shapes"));
  CHECK_FALSE(Contains(inference, "optimizer step"));
  // With an optimizer step in the trace, a training step: capture that too.
  b.Op("Optimizer.step#SGD.step", 11 * kMs, 11 * kMs + 10 * kUs);
  CHECK(Contains(Analyze(b.trace).diagnosis.next_experiment,
                 "compile or capture the optimizer step too"));
}

TEST_CASE("host-bound: a captured graph's bound leaves out the host work around the operators",
          "[diagnosis]") {
  // The loop of the test above, behind 1 ms in which the trace records only a step range (a
  // harness's synchronize and the profiler's step): idle before the first GPU activity, outside
  // the operator that launches it, which a captured graph does not remove.
  TraceBuilder b;
  model::Range& step =
      b.AddRange(model::RangeKind::kUserAnnotation, "ProfilerStep#0", -kMs, 11 * kMs);
  step.pid = 100;
  step.tid = 101;
  for (int i = 0; i < 10; ++i) {
    std::int64_t t0 = i * 1100 * kUs;
    b.Op("aten::linear", t0, t0 + 1000 * kUs);
    b.Api("cudaLaunchKernel", t0 + 900 * kUs, t0 + 1000 * kUs, i + 1);
    b.Kernel("gemm_" + std::to_string(i), t0 + 1000 * kUs, t0 + 1100 * kUs, i + 1);
  }
  auto bound_of = [](const model::Trace& trace) {
    report::AnalysisReport r = Analyze(trace);
    REQUIRE(r.diagnosis.bottleneck == report::Bottleneck::kHostBound);
    REQUIRE(r.diagnosis.bound_speedup);
    return std::make_pair(*r.diagnosis.bound_speedup, r.diagnosis.support);
  };
  // 11 ms of the 12 ms window idle; the first 1 ms left out: 12 / (12 - 10).
  auto [bound, support] = bound_of(b.trace);
  CHECK(bound == Approx(6.0).epsilon(1e-3));
  bool said = false;
  for (const std::string& line : support)
    said = said || Contains(line,
                            "The bound leaves out the 1.00 ms of host time before the first "
                            "and after the last GPU activity outside the framework "
                            "operators and modules that launch the GPU work");
  CHECK(said);
  // Recorded host work there is named, with its own lever.
  TraceBuilder named = b;
  model::Range& load = named.AddRange(model::RangeKind::kNvtx, "load_batch", -kMs, -200 * kUs);
  load.pid = 100;
  load.tid = 101;
  said = false;
  for (const std::string& line : bound_of(named.trace).second)
    said = said || Contains(line,
                            "(most in load_batch (800 µs)): a captured graph replays those "
                            "operators, not the work around them; moving that recorded "
                            "work off the launching thread");
  CHECK(said);
  // A module frame around the first operator from -0.5 ms: its Python code is the model's own,
  // which the graph replaces too. 12 / (12 - 10.5).
  b.Frame("nn.Module: Model_0", -500 * kUs, 11 * kMs);
  CHECK(bound_of(b.trace).first == Approx(8.0).epsilon(1e-3));
}

TEST_CASE("dependency-bound: long queued stretches that end at the same work are named",
          "[diagnosis]") {
  // Everything is launched up front; on the GPU, four rounds of twenty 100 us kernels 10 us
  // apart, each round followed by a 20 ms stretch before a kernel "waiter". 80.8 ms of queued
  // idle, half of it in the 3 longest stretches, all ending at "waiter".
  TraceBuilder b;
  std::int64_t id = 0;
  std::int64_t t = 1 * kMs;
  std::vector<std::pair<std::int64_t, std::int64_t>> stretches;
  for (int round = 0; round < 4; ++round) {
    for (int i = 0; i < 20; ++i) {
      b.Api("cudaLaunchKernel", id * kUs, id * kUs + 500, id + 1);
      b.Kernel("work_" + std::to_string(i), t, t + 100 * kUs, id + 1);
      ++id;
      t += 110 * kUs;
    }
    stretches.push_back({t - 10 * kUs, t + 20 * kMs - 10 * kUs});
    t += 20 * kMs - 10 * kUs;
    b.Api("cudaLaunchKernel", id * kUs, id * kUs + 500, id + 1);
    b.Kernel("waiter", t, t + 100 * kUs, id + 1);
    ++id;
    t += 110 * kUs;
  }
  gpuperf::report::AnalysisReport r = Analyze(b.trace);
  const gpuperf::report::Diagnosis& d = r.diagnosis;
  REQUIRE(d.bottleneck == gpuperf::report::Bottleneck::kDependencyBound);
  bool named = false;
  for (const std::string& line : d.support)
    named = named || Contains(line,
                              "lies in its 3 longest stretches (60.0 ms in all, each at least "
                              "20.0 ms); 3 of them, 60.0 ms in all, about 20.0 ms each, end at "
                              "the same GPU work: waiter on stream 7, launched by "
                              "cudaLaunchKernel");
  CHECK(named);
  CHECK(Contains(d.next_experiment,
                 "first what waiter on stream 7, launched by cudaLaunchKernel waits for"));
  for (const std::string& line : d.support)
    CHECK_FALSE(Contains(line, "the host was blocked waiting for the GPU"));
  // The host blocked in synchronizations through 95% of each stretch (polled in 0.95 ms calls,
  // each too short to be a coverage gap): not late with an event.
  TraceBuilder blocked = b;
  for (const auto& [from, to] : stretches) {
    for (std::int64_t at = from; at + 950 * kUs <= to; at += kMs)
      blocked.Api("cudaStreamSynchronize", at, at + 950 * kUs);
  }
  const gpuperf::report::AnalysisReport br = Analyze(blocked.trace);
  bool said = false;
  for (const std::string& line : br.diagnosis.support)
    said = said || Contains(line,
                            "Through 95.0% of them the host was blocked waiting for the GPU "
                            "(most in cudaStreamSynchronize): it was not late to record an event");
  CHECK(said);
}

TEST_CASE("host waits: only time the GPU's kernels hold the host counts", "[diagnosis]") {
  // Host thread: ten fast launches into a deep queue (10 us each, their kernels start 5 ms
  // later), one launch blocked 2 ms on a full queue, a synchronous copy that waits 1 ms on its
  // own transfer with no kernel running, and a synchronization that waits 3 ms on a kernel.
  TraceBuilder b;
  for (int i = 0; i < 10; ++i) {
    b.Api("cudaLaunchKernel", i * 20 * kUs, i * 20 * kUs + 10 * kUs, i + 1);
    b.Kernel("queued", 5 * kMs + i * 100 * kUs, 5 * kMs + (i + 1) * 100 * kUs, i + 1);
  }
  // Shallow launches give the unblocked baseline: 10 us.
  for (int i = 0; i < 5; ++i) {
    std::int64_t t = 7 * kMs + i * 100 * kUs;
    b.Api("cudaLaunchKernel", t, t + 10 * kUs, 20 + i);
    b.Kernel("shallow", t + 20 * kUs, t + 50 * kUs, 20 + i);
  }
  b.Api("cudaLaunchKernel", 8 * kMs, 10 * kMs, 30);  // blocked: 2 ms, queue 3 ms deep
  b.Kernel("late", 13 * kMs, 14 * kMs, 30);
  b.Api("cudaMemcpy", 15 * kMs, 16 * kMs, 31);  // its own copy, no kernel running
  b.Memcpy(gpuperf::model::CopyKind::kHtoD, 15 * kMs, 16 * kMs, 1 << 20, 31);
  b.Api("cudaLaunchKernel", 16 * kMs, 16 * kMs + 10 * kUs, 32);
  b.Kernel("waited", 16 * kMs + 20 * kUs, 19 * kMs + 20 * kUs, 32);
  b.Api("cudaDeviceSynchronize", 16 * kMs + 20 * kUs, 19 * kMs + 30 * kUs);
  gpuperf::report::AnalysisReport r = Analyze(b.trace);
  gpuperf::analysis::CorrelationIndex index(b.trace);
  gpuperf::analysis::HostWaitCap cap = gpuperf::analysis::HostWaitsOnGpu(
      b.trace, index, r, gpuperf::analysis::SteadySpan(b.trace, r), 20 * kMs, nullptr);
  // The blocked launch's 2 ms less the 10 us baseline, and the 3 ms of kernel inside the sync;
  // not the fast deep launches, not the copy's own transfer, and no kernel after the last call.
  CHECK(cap.waits_ns == 2 * kMs - 10 * kUs + 3 * kMs);
}

TEST_CASE("GPU-bound: a host close behind the GPU bounds what faster kernels give alone",
          "[diagnosis]") {
  // Ten different 1 ms kernels, each launched 10 us before it starts: the GPU is busy, but the
  // host never waits for it; only the last kernel runs after the host's last call (1.005 ms).
  // Faster kernels alone give at most 1 / (1 - 1.005/10.01), at 2x as well as free: the host
  // sets the pace and the kernels' run gives back only its drain.
  TraceBuilder b;
  for (int i = 0; i < 10; ++i) {
    std::int64_t t0 = i * 1000 * kUs;
    b.Api("cudaLaunchKernel", t0, t0 + 5 * kUs, i + 1);
    b.Kernel("kernel_" + std::to_string(i), t0 + 10 * kUs, t0 + 1010 * kUs, i + 1);
  }
  gpuperf::report::AnalysisReport r = Analyze(b.trace);
  const gpuperf::report::Diagnosis& d = r.diagnosis;
  REQUIRE(d.dominant_kind == gpuperf::report::DominantKind::kKernel);
  INFO(d.next_experiment);
  const double limit = 1.0 / (1.0 - 1.005 / 10.01);
  REQUIRE(d.bound_speedup);
  CHECK(*d.bound_speedup == Approx(limit).epsilon(2e-3));
  if (d.bound_speedup_at_2x)
    CHECK(*d.bound_speedup_at_2x <= limit + 1e-3);
  // The ten kernels are one run of queued work whose budget is the 1.005 ms drain: their
  // group's own bound is that run's budget (GainNs), so the host-wait cap has nothing left to
  // hold and says nothing.
  REQUIRE(d.bound_speedup_at_2x);
  CHECK(*d.bound_speedup_at_2x == Approx(limit).epsilon(2e-3));
  // With a synchronization after every kernel the host waits for each one: no cap.
  TraceBuilder synced = b;
  for (int i = 0; i < 10; ++i)
    synced.Api("cudaDeviceSynchronize", i * 1000 * kUs + 6 * kUs, i * 1000 * kUs + 1010 * kUs);
  const gpuperf::report::AnalysisReport s = Analyze(synced.trace);
  for (const std::string& line : s.diagnosis.support) {
    CHECK_FALSE(Contains(line, "The host is close behind the GPU"));
    CHECK_FALSE(Contains(line, "Held to the host's waits"));
  }
}

TEST_CASE("GPU-bound: which changes keep the launch count", "[diagnosis]") {
  // Only those are held to the host's waits; a change that cuts launches cuts host time too.
  gpuperf::report::Diagnosis d;
  d.dominant_kind = gpuperf::report::DominantKind::kKernel;
  CHECK(gpuperf::analysis::KeepsLaunchCount(d));
  d.dominant_kind = gpuperf::report::DominantKind::kOperators;
  using gpuperf::report::LeverKind;
  for (LeverKind kind : {LeverKind::kAmp, LeverKind::kTf32OrAmp}) {
    d.lever = kind;
    CHECK(gpuperf::analysis::KeepsLaunchCount(d));
  }
  for (LeverKind kind :
       {LeverKind::kFuseElementwise, LeverKind::kUseSdpa, LeverKind::kChannelsLast}) {
    d.lever = kind;
    CHECK_FALSE(gpuperf::analysis::KeepsLaunchCount(d));
  }
  d.dominant_kind = gpuperf::report::DominantKind::kIdle;
  d.lever = LeverKind::kNone;
  CHECK_FALSE(gpuperf::analysis::KeepsLaunchCount(d));
}

TEST_CASE("host-bound: overlapping host work cannot overlap the first input's preparation",
          "[diagnosis][host]") {
  // 4 ms of preprocessing before the first kernel, 4 ms of kernel, 4 ms of preprocessing, 4 ms
  // of kernel: a 16 ms window with 8 ms of host work. Overlapped, the first 4.01 ms still runs
  // alone: 16 / (4.01 + max(8 - 4.01, 8)) = 1.33x, not 16 / max(8, 8) = 2x.
  TraceBuilder b;
  b.Api("cudaGetDevice", 0, 1 * kUs);  // the recording starts before the preprocessing
  b.Frame("preprocess.py(10): normalize", 1 * kUs, 4 * kMs);
  b.Api("cudaLaunchKernel", 4 * kMs, 4 * kMs + 5 * kUs, 1);
  b.Kernel("A", 4 * kMs + 10 * kUs, 8 * kMs, 1);
  b.Frame("preprocess.py(10): normalize", 8 * kMs, 12 * kMs);
  b.Api("cudaLaunchKernel", 12 * kMs, 12 * kMs + 5 * kUs, 2);
  b.Kernel("B", 12 * kMs + 10 * kUs, 16 * kMs, 2);
  report::AnalysisReport r = Analyze(b.trace);
  REQUIRE(r.diagnosis.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  INFO(r.diagnosis.next_experiment);
  CHECK(Contains(r.diagnosis.next_experiment,
                 "Overlapped with the GPU work without getting faster, it gives at most 1.33x "
                 "(window / (the 4.01 ms before the first GPU work, which nothing overlaps"));
  // Worth moving (1.33x): the experiment leads with it, and the headline gives both routes.
  CHECK(Contains(r.diagnosis.next_experiment, "Move the host work that fills the gaps"));
  CHECK(Contains(r.headline,
                 "at most 2.00x faster if that host work takes no time, 1.33x if it "
                 "only moves beside the GPU (Amdahl)"));

  // The same work all before a single kernel (one call, its input prepared first): beside the
  // GPU it overlaps nothing, so the experiment is to make it faster.
  TraceBuilder once;
  once.Api("cudaGetDevice", 0, 1 * kUs);
  once.Frame("preprocess.py(10): normalize", 1 * kUs, 8 * kMs);
  once.Api("cudaLaunchKernel", 8 * kMs, 8 * kMs + 5 * kUs, 1);
  once.Kernel("A", 8 * kMs + 10 * kUs, 12 * kMs, 1);
  report::AnalysisReport one = Analyze(once.trace);
  REQUIRE(one.diagnosis.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  INFO(one.diagnosis.next_experiment);
  REQUIRE(one.diagnosis.bound_speedup_overlapped);
  CHECK(*one.diagnosis.bound_speedup_overlapped < 1.05);
  CHECK(Contains(one.diagnosis.next_experiment,
                 "Make the host work that fills the gaps faster: preprocess.py(10): normalize"));
  CHECK(Contains(one.diagnosis.next_experiment, "ms of it runs before the first GPU work"));
  // In a loop over inputs the next one's preparation could overlap this one's GPU work: 12 ms
  // of window over max(8 ms of host work, the 4 ms rest).
  CHECK(Contains(one.diagnosis.next_experiment,
                 "in a loop over inputs, a separate worker (a DataLoader worker process, another "
                 "thread) preparing the next input while the GPU runs this one would give at most "
                 "1.50x (window / max(the 8.00 ms of host work in the gaps, the rest)"));
  // That bound is a field, and the headline quotes it after the overlap bound.
  REQUIRE(one.diagnosis.bound_speedup_across_inputs);
  CHECK(*one.diagnosis.bound_speedup_across_inputs == Approx(1.5).epsilon(1e-3));
  CHECK(Contains(one.headline,
                 "if it only moves beside the GPU, 1.50x with a separate worker preparing the next "
                 "input while the GPU runs this one (Amdahl)"));
  // Where the host work does not precede the GPU's, the experiment gives no such bound.
  CHECK_FALSE(r.diagnosis.bound_speedup_across_inputs);
}

TEST_CASE("host-bound: blocking MPI calls in the gaps wait for another rank, not the host",
          "[diagnosis][host]") {
  // Two 1 ms kernels with 8 ms between them: 4 ms of the program's own work (an NVTX range)
  // and 4 ms in MPI_Recv. Only the first 4 ms count toward the bound: 10 / (10 - 4) = 1.67x,
  // not 10 / (10 - 8) = 5x.
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  b.Kernel("A", 10 * kUs, 1 * kMs, 1);
  b.AddRange(model::RangeKind::kNvtx, "compute_halo", 1 * kMs, 5 * kMs);
  b.AddRange(model::RangeKind::kNvtx, "MPI_Recv", 5 * kMs, 9 * kMs, model::kNoId, "MPI");
  b.Api("cudaLaunchKernel", 9 * kMs, 9 * kMs + 5 * kUs, 2);
  b.Kernel("B", 9 * kMs + 10 * kUs, 10 * kMs, 2);
  report::AnalysisReport r = Analyze(b.trace);
  const report::Diagnosis& d = r.diagnosis;
  REQUIRE(d.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  INFO(d.next_experiment);
  REQUIRE(d.bound_speedup);
  CHECK(*d.bound_speedup == Approx(10.0 / 6.0).epsilon(0.01));
  CHECK_FALSE(Contains(d.next_experiment, "MPI_Recv ("));
  bool said = false;
  for (const std::string& line : d.support)
    said = said || Contains(line,
                            "4.00 ms of the host work in the gaps is blocking MPI communication "
                            "(MPI_Recv (4.00 ms)): the host waits for the transfer and for another "
                            "rank there");
  CHECK(said);
  // Each blocking call's spread: a send whose calls take the fastest's time pays its transfer; a
  // receive whose calls spread above the fastest waited for its peer.
  TraceBuilder mpi;
  for (int i = 0; i < 5; ++i)
    mpi.AddRange(model::RangeKind::kNvtx, "MPI_Send", i * 100 * kMs, i * 100 * kMs + 10 * kMs);
  for (int i = 0; i < 4; ++i)
    mpi.AddRange(model::RangeKind::kNvtx,
                 "MPI_Recv",
                 i * 100 * kMs + 50 * kMs,
                 i * 100 * kMs + 50 * kMs + (i + 1) * 10 * kMs);
  CHECK(analysis::BlockingMpiSpread(mpi.trace, {0, 1000 * kMs}) ==
        "MPI_Recv: 4 calls, 10.0 ms to 40.0 ms, median 20.0 ms: 60.0 ms above the fastest, the "
        "sign of waiting for the other rank; MPI_Send: 5 calls, 10.0 ms to 10.0 ms, median "
        "10.0 ms: most take the fastest's time, the transfer's own");
  CHECK(gpuperf::analysis::IsBlockingMpiCall("MPI_Waitall"));
  CHECK(gpuperf::analysis::IsBlockingMpiCall("MPI_Allreduce"));
  CHECK_FALSE(gpuperf::analysis::IsBlockingMpiCall("MPI_Isend"));
  CHECK_FALSE(gpuperf::analysis::IsBlockingMpiCall("MPI_Init"));
}

TEST_CASE("triage: exposed copies under the transfer share but material are named", "[diagnosis]") {
  // 10 ms of kernels, then a 1.2 ms device-to-device copy nothing overlaps: 10.7% of the window,
  // under the triage's 15% (transfer: no), named with what removing it gives.
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 5 * kUs, 1);
  b.Kernel("a", 10 * kUs, 10 * kMs, 1);
  b.Api("cudaMemcpyAsync", 20 * kUs, 30 * kUs, 2);
  b.Memcpy(model::CopyKind::kDtoD, 10 * kMs, 11 * kMs + 200 * kUs, 1'000'000'000, 2);
  report::AnalysisReport r = Analyze(b.trace);
  std::string lines;
  for (const std::string& line : r.diagnosis.support)
    lines += line + "\n";
  INFO(lines);
  CHECK(Contains(lines,
                 "Copies not overlapped by kernels hold 10.7% of the window, under the "
                 "triage's 15.0% but material: [CUDA memcpy DtoD] 1.20 ms exposed of 1.20 ms in "
                 "1 copies"));
  CHECK(Contains(lines, "Overlapped with kernels or removed, they would give at most 1.12x"));
}

TEST_CASE(
    "Exposed copies past the triage's first yes are named, pageable ones with the pinned "
    "bound at the host link's peak",
    "[diagnosis][copies]") {
  // Host-bound: 55 ms of host work between two synchronous 256 MB copies from pageable memory,
  // each 20 ms (12.8 GB/s), on an A100 (PCIe Gen4: 32 GB/s each way, 8 ms for 256 MB).
  TraceBuilder b;
  b.trace.devices.push_back({.id = 0, .name = "NVIDIA A100-SXM4-40GB", .compute_major = 8});
  const std::int64_t bytes = 256'000'000;
  b.Api("cudaMemcpy", 0, 20 * kMs, 1);
  b.Memcpy(model::CopyKind::kHtoD,
           10 * kUs,
           20 * kMs,
           bytes,
           1,
           model::MemoryKind::kPageable,
           model::MemoryKind::kDevice);
  b.Frame("main.cc(10): fill", 20 * kMs, 75 * kMs);
  // 100 us of it in a callee: under 1% of the fill's time, no lever to name.
  b.Frame("main.cc(30): tiny", 74900 * kUs, 75 * kMs);
  b.Api("cudaMemcpy", 75 * kMs, 95 * kMs, 2);
  b.Memcpy(model::CopyKind::kHtoD,
           75 * kMs + 10 * kUs,
           95 * kMs,
           bytes,
           2,
           model::MemoryKind::kPageable,
           model::MemoryKind::kDevice);
  b.Api("cudaLaunchKernel", 95 * kMs, 95 * kMs + 5 * kUs, 3);
  b.Kernel("saxpy", 95 * kMs + 10 * kUs, 100 * kMs, 3);
  report::AnalysisReport r = Analyze(b.trace);
  const report::Diagnosis& d = r.diagnosis;
  REQUIRE(d.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  // The copies block the host like synchronizations, and the scope says so.
  CHECK(Contains(d.scope, "0 synchronizations and 2 synchronous copy calls, which block the host"));
  INFO(d.next_experiment);
  CHECK(Contains(d.next_experiment, "main.cc(10): fill"));
  CHECK_FALSE(Contains(d.next_experiment, "main.cc(30): tiny"));
  REQUIRE(r.initialization.steady_window_ns == 100 * kMs);
  // The copies hold 40% of the window, above the triage's 15% where it stopped at its first yes:
  // they get the statement of the window's copy phase (since 1.18.0; before, an evidence line).
  REQUIRE(d.secondary.size() == 1);
  const report::Diagnosis& copy_phase = d.secondary.front();
  CHECK(copy_phase.bottleneck == gpuperf::report::Bottleneck::kTransferBound);
  CHECK(copy_phase.dominant_fraction == Approx(0.40).epsilon(1e-3));
  std::string copies;
  for (const std::string& line : copy_phase.support) {
    if (line.find("pageable host side") != std::string::npos)
      copies = line;
  }
  INFO(copies);
  // 40 ms now, 16 ms at the link's peak: 24 ms less over the 100 ms window.
  CHECK(copies.find("2 of them (512 MB, 40.0 ms) have a pageable host side") != std::string::npos);
  CHECK(copies.find("they move at 12.8 GB/s. The host link's peak is 32.0 GB/s each way (A100 "
                    "datasheet: PCIe Gen4, 64 GB/s both ways)") != std::string::npos);
  CHECK(copies.find(fmt::format("take at most 24.0 ms less at that peak: at most {:.2f}x",
                                1.0 / (1.0 - 0.24))) != std::string::npos);
  // Without pinned copies in the trace to measure, the experiment's bound is the datasheet's.
  CHECK(Contains(copy_phase.next_experiment,
                 fmt::format("Pinned, the program is at most {:.2f}x faster (at the host link's "
                             "datasheet peak, an upper bound",
                             1.0 / (1.0 - 0.24))));

  // Pinned copies, or a GPU whose datasheet states no host link: no pinned bound.
  // Every statement's lines, the copy phase's too.
  auto mentions_pageable = [](const report::Diagnosis& diagnosis) {
    bool said = false;
    for (const report::Diagnosis* statement :
         {&diagnosis, diagnosis.secondary.empty() ? &diagnosis : &diagnosis.secondary.front()}) {
      for (const std::string& line : statement->support)
        said = said || line.find("pageable host side") != std::string::npos;
    }
    return said;
  };
  CHECK(mentions_pageable(d));
  TraceBuilder pinned = b;
  for (model::GpuActivity& a : pinned.trace.activities)
    a.src_kind = model::MemoryKind::kPinned;
  CHECK_FALSE(mentions_pageable(Analyze(pinned.trace).diagnosis));
  TraceBuilder unknown = b;
  unknown.trace.devices.front().name = "GPU one";
  CHECK_FALSE(mentions_pageable(Analyze(unknown.trace).diagnosis));

  // The copy finding's own line: the copies' GPU time its wait bound leaves out, and what pinning
  // takes off it: 2 x (19.99 ms - 8 ms) at the link's peak; null without a datasheet link; 0 for
  // copies under 1 MiB, which take their latency.
  auto saving = [](const report::AnalysisReport& report) {
    for (const report::Finding& f : report.findings) {
      if (f.id == "sync_memcpy")
        return f.pinned_saving_ns;
    }
    FAIL("no sync_memcpy finding");
    return std::optional<std::int64_t>();
  };
  CHECK(saving(r) == std::optional<std::int64_t>(2 * (20 * kMs - 10 * kUs - 8 * kMs)));
  CHECK_FALSE(saving(Analyze(unknown.trace)));
  TraceBuilder small = b;
  for (model::GpuActivity& a : small.trace.activities)
    a.bytes = 512 * 1024;
  CHECK(saving(Analyze(small.trace)) == std::optional<std::int64_t>(0));

  // The trace's own pinning calls in the host work, the first of them 30 ms (a first call, one-
  // time work: the first CUDA call of a process creates its context): the pinning cost counts
  // it at its name's median, 4 calls of 1 ms, not 33 ms.
  TraceBuilder pinning = b;
  pinning.Api("cudaHostRegister", 21 * kMs, 51 * kMs);
  for (int i = 0; i < 3; ++i)
    pinning.Api("cudaHostRegister", (52 + 2 * i) * kMs, (53 + 2 * i) * kMs);
  pinning.Api("cudaHostUnregister", 60 * kMs, 61 * kMs);
  const report::AnalysisReport p = Analyze(pinning.trace);
  REQUIRE_FALSE(p.initialization.items.empty());
  CHECK(p.initialization.items.front().name == "cudaHostRegister");
  CHECK(gpuperf::analysis::PinningCostNs(pinning.trace, p.initialization) == 5 * kMs);
  CHECK(gpuperf::analysis::PinningCostNs(pinning.trace, {}) == 34 * kMs);
}

TEST_CASE("Host-blocking syncs are told apart by the operator around them", "[diagnosis][syncs]") {
  TraceBuilder b;
  std::int64_t t = 0, correlation = 1;
  // op > inner op > [a copy of `kind`] + cudaStreamSynchronize; kind kUnknown: no copy.
  auto sync_in = [&](const std::string& outer, const std::string& inner, model::CopyKind kind) {
    b.Op(outer, t, t + 100 * kUs);
    b.Op(inner, t + 1 * kUs, t + 99 * kUs);
    if (kind != model::CopyKind::kUnknown) {
      b.Api("cudaMemcpyAsync", t + 2 * kUs, t + 3 * kUs, correlation);
      b.Memcpy(kind, t + 4 * kUs, t + 20 * kUs, 1 << 20, correlation);
      ++correlation;
    }
    b.Api("cudaStreamSynchronize", t + 5 * kUs, t + 90 * kUs);
    t += 200 * kUs;
  };
  sync_in("aten::to", "aten::copy_", model::CopyKind::kHtoD);  // an input batch to the GPU
  sync_in("aten::to", "aten::copy_", model::CopyKind::kDtoH);  // split sizes to the host
  sync_in("aten::item", "aten::_local_scalar_dense", model::CopyKind::kDtoH);
  sync_in("aten::nonzero", "aten::nonzero", model::CopyKind::kUnknown);
  b.Api("cudaDeviceSynchronize", t, t + 10 * kUs);  // outside any operator
  // A 40 us idle gap inside the first operator's sync: the copy to the device causes it.
  analysis::IdleAttribution idle;
  idle.other_gaps = {{20 * kUs, 60 * kUs}};
  analysis::ExperimentContext::SyncCallers c =
      analysis::SyncCallersOf(b.trace, idle, {0, t + 10 * kUs});
  CHECK(c.calls == 5);
  // Its copy call (1 us) and its sync (85 us) block the host; of the gap they cause all 40 us,
  // and its 16 us copy runs with no kernel beside it.
  CHECK(c.to_device_host_ns == 86 * kUs);
  CHECK(c.to_device_idle_ns == 40 * kUs);
  CHECK(c.to_device_exposed_copy_ns == 16 * kUs);
  // A steady window that starts after the first operator leaves its calls out.
  analysis::ExperimentContext::SyncCallers later =
      analysis::SyncCallersOf(b.trace, idle, {150 * kUs, t + 10 * kUs});
  CHECK(later.calls == 4);
  CHECK(later.copies_to_device == 0);
  CHECK(later.to_device_host_ns == 0);
  CHECK(c.copies_to_device == 1);
  CHECK(c.copies_to_host == 1);
  CHECK(c.scalar_reads == 1);
  CHECK(c.data_dependent == 1);
}

TEST_CASE("loader owner: the innermost frame outside PyTorch around a single-process fetch",
          "[diagnosis][loader]") {
  TraceBuilder b;
  CHECK(analysis::LoaderOwner(b.trace).empty());  // no frames, no fetch
  b.Frame("main.py(1): <module>", 0, 1000);
  b.Frame("mylib/loop.py(10): run", 10, 900);
  b.Frame("mylib/loop.py(20): __next__", 20, 800);
  b.Frame("<built-in function next>", 30, 700);
  b.Frame("torch/utils/data/dataloader.py(703): __next__", 40, 600);
  // Another thread's frame around the same time is not the owner.
  b.Frame("other.py(5): worker", 0, 1000, 202);
  b.Frame("other.py(6): inner", 45, 550, 202);
  CHECK(analysis::LoaderOwner(b.trace).empty());  // frames but no fetch
  model::Range& fetch = b.AddRange(model::RangeKind::kUserAnnotation,
                                   "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
                                   50,
                                   500);
  fetch.pid = 100;
  fetch.tid = 101;
  CHECK(analysis::LoaderOwner(b.trace) == "mylib/loop.py(20): __next__");
}

TEST_CASE("material copies: their removal bound set beside a statement at an assumed 2x",
          "[diagnosis][copies]") {
  report::AnalysisReport r;
  r.memory_ops.push_back({.operation = "[CUDA memcpy DtoD]",
                          .duration_ns = {.count = 10, .total = 20 * kMs},
                          .size_bytes = {.count = 10, .total = 1'000'000'000}});
  // Copies exposed for 20% of the window, 16 ms of a 20 ms copy with a 4 ms kernel beside it:
  // removed, at most 1 / (1 - 0.2) = 1.25x.
  TraceBuilder b;
  b.Kernel("k", 0, 4 * kMs).stream = 7;
  b.Memcpy(model::CopyKind::kDtoD, 0, 20 * kMs, 1'000'000'000, 1).stream = 8;
  report::Diagnosis parallel;
  parallel.bound_speedup_at_2x = 1.2;
  parallel.bound_speedup = 1.5;
  analysis::AddMaterialCopies(
      parallel, b.trace, analysis::DeviceRoofsTable(b.trace), r, 0.2, 0.15, 100 * kMs, 16 * kMs);
  REQUIRE(parallel.support.size() == 1);
  INFO(parallel.support.front());
  CHECK(Contains(parallel.support.front(),
                 "[CUDA memcpy DtoD] 16.0 ms exposed of 20.0 ms in 1 copies (1.00 GB)"));
  CHECK(Contains(parallel.support.front(),
                 "Their removal bound is of the order of the statement's (1.20x at an assumed "
                 "2x, 1.50x at most): a parallel experiment, not a later one."));
  report::Diagnosis after;
  after.bound_speedup_at_2x = 1.3;
  after.bound_speedup = 1.6;
  analysis::AddMaterialCopies(
      after, b.trace, analysis::DeviceRoofsTable(b.trace), r, 0.2, 0.15, 100 * kMs, 16 * kMs);
  REQUIRE(after.support.size() == 1);
  CHECK(Contains(after.support.front(),
                 "Their removal bound is below the statement's 1.30x at an assumed 2x: they rank "
                 "after it."));
  CHECK_FALSE(Contains(after.support.front(), "all on streams that run kernels"));
  // Device-to-device copies on the kernels' own stream are part of the computation.
  TraceBuilder same_stream = b;
  same_stream.trace.activities.back().stream = 7;
  report::Diagnosis inside;
  analysis::AddMaterialCopies(inside,
                              same_stream.trace,
                              analysis::DeviceRoofsTable(same_stream.trace),
                              r,
                              0.2,
                              0.15,
                              100 * kMs,
                              16 * kMs);
  REQUIRE(inside.support.size() == 1);
  CHECK(Contains(inside.support.front(),
                 "(1.00 GB), all on streams that run kernels: part of the computation, so "
                 "removing them is the lever, not overlapping them"));
  // A statement with a limit only (no assumed 2x) gets no such comparison.
  report::Diagnosis limit_only;
  limit_only.bound_speedup = 1.5;
  analysis::AddMaterialCopies(
      limit_only, b.trace, analysis::DeviceRoofsTable(b.trace), r, 0.2, 0.15, 100 * kMs, 16 * kMs);
  REQUIRE(limit_only.support.size() == 1);
  CHECK_FALSE(Contains(limit_only.support.front(), "removal bound is"));
}

TEST_CASE("steps: a GPU-bound window's steps are compared by the busy time of their launched work",
          "[diagnosis][steps]") {
  // The host runs ahead: step markers of 6, 10 and 14 ms (MAD 4 ms) each launch 10 ms of
  // kernels, which run back to back.
  TraceBuilder b;
  std::int64_t starts[] = {0, 6 * kMs, 16 * kMs, 30 * kMs};
  for (int i = 0; i < 3; ++i) {
    b.AddRange(model::RangeKind::kProfilerStep,
               "ProfilerStep#" + std::to_string(i),
               starts[i],
               starts[i + 1]);
    b.Api("cudaLaunchKernel", starts[i] + kUs, starts[i] + 6 * kUs, i + 1);
    b.Kernel("k", 10 * kUs + i * 10 * kMs, 10 * kUs + (i + 1) * 10 * kMs, i + 1);
  }
  report::AnalysisReport r = Analyze(b.trace);
  REQUIRE(r.framework.steps.size() == 3);
  for (const report::StepRow& s : r.framework.steps)
    CHECK(s.launched_busy_ns == 10 * kMs);
  INFO(r.diagnosis.baseline);
  CHECK(Contains(r.diagnosis.baseline,
                 "the GPU work each step launched keeps the GPU busy a steadier 10.0 ms a step "
                 "(median; 10.0 ms to 10.0 ms, MAD 0 ns"));
}

TEST_CASE("host work: a Python built-in is named with the frames around its longest instance",
          "[diagnosis][host]") {
  TraceBuilder b;
  CHECK(analysis::BuiltinCallers(b.trace, "main.py(1): run").empty());  // not a built-in
  b.Frame("main.py(1): <module>", 0, 1000);
  b.Frame("proc.py(10): resize", 10, 900);
  b.Frame("scipy/zoom.py(739): zoom", 20, 800);
  b.Frame("<built-in function next>", 25, 790);  // a built-in is not a caller
  b.Frame("<built-in function zoom_shift>", 30, 700);
  // A shorter instance elsewhere holds less of the time.
  b.Frame("other.py(3): small", 950, 1000);
  b.Frame("<built-in function zoom_shift>", 960, 970);
  CHECK(analysis::BuiltinCallers(b.trace, "<built-in function zoom_shift>") ==
        "in scipy/zoom.py(739): zoom, from proc.py(10): resize");
  CHECK(analysis::BuiltinCallers(b.trace, "<built-in function absent>").empty());
}

TEST_CASE("communication: the bound of overlapping communication counts every collective",
          "[diagnosis][collectives]") {
  // Four 3 ms GEMMs, then a 5 ms all-reduce and a 3 ms all-to-all nothing overlaps (20 ms):
  // computation is the larger share, the all-reduce the hottest kernel (25%, 1.33x alone), and
  // all exposed communication 40% of the window (1.67x).
  TraceBuilder b;
  std::int64_t t = 0, correlation = 1;
  auto kernel = [&](const std::string& name, std::int64_t length) {
    b.Api("cudaLaunchKernel", correlation * kUs, correlation * kUs + 1 * kUs, correlation);
    b.Kernel(name, t + 10 * kUs, t + length, correlation++);
    t += length;
  };
  for (int i = 0; i < 4; ++i)
    kernel("gemm_kernel_" + std::to_string(i), 3 * kMs);
  kernel("ncclKernel_AllReduce_RING_LL_Sum_float", 5 * kMs);
  kernel("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t", 3 * kMs);
  report::AnalysisReport r = Analyze(b.trace);
  const report::Diagnosis& d = r.diagnosis;
  INFO(d.next_experiment);
  REQUIRE(d.bottleneck == gpuperf::report::Bottleneck::kCommunicationBound);
  REQUIRE(d.bound_speedup);
  CHECK(*d.bound_speedup == Approx(1.0 / (1.0 - 0.4)).epsilon(0.01));
  bool said = false;
  for (const std::string& line : d.support)
    said = said || (Contains(line, "Communication not overlapped by computation holds 7.9") &&
                    Contains(line, "all collectives together: the bound of overlapping it"));
  CHECK(said);
}

TEST_CASE("communication: overlapping it beside a host-bound phase is held to the host's waits",
          "[diagnosis][collectives]") {
  // The same 20 ms of GPU work, launched at once; the host waits for it only from 17 ms (a sync,
  // 3 ms), then works 8 ms with the GPU idle before one more short kernel: a host-bound idle phase
  // of 8 ms (28%) beside the GPU phase. Overlapping the 8 ms of exposed communication can give
  // back only the host's 3 ms of waiting while kernels ran (and the last kernel's drain).
  TraceBuilder b;
  std::int64_t t = 0, correlation = 1;
  auto kernel = [&](const std::string& name, std::int64_t length) {
    b.Api("cudaLaunchKernel", correlation * kUs, correlation * kUs + 1 * kUs, correlation);
    b.Kernel(name, t + 10 * kUs, t + length, correlation++);
    t += length;
  };
  for (int i = 0; i < 4; ++i)
    kernel("gemm_kernel_" + std::to_string(i), 3 * kMs);
  kernel("ncclKernel_AllReduce_RING_LL_Sum_float", 5 * kMs);
  kernel("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t", 3 * kMs);
  b.Api("cudaDeviceSynchronize", 17 * kMs, 20 * kMs + 5 * kUs);
  b.Op("postprocess", 20 * kMs + 10 * kUs, 28 * kMs);
  b.Api("cudaLaunchKernel", 28 * kMs, 28 * kMs + 5 * kUs, 100);
  b.Kernel("tail_kernel", 28 * kMs + 10 * kUs, 28 * kMs + 20 * kUs, 100);
  report::AnalysisReport r = Analyze(b.trace);
  const report::Diagnosis& d = r.diagnosis;
  INFO(d.next_experiment);
  for (const std::string& line : d.support)
    INFO(line);
  const report::Diagnosis* comm = &d;
  if (d.bottleneck != gpuperf::report::Bottleneck::kCommunicationBound && !d.secondary.empty())
    comm = &d.secondary.front();
  REQUIRE(comm->bottleneck == gpuperf::report::Bottleneck::kCommunicationBound);
  REQUIRE(comm->bound_speedup);
  // Uncapped: 1 / (1 - 8/28) = 1.4x. Held to about 3 ms of waits: about 1 / (1 - 3/28) = 1.12x.
  CHECK(*comm->bound_speedup < 1.15);
  CHECK(*comm->bound_speedup > 1.05);
  bool held = false;
  for (const std::string& line : comm->support)
    held = held || Contains(line, "Held to the host's waits for the GPU's kernels");
  CHECK(held);
}

TEST_CASE("profiler overhead: the options that inflate host time are said of what rests on it",
          "[diagnosis][host]") {
  TraceBuilder none;
  CHECK(analysis::ProfilerOverheadText(none.trace, false, "the host time").empty());
  TraceBuilder stacks;
  stacks.Frame("main.py(1): <module>", 0, 10);
  CHECK(analysis::ProfilerOverheadText(stacks.trace, false, "the host time that holds the gain") ==
        "The trace was recorded with Python stacks (with_stack): the profiler's per-operator work "
        "inflates the host time that holds the gain; confirm it with an unprofiled timing of the "
        "same steps (trace).");
  TraceBuilder shapes;
  shapes.trace.metadata.properties["record_shapes"] = "1";
  CHECK(Contains(analysis::ProfilerOverheadText(shapes.trace, false, "x"),
                 "recorded with shapes (record_shapes)"));
  CHECK(Contains(analysis::ProfilerOverheadText(stacks.trace, true, "x"),
                 "Python stacks and shapes (with_stack, record_shapes)"));
}

TEST_CASE("TF32 lever: the gain at today's efficiency is an estimate, the TF32 peak the ceiling",
          "[diagnosis][levers]") {
  // Five aten::mm calls of 4096^3 in FP32 (137 GFLOP each) on an A100, each 8.81 ms on an SIMT
  // sgemm: 80% of the 19.5 TFLOP/s FP32 peak. At 80% of the 156 TFLOP/s TF32 peak each would take
  // 1.10 ms (an assumption); at the TF32 peak itself 0.88 ms (the ceiling).
  const std::int64_t gemm_ns = 8'810'000;
  std::int64_t t = 0;
  auto build = [&](bool waits) {
    TraceBuilder b;
    b.trace.devices.push_back(
        {.id = 0, .name = "NVIDIA A100-SXM4-80GB", .compute_major = 8, .sm_count = 108});
    t = 0;
    for (int i = 0; i < 5; ++i) {
      gpuperf::model::HostOp& mm = b.Op("aten::mm", t, t + 50 * kUs);
      mm.input_dims = b.trace.strings.Intern("[[4096,4096],[4096,4096]]");
      mm.input_types = b.trace.strings.Intern(R"(["float","float"])");
      b.Api("cudaLaunchKernel", t + 10 * kUs, t + 20 * kUs, i + 1);
      b.Kernel("ampere_sgemm_128x64_tn", t + 30 * kUs, t + 30 * kUs + gemm_ns, i + 1);
      // The host waits for each GEMM: its own time does not cap the gain.
      if (waits)
        b.Api("cudaDeviceSynchronize", t + 25 * kUs, t + 30 * kUs + gemm_ns + 5 * kUs);
      t += 35 * kUs + gemm_ns;
    }
    return b;
  };
  TraceBuilder b = build(true);
  gpuperf::report::AnalysisReport r = Analyze(b.trace);
  const gpuperf::report::Diagnosis& d = r.diagnosis;
  INFO(gpuperf::report::ToString(d.bottleneck)
       << " / " << gpuperf::report::ToString(d.dominant_kind) << ": " << d.next_experiment);
  REQUIRE(d.lever == gpuperf::report::LeverKind::kTf32OrAmp);
  REQUIRE(d.bound_speedup_estimated);
  REQUIRE(d.bound_speedup);
  CHECK(*d.bound_speedup > *d.bound_speedup_estimated);
  const double wall = static_cast<double>(t);
  const double flops = 2.0 * 4096.0 * 4096.0 * 4096.0;
  const double at_fraction = flops / (156e12 * (flops / (gemm_ns * 1e-9) / 19.5e12)) * 1e9;
  CHECK(*d.bound_speedup_estimated ==
        Approx(wall / (wall - 5 * (gemm_ns - at_fraction))).epsilon(1e-3));
  CHECK(*d.bound_speedup ==
        Approx(wall / (wall - 5 * (gemm_ns - flops / 156e12 * 1e9))).epsilon(1e-3));
  CHECK(Contains(d.next_experiment, "about"));
  CHECK(Contains(d.next_experiment, "at the roof itself, which no kernel reaches"));
  CHECK(Contains(r.headline, "with each kernel at the efficiency it has now (an assumption)"));

  // Without the waits the host issues each GEMM only after the previous one ended (the GPU idles
  // for it in between): only the last GEMM's time is critical, so whatever the diagnosis
  // proposes gives back at most that one GEMM, its estimate and its share of the wall time
  // alike.
  gpuperf::report::AnalysisReport capped = Analyze(build(false).trace);
  const double paced_wall = static_cast<double>(t);
  const gpuperf::report::Diagnosis& c = capped.diagnosis;
  INFO(gpuperf::report::ToString(c.bottleneck) << ": " << c.next_experiment);
  REQUIRE(c.bound_speedup);
  // The window ends with the last GEMM, a few µs before t: 1e-3 of slack.
  CHECK(*c.bound_speedup <=
        Approx(paced_wall / (paced_wall - static_cast<double>(gemm_ns))).epsilon(1e-3));
  if (c.bound_speedup_estimated)
    CHECK(*c.bound_speedup_estimated <= *c.bound_speedup);
  CHECK(c.dominant_fraction <= Approx(static_cast<double>(gemm_ns) / paced_wall).epsilon(1e-3));
}
