// The application-level triage and the diagnosis: idle attribution, kernel classes, ceilings at
// the counters' clock, and the deliverable's fields on hand-built traces whose figures are
// computed by hand below.
#include "gpuperf/analyze.h"

#include <catch2/catch.hpp>

#include "analysis/kernel/ceilings_used.h"
#include "analysis/kernel/kernel_class.h"
#include "analysis/timeline/critical_time.h"
#include "analysis/timeline/idle_attribution.h"
#include "analysis/timeline/timeline.h"
#include "analysis_builder.h"
#include "model/ceilings.h"

using Catch::Detail::Approx;
using gpuperf::analysis::Analyze;
using gpuperf::analysis::AttributeIdle;
using gpuperf::analysis::ComputeTraceWindow;
using gpuperf::testing::Contains;
using gpuperf::testing::TraceBuilder;
namespace model = gpuperf::model;
namespace report = gpuperf::report;

namespace {

gpuperf::analysis::IdleAttribution Attribute(const model::Trace& trace) {
  std::vector<const model::GpuActivity*> all;
  for (const auto& a : trace.activities)
    all.push_back(&a);
  return AttributeIdle(trace, all, ComputeTraceWindow(trace));
}

// Window [0, 1'000'500]: a launch, a synchronized round trip, then 1 ms of host time.
TraceBuilder HostGapTrace() {
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 100, 1);
  b.Kernel("A", 100, 200, 1);
  b.Api("cudaDeviceSynchronize", 150, 210);
  b.Api("cudaLaunchKernel", 210, 260, 2);
  b.Kernel("B", 300, 400, 2);
  b.Api("cudaLaunchKernel", 1'000'000, 1'000'300, 3);
  b.Kernel("C", 1'000'400, 1'000'500, 3);
  return b;
}

void AddDevice(TraceBuilder& b, const char* name, int sms) {
  model::Device d;
  d.id = 0;
  d.name = name;
  d.compute_major = 9;
  d.compute_minor = 0;
  d.sm_count = sms;
  b.trace.devices.push_back(d);
}

}  // namespace

TEST_CASE("idle attribution: sync round trips, launch calls, host time and the edges",
          "[diagnosis]") {
  TraceBuilder b = HostGapTrace();
  auto idle = Attribute(b.trace);
  CHECK(idle.window_ns == 1'000'500);
  // [0,100) edge, [200,300) after a sync, [400,1'000'400) host.
  CHECK(idle.gaps == 3);
  CHECK(idle.idle_ns == 100 + 100 + 1'000'000);
  CHECK(idle.edge_ns == 100);
  CHECK(idle.sync_gaps == 1);
  CHECK(idle.sync_ns == 100);
  CHECK(idle.launch_ns == 100 + 300);
  CHECK(idle.other_api_ns == 0);
  CHECK(idle.host_ns == 1'000'000 - 300);
  CHECK(idle.host_work_ns == 0);
  CHECK_FALSE(idle.has_host_work_records);
}

TEST_CASE("idle attribution: a synchronization before long host work exposes host time",
          "[diagnosis]") {
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 100, 1);
  b.Kernel("A", 100, 200, 1);
  b.Api("cudaStreamSynchronize", 150, 250);
  b.Api("cudaLaunchKernel", 500'000, 500'100, 2);
  b.Kernel("B", 500'200, 500'300, 2);
  auto idle = Attribute(b.trace);
  CHECK(idle.sync_gaps == 0);
  CHECK(idle.sync_exposed_gaps == 1);
  // The gap [200, 500'200): sync covers 50, launch 100, the rest is host.
  CHECK(idle.host_ns == 500'000 - 50 - 100);
  CHECK(idle.other_api_ns == 50);
}

