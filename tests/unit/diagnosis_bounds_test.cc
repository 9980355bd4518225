// Bounds that say what the change they name removes (issue 14, review 55): a wait-type finding's
// rows by the host time each call held, the named host work's own bound beside the bound over all
// host work in the gaps, host work after a captured forward beside its GPU work, a sync-bound
// statement bounded by its finding's cost, and a launch-cutting change's ceiling with the GPU's
// idle gone. Every figure is computed by hand below.
#include "gpuperf/analyze.h"

#include <catch2/catch.hpp>

#include <string>

#include "analysis/core/names.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis_builder.h"

using Catch::Detail::Approx;
using gpuperf::analysis::Analyze;
using gpuperf::testing::Contains;
using gpuperf::testing::TraceBuilder;
namespace analysis = gpuperf::analysis;
namespace model = gpuperf::model;
namespace report = gpuperf::report;

namespace {

constexpr std::int64_t kMs = 1'000'000;
constexpr std::int64_t kUs = 1'000;

const report::Finding* Find(const report::AnalysisReport& r, std::string_view id) {
  for (const report::Finding& f : r.findings) {
    if (f.id == id)
      return &f;
  }
  return nullptr;
}

std::size_t Column(const report::Finding& f, const std::string& title) {
  for (std::size_t i = 0; i < f.columns.size(); ++i) {
    if (f.columns[i] == title)
      return i;
  }
  return f.columns.size();
}

}  // namespace

TEST_CASE("copies: each row says how long its call held the host, longest first",
          "[diagnosis][waits]") {
  // Two device-to-pageable copies: the first takes 50 us on the GPU and holds the host 60 us;
  // the second takes 2 us on the GPU and holds the host 8 ms (it waits for kernel A).
  TraceBuilder b;
  b.Api("cudaMemcpyAsync", 0, 60 * kUs, 1);
  b.Memcpy(model::CopyKind::kDtoH,
           5 * kUs,
           55 * kUs,
           4096,
           1,
           model::MemoryKind::kDevice,
           model::MemoryKind::kPageable);
  b.Api("cudaLaunchKernel", 100 * kUs, 105 * kUs, 2);
  b.Kernel("A", 110 * kUs, 8 * kMs, 2);
  b.Api("cudaMemcpyAsync", 120 * kUs, 8 * kMs + 120 * kUs, 3);
  b.Memcpy(model::CopyKind::kDtoH,
           8 * kMs + 10 * kUs,
           8 * kMs + 12 * kUs,
           64,
           3,
           model::MemoryKind::kDevice,
           model::MemoryKind::kPageable);
  report::AnalysisReport r = Analyze(b.trace);
  const report::Finding* f = Find(r, "pageable_async_memcpy");
  REQUIRE(f != nullptr);
  const std::size_t blocked = Column(*f, "Host blocked (ns)");
  REQUIRE(blocked < f->columns.size());
  CHECK(f->columns.back() == "GPU idle caused (ns)");
  CHECK(blocked + 1 == f->columns.size() - 1);
  REQUIRE(f->rows.size() == 2);
  // By host time blocked, not by the copy's GPU time (nsys's order would put the 50 us first).
  CHECK(f->rows[0].cells[blocked] == std::to_string(8 * kMs));
  CHECK(f->rows[0].cells[0] == std::to_string(2 * kUs));
  CHECK(f->rows[1].cells[blocked] == std::to_string(60 * kUs));
}

TEST_CASE("host-bound: the named host work gets its own bound beside all of the gaps' host work",
          "[diagnosis][host]") {
  // 9 ms of Python work before one 4 ms kernel. The three largest frames by self time
  // (normalize 4 ms, decode 2 ms, astype 1 ms) are named; four 0.5 ms glue frames are not.
  // All of it gone: 13 / (13 - 9.01) at most; the named 7 ms alone: 13 / (13 - 7) = 2.17x.
  TraceBuilder b;
  b.Api("cudaGetDevice", 0, 1 * kUs);
  b.Frame("prep.py(10): normalize", 1 * kUs, 4 * kMs + 1 * kUs);
  b.Frame("prep.py(20): glue_a", 4 * kMs + 1 * kUs, 4 * kMs + 501 * kUs);
  b.Frame("video.py(5): decode", 4 * kMs + 501 * kUs, 6 * kMs + 501 * kUs);
  b.Frame("prep.py(30): glue_b", 6 * kMs + 501 * kUs, 7 * kMs + 1 * kUs);
  b.Frame("<built-in method astype of numpy.ndarray object at 0x7f00aa>",
          7 * kMs + 1 * kUs,
          8 * kMs + 1 * kUs);
  b.Frame("prep.py(40): glue_c", 8 * kMs + 1 * kUs, 8 * kMs + 501 * kUs);
  b.Frame("prep.py(50): glue_d", 8 * kMs + 501 * kUs, 9 * kMs + 1 * kUs);
  b.Api("cudaLaunchKernel", 9 * kMs + 1 * kUs, 9 * kMs + 6 * kUs, 1);
  b.Kernel("A", 9 * kMs + 10 * kUs, 13 * kMs, 1);
  report::AnalysisReport r = Analyze(b.trace);
  const report::Diagnosis& d = r.diagnosis;
  REQUIRE(d.bottleneck == report::Bottleneck::kHostBound);
  INFO(d.next_experiment);
  // The address is not shown: it differs run to run.
  CHECK(Contains(d.next_experiment, "<built-in method astype of numpy.ndarray object> (1.00 ms"));
  CHECK_FALSE(Contains(d.next_experiment, "0x7f00aa"));
  CHECK(Contains(d.next_experiment,
                 "all the host work in the gaps taking no time, the whole program is at most"));
  CHECK(Contains(d.next_experiment,
                 "the named work, with what it calls, covers 7.00 ms of the gaps: making only "
                 "it free gives at most 2.17x"));
  REQUIRE(d.bound_speedup_named);
  CHECK(*d.bound_speedup_named == Approx(13.0 / (13.0 - 6.999)).epsilon(1e-3));
  CHECK(*d.bound_speedup_named < *d.bound_speedup);
  CHECK(Contains(r.headline, "(2.17x if only the work it names does)"));

  // NamedHostWorkIn counts what a named frame calls (inclusive), only inside the gaps.
  TraceBuilder nested;
  nested.Frame("normalize", 0, 10 * kMs);
  nested.Frame("numpy_inner", 2 * kMs, 4 * kMs);
  nested.Op("aten::to", 12 * kMs, 13 * kMs);
  CHECK(analysis::NamedHostWorkIn(nested.trace, {"normalize"}, {{0, 20 * kMs}}) == 10 * kMs);
  CHECK(analysis::NamedHostWorkIn(nested.trace, {"normalize", "aten::to"}, {{5 * kMs, 20 * kMs}}) ==
        6 * kMs);
  CHECK(analysis::NamedHostWorkIn(nested.trace, {}, {{0, 20 * kMs}}) == 0);
}

namespace {

// Inside the model's forward (a module frame, 0-8 ms): kernels with 3 ms of operator time between
// them. Outside it (8-10 ms): 2 ms of input preparation, then the next kernel.
TraceBuilder VllmForwardThenPreparation() {
  TraceBuilder b;
  b.Frame("nn.Module: LlamaForCausalLM_0", 0, 8 * kMs);
  b.Op("vllm::unified_attention", 10 * kUs, 50 * kUs);
  b.Api("cudaLaunchKernel", 20 * kUs, 25 * kUs, 1);
  b.Kernel("attn", 30 * kUs, 1 * kMs, 1);
  b.Op("aten::index", 1 * kMs, 4 * kMs);
  b.Api("cudaLaunchKernel", 4 * kMs, 4 * kMs + 5 * kUs, 2);
  b.Kernel("mlp", 4 * kMs + 10 * kUs, 5 * kMs, 2);
  b.Op("aten::cat", 5 * kMs, 8 * kMs);
  b.Op("prepare_inputs", 8 * kMs, 10 * kMs);
  b.Api("cudaLaunchKernel", 10 * kMs, 10 * kMs + 5 * kUs, 3);
  b.Kernel("embed", 10 * kMs + 10 * kUs, 11 * kMs, 3);
  return b;
}

}  // namespace