TEST_CASE(
    "diagnosis: a mostly idle GPU with no CUDA call in the gaps is a host-bound "
    "hypothesis, host operators there make it a finding",
    "[diagnosis]") {
  TraceBuilder b = HostGapTrace();
  report::AnalysisReport r = Analyze(b.trace);
  const report::Diagnosis& d = r.diagnosis;
  CHECK(d.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  CHECK(d.status == report::DiagnosisStatus::kHypothesis);
  CHECK(d.evidence == gpuperf::report::EvidenceTier::kInferred);
  CHECK(d.dominant_kind == gpuperf::report::DominantKind::kIdle);
  CHECK(d.dominant_fraction == Approx(1'000'200.0 / 1'000'500.0));
  REQUIRE(d.bound_speedup);
  CHECK(*d.bound_speedup == Approx(1.0 / (1.0 - 999'700.0 / 1'000'500.0)));
  CHECK_FALSE(d.missing_evidence.empty());
  CHECK_FALSE(d.falsified_by.empty());
  REQUIRE(d.triage.size() == 1);
  CHECK(d.triage[0].question == report::TriageQuestion::kGpuIdle);
  CHECK(d.triage[0].answer == report::TriageAnswer::kYes);

  // Two framework ops cover 799'500 of the 999'700 ns host gap (each under half the window).
  model::HostOp op;
  op.name = b.trace.strings.Intern("aten::cat");
  op.start_ns = 500;
  op.end_ns = 400'000;
  b.trace.host_ops.push_back(op);
  op.name = b.trace.strings.Intern("aten::copy_");
  op.start_ns = 400'000;
  op.end_ns = 800'000;
  b.trace.host_ops.push_back(op);
  report::Diagnosis with_ops = Analyze(b.trace).diagnosis;
  CHECK(with_ops.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  CHECK(with_ops.status == report::DiagnosisStatus::kFinding);
  CHECK(with_ops.evidence == gpuperf::report::EvidenceTier::kMeasured);
  CHECK(with_ops.missing_evidence.empty());
  auto idle = Attribute(b.trace);
  CHECK(idle.host_work_ns == 800'000 - 500);
  REQUIRE(idle.top_host_work.size() == 2);
  CHECK(idle.top_host_work[0] == std::pair<std::string, std::int64_t>{"aten::copy_", 400'000});
  CHECK(idle.top_host_work[1] == std::pair<std::string, std::int64_t>{"aten::cat", 399'500});
  // A range enclosing more than half the window says nothing about the gaps.
  b.trace.host_ops.clear();
  b.AddRange(model::RangeKind::kNvtx, "main", 0, 1'000'500);
  CHECK(Analyze(b.trace).diagnosis.status == report::DiagnosisStatus::kHypothesis);
}

TEST_CASE(
    "idle attribution: OS runtime calls of the launching threads are host work and CPU samples "
    "estimate the rest",
    "[diagnosis]") {
  TraceBuilder b = HostGapTrace();  // host gap [400, 1'000'000) on pid 100, tid 101
  auto os_call = [&](const char* name, std::int64_t start, std::int64_t end, std::int64_t tid) {
    model::OsCall c;
    c.name = b.trace.strings.Intern(name);
    c.start_ns = start;
    c.end_ns = end;
    c.pid = 100;
    c.tid = tid;
    b.trace.os_calls.push_back(c);
  };
  os_call("write", 1'000, 401'000, 101);
  os_call("fflush", 1'000, 2'000, 101);  // nested in write: the union is counted once
  os_call("poll", 1'000, 900'000, 999);  // a thread that launches nothing holds nothing back
  auto sample = [&](const char* function, std::int64_t t, std::int64_t tid) {
    model::CpuSample s;
    s.function = b.trace.strings.Intern(function);
    s.time_ns = t;
    s.pid = 100;
    s.tid = tid;
    b.trace.cpu_samples.push_back(s);
  };
  // One sample per 100 us on the launching thread; those at 500..900 us fall where neither a
  // CUDA call nor the write covers the gap.
  for (std::int64_t t = 0; t <= 1'000'000; t += 100'000)
    sample(t >= 700'000 ? "[libcuda.so.1]" : "main_loop", t, 101);
  sample("worker", 550'000, 999);
  sample("worker", 650'000, 999);
  auto idle = Attribute(b.trace);
  CHECK(idle.host_ns == 999'700);
  CHECK(idle.host_work_ns == 400'000);
  CHECK(idle.host_other_ns == 400'000);
  REQUIRE(idle.top_host_work.size() == 2);
  CHECK(idle.top_host_work[0] == std::pair<std::string, std::int64_t>{"write", 400'000});
  CHECK(idle.sampled_host_samples == 5);
  CHECK(idle.sample_interval_ns == 100'000);
  CHECK(idle.sampled_host_ns == 500'000);
  REQUIRE(idle.top_sampled_host.size() == 2);
  CHECK(idle.top_sampled_host[0] ==
        std::pair<std::string, std::int64_t>{"[libcuda.so.1]", 300'000});
  CHECK(idle.top_sampled_host[1] == std::pair<std::string, std::int64_t>{"main_loop", 200'000});

  // Under half the host time is recorded and 5 samples are too few to name the rest: a
  // hypothesis, which says so; the trace's own samples are never asked for.
  report::Diagnosis d = Analyze(b.trace).diagnosis;
  CHECK(d.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  CHECK(d.status == report::DiagnosisStatus::kHypothesis);
  CHECK(d.next_experiment.find("CPU sampling") == std::string::npos);
  auto said = [](const report::Diagnosis& diagnosis, const std::string& text) {
    for (const std::string& s : diagnosis.support) {
      if (s.find(text) != std::string::npos)
        return true;
    }
    return false;
  };
  CHECK(said(d, "most in write (400 µs), fflush (1.00 µs)"));
  CHECK(said(d, "Only 5 CPU samples of the launching threads fall in the rest of it"));
  CHECK(idle.os_call_ns == 400'000);
  CHECK(idle.os_calls_in_gaps == 2);  // write and the fflush inside it; poll is on another thread
  // The OS calls are a finding of their own, bounded by the idle they cover.
  report::AnalysisReport with_calls = Analyze(b.trace);
  const report::Finding* calls = nullptr;
  for (const report::Finding& f : with_calls.findings) {
    if (f.id == "host_os_calls")
      calls = &f;
  }
  REQUIRE(calls != nullptr);
  CHECK(calls->time_ns == 400'000);
  CHECK(calls->count == 2);
  CHECK(calls->severity == report::Severity::kWarning);
  REQUIRE(calls->bound_speedup_if_removed);
  CHECK(*calls->bound_speedup_if_removed ==
        Approx(1.0 / (1.0 - 400'000.0 / static_cast<double>(idle.steady_window_ns))));

  // One sample per 10 us instead: 60 of them name what filled the rest, so the host time is
  // explained (recorded 400 us + sampled 599.7 us) and host-bound is a finding whose experiment
  // names the sampled function, marked as samples.
  b.trace.cpu_samples.clear();
  for (std::int64_t t = 0; t <= 1'000'000; t += 10'000)
    sample(t >= 800'000 ? "[libToolsInjection64.so]" : "main_loop", t, 101);
  idle = Attribute(b.trace);
  CHECK(idle.sampled_host_samples == 59);  // 410 us .. 990 us
  CHECK(idle.sampled_host_ns == 590'000);
  CHECK(idle.sampled_other_ns == 590'000);  // neither is a CUDA library frame
  REQUIRE(idle.top_sampled_host.size() == 2);
  CHECK(idle.top_sampled_host[0].first == "main_loop");
  CHECK(idle.top_sampled_host[1].first == "[libToolsInjection64.so] (the profiler itself)");
  report::Diagnosis found = Analyze(b.trace).diagnosis;
  CHECK(found.bottleneck == gpuperf::report::Bottleneck::kHostBound);
  CHECK(found.status == report::DiagnosisStatus::kFinding);
  CHECK(found.next_experiment.find("main_loop (390 µs, samples)") != std::string::npos);
  CHECK(found.next_experiment.find("It is not CUDA dispatch") != std::string::npos);
  CHECK(said(found, "59 samples at one per 10.0 µs"));
  // Samples inside main itself: its own (inlined) code, said so, not "the whole program".
  b.trace.cpu_samples.clear();
  for (std::int64_t t = 0; t <= 1'000'000; t += 10'000)
    sample("main", t, 101);
  idle = Attribute(b.trace);
  REQUIRE(idle.top_sampled_host.size() == 1);
  CHECK(idle.top_sampled_host[0].first.rfind("main (its own code, loops inlined into it: no finer",
                                             0) == 0);
}

TEST_CASE("diagnosis: a synchronize-every-kernel loop is sync-bound", "[diagnosis]") {
  TraceBuilder b;
  // 10 x (launch 100 ns, kernel 300 ns, a sync that returns 100 ns after it), period 1000 ns.
  for (int i = 0; i < 10; ++i) {
    std::int64_t t = i * 1'000;
    b.Api("cudaLaunchKernel", t, t + 100, i + 1);
    b.Kernel("k", t + 200, t + 500, i + 1);
    b.Api("cudaStreamSynchronize", t + 100, t + 600);
  }
  auto idle = Attribute(b.trace);
  // Window [0, 9600]: the edges [0,200) and [9500,9600) and 9 x 700 ns between kernels, each
  // overlapped by a sync and holding 500 ns with no call (under 100 us: the round trip).
  CHECK(idle.sync_gaps == 11);
  CHECK(idle.sync_ns == 200 + 9 * 700 + 100);
  report::Diagnosis d = Analyze(b.trace).diagnosis;
  CHECK(d.bottleneck == gpuperf::report::Bottleneck::kSyncBound);
  CHECK(d.status == report::DiagnosisStatus::kFinding);
  REQUIRE(d.bound_speedup);
  // The statement's advice removes the synchronizations: its bound is their finding's cost, the
  // loop's cycles (8 x 500 ns, the last 100 ns) and the first wait's 500 ns, 4.6 us; a replay
  // without the waits ends at 5.0 us (kernels every 500 ns, the last ending 400 ns after its
  // launch): 9.6 / 5.0. Every round trip (6.6 us) would say 3.2x, which the host's 500 ns per
  // iteration rules out.
  CHECK(*d.bound_speedup == Approx(9'600.0 / 5'000.0));
  CHECK(d.next_experiment.find("synchronization") != std::string::npos);
  // Recorded with Python stacks: the host time between the waits is profiled host time.
  b.trace.metadata.properties["with_stack"] = "1";
  report::Diagnosis profiled = Analyze(b.trace).diagnosis;
  REQUIRE(profiled.bottleneck == gpuperf::report::Bottleneck::kSyncBound);
  bool said = false;
  for (const std::string& line : profiled.support)
    said = said || line.find(
                       "recorded with Python stacks (with_stack): the profiler's "
                       "per-operator work inflates the host time between the waits that "
                       "this bound rests on") != std::string::npos;
  CHECK(said);
}

TEST_CASE("diagnosis: exposed copies are transfer-bound", "[diagnosis]") {
  TraceBuilder b;
  b.Api("cudaMemcpy", 0, 8'000, 1);
  b.Memcpy(model::CopyKind::kHtoD, 0, 8'000, 1 << 20, 1);
  b.Api("cudaLaunchKernel", 8'000, 8'100, 2);
  b.Kernel("k", 8'100, 10'000, 2);
  report::Diagnosis d = Analyze(b.trace).diagnosis;
  CHECK(d.bottleneck == gpuperf::report::Bottleneck::kTransferBound);
  CHECK(d.status == report::DiagnosisStatus::kFinding);
  CHECK(d.dominant_kind == gpuperf::report::DominantKind::kCopy);
  CHECK(d.dominant_name == "[CUDA memcpy HtoD]");
  CHECK(d.dominant_fraction == Approx(0.8));
  REQUIRE(d.triage.size() == 2);
  CHECK(d.triage[0].answer == report::TriageAnswer::kNo);
  CHECK(d.triage[1].answer == report::TriageAnswer::kYes);
}

TEST_CASE(
    "diagnosis: a busy GPU without counters or models names the dominant kernel and a "
    "hypothesis",
    "[diagnosis]") {
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 100, 1);
  b.Kernel("big", 100, 900'100, 1);
  b.Api("cudaLaunchKernel", 200, 300, 2);
  b.Kernel("small", 900'100, 1'000'100, 2);
  report::AnalysisReport r = Analyze(b.trace);
  const report::Diagnosis& d = r.diagnosis;
  CHECK(d.dominant_kind == gpuperf::report::DominantKind::kKernel);
  CHECK(d.dominant_name == "big");
  CHECK(d.bottleneck == gpuperf::report::Bottleneck::kUnknown);
  CHECK(d.status == report::DiagnosisStatus::kHypothesis);
  CHECK(d.next_experiment.find("Nsight Compute") != std::string::npos);
  CHECK_FALSE(d.missing_evidence.empty());
  REQUIRE(d.triage.size() == 4);
  CHECK(d.triage[3].question == report::TriageQuestion::kDominantWork);
}

TEST_CASE("diagnosis: an empty trace says so", "[diagnosis]") {
  TraceBuilder b;
  b.Api("cudaGetDeviceCount", 0, 10);
  report::Diagnosis d = Analyze(b.trace).diagnosis;
  CHECK(d.dominant_kind == gpuperf::report::DominantKind::kNone);
  CHECK(d.bottleneck == gpuperf::report::Bottleneck::kUnknown);
  CHECK(d.status == report::DiagnosisStatus::kHypothesis);
}

TEST_CASE("kernel classes: microsecond kernels under one wave are launch-bound", "[diagnosis]") {
  TraceBuilder b;
  AddDevice(b, "NVIDIA H100 80GB HBM3", 132);
  model::GpuActivity& k = b.Kernel("tiny", 0, 3'000);
  k.grid = {4, 1, 1};
  k.block = {128, 1, 1};
  b.Kernel("long", 10'000, 110'000).grid = {4, 1, 1};
  report::AnalysisReport r = Analyze(b.trace);
  for (const report::KernelRow& row : r.kernels) {
    INFO(row.name);
    if (row.name == "tiny") {
      CHECK(row.classification.bound == gpuperf::report::KernelBound::kLaunch);
      CHECK(row.classification.evidence == gpuperf::report::EvidenceTier::kMeasured);
      CHECK(row.classification.reason.find("0.03 of one wave") != std::string::npos);
    } else {
      // 100 us: not small, and 4 blocks leave most of 132 SMs idle: its grid bounds it.
      CHECK(row.classification.bound == gpuperf::report::KernelBound::kLatency);
      CHECK(row.classification.basis == "launch_grid");
    }
  }
  b.trace.devices.clear();
  for (const report::KernelRow& row : Analyze(b.trace).kernels) {
    if (row.name == "tiny")
      CHECK(row.classification.evidence == gpuperf::report::EvidenceTier::kInferred);
  }
}

TEST_CASE("kernel classes: tensor cores expected but unused needs measured evidence",
          "[diagnosis]") {
  TraceBuilder b;
  std::vector<report::KernelRow> rows(1);
  rows[0].name = "my_hgemm_kernel";
  rows[0].duration_ns.med = 50'000;
  report::KernelRoofline roof;
  roof.precision = "fp16";
  roof.unit = "vector";
  rows[0].roofline = roof;
  rows[0].tensor_cores =
      report::TensorCoreEvidence{false, report::EvidenceTier::kMeasured, "sass", {}, "no HMMA"};
  gpuperf::analysis::ClassifyKernels(b.trace, rows);
  CHECK(rows[0].classification.tensor_cores_expected_but_unused);
  rows[0].tensor_cores->evidence = gpuperf::report::EvidenceTier::kInferred;
  gpuperf::analysis::ClassifyKernels(b.trace, rows);
  CHECK_FALSE(rows[0].classification.tensor_cores_expected_but_unused);
  rows[0].tensor_cores->evidence = gpuperf::report::EvidenceTier::kMeasured;
  rows[0].name = "elementwise_add";  // half precision, but no matrix shape
  gpuperf::analysis::ClassifyKernels(b.trace, rows);
  CHECK_FALSE(rows[0].classification.tensor_cores_expected_but_unused);
}

TEST_CASE("ceilings: compute peaks scale to the counters' SM clock, bandwidth does not",
          "[diagnosis][ceilings]") {
  auto match = model::FindCeilings("NVIDIA H100 80GB HBM3", 9, 0);
  REQUIRE(match.entry);
  model::DeviceCeilings at = model::AtSmClock(*match.entry, 1.485e9);
  CHECK(*at.fp32.vector == Approx(67e12 * 1.485 / 1.98));
  CHECK(*at.dram_bytes_per_s == *match.entry->dram_bytes_per_s);

  TraceBuilder b;
  AddDevice(b, "NVIDIA H100 80GB HBM3", 132);
  for (int i = 0; i < 3; ++i) {
    b.Kernel("k", i * 100, i * 100 + 50);
    model::KernelCounters c;
    c.activity = static_cast<std::size_t>(i);
    c.metrics["gpc__cycles_elapsed.avg.per_second"] = i == 2 ? 1.6e9 : 1.485e9;
    b.trace.counters.push_back(c);
  }
  CHECK(*gpuperf::analysis::CountersSmClockHz(b.trace, 0) == Approx(1.485e9));
  auto roofs = gpuperf::analysis::RoofsOf(b.trace, 0);
  REQUIRE(roofs.scaled);
  CHECK(*roofs.ForCounters()->fp32.vector == Approx(67e12 * 1.485 / 1.98));
  // Within 2% of boost: unscaled.
  for (auto& c : b.trace.counters)
    c.metrics["gpc__cycles_elapsed.avg.per_second"] = 1.97e9;
  CHECK_FALSE(gpuperf::analysis::RoofsOf(b.trace, 0).scaled);
}

TEST_CASE("roofline: replay spans give no achieved rates unless gpu__time_duration is recorded",
          "[diagnosis]") {
  TraceBuilder b;
  AddDevice(b, "NVIDIA H100 80GB HBM3", 132);
  b.Kernel("k", 0, 121'431'000);
  model::KernelCounters c;
  c.activity = 0;
  c.replay_span = true;
  c.metrics["dram__bytes_read.sum"] = 3.35e9;
  c.metrics["dram__bytes_write.sum"] = 0;
  for (const char* op : {"fadd", "fmul", "ffma"})
    c.metrics[std::string("smsp__sass_thread_inst_executed_op_") + op + "_pred_on.sum"] = 0;
  b.trace.counters.push_back(c);
  report::AnalysisReport r = Analyze(b.trace);
  REQUIRE(r.kernels.size() == 1);
  REQUIRE(r.kernels[0].roofline);
  CHECK_FALSE(r.kernels[0].roofline->achieved_bytes_per_s);
  CHECK(r.kernels[0].roofline->bound == gpuperf::report::KernelBound::kUnknown);
  CHECK(r.diagnosis.status == report::DiagnosisStatus::kHypothesis);
  CHECK(r.diagnosis.missing_evidence.find("replay spans") != std::string::npos);

  b.trace.counters[0].metrics["gpu__time_duration.sum"] = 1'000'000;  // 1 ms
  report::AnalysisReport timed = Analyze(b.trace);
  REQUIRE(timed.kernels[0].roofline->achieved_bytes_per_s);
  CHECK(*timed.kernels[0].roofline->achieved_bytes_per_s == Approx(3.35e12));
  CHECK(timed.kernels[0].roofline->bound == gpuperf::report::KernelBound::kMemory);
  CHECK(timed.kernels[0].classification.bound == gpuperf::report::KernelBound::kMemory);
  CHECK(timed.kernels[0].classification.evidence == gpuperf::report::EvidenceTier::kMeasured);
}

TEST_CASE("gemm alignment: only the excess over an aligned kernel comes back, capped at the roof",
          "[diagnosis][findings]") {
  constexpr std::int64_t kMs = 1'000'000;
  auto find = [](const report::AnalysisReport& r) -> const report::Finding* {
    for (const report::Finding& f : r.findings) {
      if (f.id == "gemm_misaligned")
        return &f;
    }
    return nullptr;
  };
  const char* kMisaligned = "cutlass_80_tensorop_s1688gemm_256x128_32x3_nn_align1";
  TraceBuilder b;
  AddDevice(b, "NVIDIA H100 80GB HBM3", 132);
  b.Kernel(kMisaligned, 0, 3 * kMs);
  b.Kernel("elementwise", 3 * kMs, 10 * kMs);
  // Without a floor: the aligned kernel assumed 2x faster gives back half of the 3 ms.
  report::AnalysisReport r = Analyze(b.trace);
  const report::Finding* f = find(r);
  REQUIRE(f != nullptr);
  CHECK(f->time_ns == 3 * kMs);
  REQUIRE(f->recoverable_ns);
  CHECK(*f->recoverable_ns == 1'500'000);
  CHECK(f->recoverable_basis == "the aligned kernels assumed 2x faster");
  // The ceiling beside the estimate: the kernels' whole 3 ms of the 10 ms window.
  CHECK(f->summary.find("Their whole time would bound the gain at 1.43x") != std::string::npos);
  REQUIRE(f->bound_speedup_if_removed);
  CHECK(*f->bound_speedup_if_removed == Approx(1.0 / (1.0 - 0.15)));

  // Counters put its DRAM floor at 2.5 ms (8.375 GB at 3.35 TB/s): only 0.5 ms lies above it.
  model::KernelCounters c;
  c.activity = 0;
  c.metrics["dram__bytes_read.sum"] = 8.375e9;
  c.metrics["dram__bytes_write.sum"] = 0;
  c.metrics["gpu__time_duration.sum"] = 3e6;
  for (const char* op : {"fadd", "fmul", "ffma"})
    c.metrics[std::string("smsp__sass_thread_inst_executed_op_") + op + "_pred_on.sum"] = 0;
  b.trace.counters.push_back(c);
  report::AnalysisReport capped = Analyze(b.trace);
  f = find(capped);
  REQUIRE(f != nullptr);
  REQUIRE(f->recoverable_ns);
  CHECK(*f->recoverable_ns == Approx(500'000).margin(1'000));
  CHECK(f->recoverable_basis ==
        "the aligned kernels assumed 2x faster, 1 of them capped at their measured roofline floor");
  CHECK(*f->bound_speedup_if_removed == Approx(1.0 / (1.0 - 0.05)).epsilon(0.001));
}

TEST_CASE(
    "gemm alignment: the launching operators' shapes name the dimensions to pad, and launches "
    "before the steady-state window are left out",
    "[diagnosis][findings]") {
  constexpr std::int64_t kMs = 1'000'000;
  constexpr std::int64_t kUs = 1'000;
  const char* kMisaligned = "cutlass_80_tensorop_s1688gemm_256x128_32x3_nn_align1";  // fp32
  TraceBuilder b;
  AddDevice(b, "NVIDIA H100 80GB HBM3", 132);
  // The previous step's tail: a misaligned kernel with no launch call in the trace (pre-roll).
  b.Kernel(kMisaligned, 0, 2 * kMs);
  // Three aten::mm calls on [4096, 2798] x [2798, 512]: 2798 is no multiple of 4 fp32 elements;
  // 4096 and 512 are. One aten::bmm on [8, 30, 64] x [8, 64, 30]: 30 is not; the batch 8 is no
  // matrix dimension.
  std::int64_t t = 3 * kMs;
  int id = 0;
  auto launch = [&](const char* op, const char* dims, std::int64_t length) {
    b.Op(op, t, t + 50 * kUs).input_dims = b.trace.strings.Intern(dims);
    b.Api("cudaLaunchKernel", t + 10 * kUs, t + 20 * kUs, ++id);
    b.Kernel(kMisaligned, t + 30 * kUs, t + 30 * kUs + length, id);
    t += 30 * kUs + length;
  };
  for (int i = 0; i < 3; ++i)
    launch("aten::mm", "[[4096,2798],[2798,512]]", kMs);
  launch("aten::bmm", "[[8,30,64],[8,64,30]]", 500 * kUs);
  b.Api("cudaLaunchKernel", t, t + 10 * kUs, ++id);  // one launch without an operator
  b.Kernel(kMisaligned, t + 20 * kUs, t + 120 * kUs, id);
  report::AnalysisReport r = Analyze(b.trace);
  const report::Finding* f = nullptr;
  for (const report::Finding& finding : r.findings)
    f = finding.id == "gemm_misaligned" ? &finding : f;
  REQUIRE(f != nullptr);
  CHECK(f->count == 5);  // the pre-roll's launch is not the window's
  CHECK(f->time_ns == 3 * kMs + 500 * kUs + 100 * kUs);
  CHECK(Contains(f->summary, "1 more launch (2.00 ms) lies before the steady-state window"));
  CHECK(Contains(f->summary,
                 "The operators that launched 4 of the 5 of them recorded shapes whose matrix "
                 "dimensions are not a multiple of the aligned access, by the launches that hold "
                 "each set (one of them sets a leading dimension; pad all of a set): 2798 (pad to "
                 "2800; aten::mm; 3 launches, 3.00 ms); 30 (pad to 32; aten::bmm; 1 launch, 500 "
                 "µs)"));
  // A launch holding two such dimensions needs both padded; a region's inputs are said to be
  // no GEMM's operands.
  t += kMs;
  b.Op("CompiledFunction", t, t + 50 * kUs).input_dims =
      b.trace.strings.Intern("[[512,2862],[2862,30]]");
  b.Api("cudaLaunchKernel", t + 10 * kUs, t + 20 * kUs, 99);
  b.Kernel(kMisaligned, t + 30 * kUs, t + 30 * kUs + 5 * kMs, 99);
  r = Analyze(b.trace);
  f = nullptr;
  for (const report::Finding& finding : r.findings)
    f = finding.id == "gemm_misaligned" ? &finding : f;
  REQUIRE(f != nullptr);
  INFO(f->summary);
  CHECK(Contains(f->summary,
                 ": 30 and 2862 (pad to 32 and 2864; CompiledFunction, a region's inputs: the "
                 "GEMM's own operands may differ; 1 launch, 5.00 ms); 2798"));
  CHECK_FALSE(Contains(f->summary, " 4096 (pad"));
  CHECK_FALSE(Contains(f->summary, " 8 (pad"));
}

TEST_CASE("clocks: Hopper's tensor peaks hold at 1.83 GHz, its FP32 and FP64 at 1.98 GHz",
          "[diagnosis]") {
  auto match = model::FindCeilings("NVIDIA H200", 9, 0);
  REQUIRE(match.entry);
  // The H200 MLP's counter pass ran at 1.579 GHz.
  model::DeviceCeilings at = model::AtSmClock(*match.entry, 1.579e9);
  CHECK(*at.bf16.tensor == Approx(989.5e12 * 1.579 / 1.83));
  CHECK(*at.fp8.tensor == Approx(1979e12 * 1.579 / 1.83));
  CHECK(*at.fp32.vector == Approx(67e12 * 1.579 / 1.98));
  CHECK(*at.fp64.tensor == Approx(67e12 * 1.579 / 1.98));
  // Above the tensor clock the datasheet's tensor figure is the most there is.
  model::DeviceCeilings boost = model::AtSmClock(*match.entry, 1.9e9);
  CHECK(*boost.bf16.tensor == Approx(989.5e12));
  CHECK(*boost.fp32.vector == Approx(67e12 * 1.9 / 1.98));
}

TEST_CASE("clocks: joined counters scale the roofs when the trace's durations agree with theirs",
          "[diagnosis]") {
  // Counters joined from another run (analyze --counters, a baseline's counter pass) at 1.58 GHz.
  // When the trace's durations of the same launches match gpu__time_duration.sum, the trace ran
  // at that clock too.
  auto build = [](double traced_over_replayed) {
    TraceBuilder b;
    AddDevice(b, "NVIDIA H200", 132);
    for (int i = 0; i < 3; ++i) {
      const std::int64_t start = i * 1'000'000;
      b.Kernel("gemm", start, start + static_cast<std::int64_t>(345'000 * traced_over_replayed));
      model::KernelCounters c;
      c.activity = static_cast<std::size_t>(i);
      c.metrics["sm__cycles_elapsed.avg.per_second"] = 1.58e9;
      c.metrics["gpu__time_duration.sum"] = 345'000;
      b.trace.counters.push_back(c);
    }
    b.trace.diagnostics.Count(model::Diagnostic::kCountersNcuLaunches, 3);
    return b;
  };
  CHECK(gpuperf::analysis::RoofsOf(build(1.01).trace, 0).scaled);
  // A trace 20% slower than the replayed launches ran at another clock: the roofs stay.
  CHECK_FALSE(gpuperf::analysis::RoofsOf(build(1.2).trace, 0).scaled);
}

TEST_CASE("idle attribution: a wait gives back at most its length of the round trip after it",
          "[diagnosis][idle]") {
  // A runs 100-200; the host waits for it 150-210 (60 ns), then works 210-800 before launching B,
  // which starts at 900: a 700 ns gap after the drain. Without the wait the host work starts
  // 60 ns sooner, and so does B: 60 ns come back, not the 700 ns round trip.
  TraceBuilder b;
  b.Api("cudaLaunchKernel", 0, 100, 1);
  b.Kernel("A", 100, 200, 1);
  b.Api("cudaDeviceSynchronize", 150, 210);
  b.Op("aten::item_consumer", 210, 800);
  b.Api("cudaLaunchKernel", 800, 810, 2);
  b.Kernel("B", 900, 1000, 2);
  gpuperf::analysis::IdleAttribution idle = Attribute(b.trace);
  REQUIRE(idle.round_trip_gaps.size() == 1);
  CHECK(idle.CausedBy({{150, 210}}) == 60);
  // A wait longer than the gap after it: all of the gap from the wait's start is its doing.
  TraceBuilder quick;
  quick.Api("cudaLaunchKernel", 0, 100, 1);
  quick.Kernel("A", 100, 600, 1);
  quick.Api("cudaDeviceSynchronize", 150, 610);
  quick.Api("cudaLaunchKernel", 610, 620, 2);
  quick.Kernel("B", 640, 700, 2);
  gpuperf::analysis::IdleAttribution quick_idle = Attribute(quick.trace);
  REQUIRE(quick_idle.round_trip_gaps.size() == 1);
  CHECK(quick_idle.CausedBy({{150, 610}}) == 40);  // the 600-640 round trip
}