TEST_CASE("host-bound: host work after a captured forward runs beside its GPU work",
          "[diagnosis][host]") {
  // With graphs the forward's 1.96 ms of kernels run from one launch, and the 2 ms of
  // preparation after it runs beside them: 6.04 ms of idle inside the forward and 1.96 ms of
  // the preparation come back, 11 / (11 - 8) = 3.67x.
  report::AnalysisReport r = Analyze(VllmForwardThenPreparation().trace);
  const report::Diagnosis& d = r.diagnosis;
  REQUIRE(d.bottleneck == report::Bottleneck::kHostBound);
  REQUIRE(d.bound_speedup);
  CHECK(*d.bound_speedup == Approx(11.0 / 3.0).epsilon(0.02));
  bool beside = false;
  for (const std::string& line : d.support)
    beside = beside || Contains(line,
                                "ms of host work after the forward that runs while the graph's "
                                "kernels execute (the graph launch returns at once");
  CHECK(beside);

  // The host reads the forward's result first (a synchronization at its end): the preparation
  // waits for it, so it stays in series and only the idle inside the forward comes back,
  // 11 / (11 - 6), not the 2 ms outside it: vLLM's graphs hold the forward only.
  TraceBuilder read = VllmForwardThenPreparation();
  read.Api("cudaStreamSynchronize", 8 * kMs, 8 * kMs + 10 * kUs);
  report::AnalysisReport s = Analyze(read.trace);
  REQUIRE(s.diagnosis.bottleneck == report::Bottleneck::kHostBound);
  INFO(s.diagnosis.next_experiment);
  CHECK(Contains(s.diagnosis.next_experiment, "run vLLM with its CUDA graphs"));
  bool outside = false;
  for (const std::string& line : s.diagnosis.support)
    outside = outside || Contains(line,
                                  "ms of that idle lies outside the model's forward "
                                  "(LlamaForCausalLM): vLLM captures only the forward");
  CHECK(outside);
  REQUIRE(s.diagnosis.bound_speedup);
  CHECK(*s.diagnosis.bound_speedup < 11.0 / 3.0);
  CHECK(*s.diagnosis.bound_speedup == Approx(11.0 / 5.0).epsilon(0.03));
}

TEST_CASE("host-bound: vLLM's piecewise capture keeps the idle inside its attention operators",
          "[diagnosis][host]") {
  // The forward above with an attention operator over 1-2 ms of its host gap: piecewise capture
  // splits the forward there and runs it eagerly, so that 1 ms of idle stays, with the 20 us of
  // the first attention operator's after the window starts: of the 8 ms the full capture gives
  // back, 6.98 ms: 11 / (11 - 6.98) = 2.74x beside 3.67x.
  TraceBuilder b = VllmForwardThenPreparation();
  b.Op("vllm::unified_attention_with_output", 1 * kMs, 2 * kMs);
  report::AnalysisReport r = Analyze(b.trace);
  const report::Diagnosis& d = r.diagnosis;
  REQUIRE(d.bottleneck == report::Bottleneck::kHostBound);
  REQUIRE(d.bound_speedup);
  CHECK(*d.bound_speedup == Approx(11.0 / 3.0).epsilon(0.02));
  REQUIRE(d.bound_speedup_piecewise_graphs);
  CHECK(*d.bound_speedup_piecewise_graphs == Approx(11.0 / 4.02).epsilon(0.02));
  bool said = false;
  for (const std::string& line : d.support)
    said =
        said || Contains(line,
                         "1.02 ms of the idle lies inside vLLM's attention operators "
                         "(vllm::unified_attention, 1 call; vllm::unified_attention_with_output, "
                         "1 call), where its piecewise capture splits the forward");
  CHECK(said);
  CHECK(Contains(r.headline, "with piecewise capture (vLLM's for prefill and mixed batches)"));
  // Without a splitting operator (another vLLM operator in its place), nothing stays.
  TraceBuilder other = VllmForwardThenPreparation();
  for (gpuperf::model::HostOp& op : other.trace.host_ops) {
    if (other.trace.Name(op.name) == "vllm::unified_attention")
      op.name = other.trace.strings.Intern("vllm::rotary_embedding");
  }
  const report::AnalysisReport o = Analyze(other.trace);
  REQUIRE(o.diagnosis.bound_speedup);
  CHECK(*o.diagnosis.bound_speedup == Approx(11.0 / 3.0).epsilon(0.02));
  CHECK_FALSE(o.diagnosis.bound_speedup_piecewise_graphs);
  CHECK(analysis::IsVllmSplittingOp("vllm::mamba_mixer2"));
  CHECK_FALSE(analysis::IsVllmSplittingOp("vllm::moe_forward"));
  CHECK_FALSE(analysis::IsVllmSplittingOp("aten::scaled_dot_product_attention"));
}

TEST_CASE("GPU-bound: a change that cuts launches may take the GPU's idle with it", "[diagnosis]") {
  // A 100 ms window, the GPU busy 90 ms; the change removes a third of the window (1.50x with
  // the idle kept). With the host's time falling too, the window can fall to the GPU's busy time
  // less that work: 100 / (90 - 33.3) = 1.76x; the modelled part (1.40x, 28.6 ms) likewise.
  report::Diagnosis d;
  d.bound_speedup = 1.5;
  d.bound_speedup_modeled = 1.4;
  analysis::HostWaitCap cap;
  cap.wall_ns = 100 * kMs;
  cap.gpu_busy_ns = 90 * kMs;
  cap.waits_ns = 5 * kMs;
  cap.beside_idle_phase = false;
  analysis::RaiseToFewerLaunchesCeiling(d, cap);
  REQUIRE(d.bound_speedup);
  CHECK(*d.bound_speedup == Approx(100.0 / (90.0 - 100.0 / 3.0)).epsilon(1e-3));
  REQUIRE(d.bound_speedup_idle_kept);  // what the change alone gives, for the headline
  CHECK(*d.bound_speedup_idle_kept == 1.5);
  REQUIRE(d.bound_speedup_modeled);
  CHECK(*d.bound_speedup_modeled == Approx(100.0 / (90.0 - 100.0 * (1 - 1 / 1.4))).epsilon(1e-3));
  INFO(d.next_experiment);
  CHECK(Contains(d.next_experiment,
                 "the GPU's 10.0 ms of idle in the window can go with it: then at most 1.76x"));
  // FewerLaunchesCeiling is what the lever's sentence asks before it is raised, to call its own
  // bound the idle-kept case.
  report::Diagnosis asked;
  asked.bound_speedup = 1.5;
  REQUIRE(analysis::FewerLaunchesCeiling(asked, cap));
  CHECK(*analysis::FewerLaunchesCeiling(asked, cap) == Approx(*d.bound_speedup));

  // No idle to take, or a bound at an assumed 2x: unchanged.
  report::Diagnosis busy;
  busy.bound_speedup = 1.5;
  cap.gpu_busy_ns = cap.wall_ns;
  analysis::RaiseToFewerLaunchesCeiling(busy, cap);
  CHECK(*busy.bound_speedup == 1.5);
  CHECK_FALSE(busy.bound_speedup_idle_kept);
  report::Diagnosis assumed;
  assumed.bound_speedup = 1.5;
  assumed.bound_speedup_at_2x = 1.2;
  cap.gpu_busy_ns = 90 * kMs;
  CHECK_FALSE(analysis::FewerLaunchesCeiling(assumed, cap));
  analysis::RaiseToFewerLaunchesCeiling(assumed, cap);
  CHECK(*assumed.bound_speedup == 1.5);
  CHECK(assumed.next_experiment.empty());
}

TEST_CASE("sync-bound: the statement is bounded by the waits its advice removes",
          "[diagnosis][waits]") {
  // Twenty cycles: a 200 us kernel the host waits for with cudaDeviceSynchronize, 20 us of host
  // work, then a synchronous device-to-host copy and 20 us more. The round trips after both
  // kinds of call hold the idle; the advice removes the one call its statement names, so its
  // bound is that finding's cost, not every round trip's.
  TraceBuilder b;
  std::int64_t t = 0;
  for (int i = 0; i < 20; ++i) {
    const std::int64_t c = 2 * i + 1;
    b.Api("cudaLaunchKernel", t, t + 5 * kUs, c);
    b.Kernel("K", t + 10 * kUs, t + 210 * kUs, c);
    b.Api("cudaDeviceSynchronize", t + 6 * kUs, t + 215 * kUs);
    b.Api("cudaMemcpy", t + 235 * kUs, t + 260 * kUs, c + 1);
    b.Memcpy(model::CopyKind::kDtoH, t + 245 * kUs, t + 250 * kUs, 1 << 20, c + 1);
    t += 280 * kUs;
  }
  report::AnalysisReport r = Analyze(b.trace);
  const report::Diagnosis& d = r.diagnosis;
  const report::Diagnosis& s = d.bottleneck == report::Bottleneck::kSyncBound || d.secondary.empty()
                                   ? d
                                   : d.secondary.front();
  INFO(s.next_experiment);
  REQUIRE(s.bottleneck == report::Bottleneck::kSyncBound);
  const report::Finding* named = nullptr;
  for (std::string_view id : {"sync_api", "sync_memcpy"}) {
    const report::Finding* f = Find(r, id);
    if (f && (!named || f->gpu_idle_caused_ns.value_or(0) > named->gpu_idle_caused_ns.value_or(0)))
      named = f;
  }
  REQUIRE(named != nullptr);
  REQUIRE(named->bound_speedup_if_removed);
  REQUIRE(s.bound_speedup);
  CHECK(*s.bound_speedup == Approx(*named->bound_speedup_if_removed).epsilon(1e-3));
  // Every round trip together would bound it higher.
  const report::Finding* other =
      Find(r, named->id == "sync_api" ? std::string_view("sync_memcpy") : "sync_api");
  REQUIRE(other != nullptr);
  CHECK(other->gpu_idle_caused_ns.value_or(0) > 0);
}

TEST_CASE("ranking: a swap carries every bound of a statement with it", "[diagnosis][ranking]") {
  // The main statement (a TF32 lever: an estimate beside its ceiling) bounds less than the
  // secondary (host work, with the named part's bound): after the swap each bound stays with its
  // statement, none is left behind on the other.
  report::Diagnosis d;
  d.status = report::DiagnosisStatus::kFinding;
  d.bound_speedup = 1.2;
  d.bound_speedup_estimated = 1.1;
  report::Diagnosis host;
  host.status = report::DiagnosisStatus::kFinding;
  host.bound_speedup = 2.4;
  host.bound_speedup_named = 1.8;
  host.bound_speedup_overlapped = 1.3;
  d.secondary.push_back(host);
  analysis::RankStatements(d);
  REQUIRE(d.bound_speedup);
  CHECK(*d.bound_speedup == 2.4);
  CHECK(d.bound_speedup_named == 1.8);
  CHECK(d.bound_speedup_overlapped == 1.3);
  CHECK_FALSE(d.bound_speedup_estimated);
  REQUIRE(d.secondary.size() == 1);
  CHECK(d.secondary.front().bound_speedup_estimated == 1.1);
  CHECK_FALSE(d.secondary.front().bound_speedup_named);
}

TEST_CASE("experiment context: a statement over the same input keeps the steady span",
          "[diagnosis]") {
  // The secondary statements' contexts start from SameInput: without the span their sync
  // callers and host-work bounds looked at an empty window (pytorch-kineto 2021-06 lost its
  // zero_grad lever).
  analysis::ExperimentContext base;
  base.steady_span = {5, 9};
  const analysis::ExperimentContext same = analysis::SameInput(base);
  CHECK(same.steady_span.start == 5);
  CHECK(same.steady_span.end == 9);
}
