// The idle class of a window: what the GPU idled on (queued work, synchronizations, launch calls or
// the host) and the host's own records of what it did meanwhile (host work, CPU samples).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis/core/names.h"
#include "analysis/core/statistics.h"
#include "analysis/diagnosis/capture_span.h"
#include "analysis/diagnosis/diagnosis.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/diagnosis/input_check.h"
#include "analysis/findings/findings.h"
#include "analysis/framework/launch_tree.h"
#include "analysis/predictions/amdahl.h"
#include "util/counted.h"
#include "util/intervals.h"
#include "util/units_format.h"

namespace gpuperf::analysis {
namespace {

// A host-bound finding on framework operators whose advice is a captured graph (or fewer,
// larger launches): not host work outside the operators, no graphs already, no input pipeline.
bool CaptureIsTheLever(const report::Diagnosis& d, const ExperimentContext& context) {
  return d.bottleneck == report::Bottleneck::kHostBound &&
         d.status == report::DiagnosisStatus::kFinding && !context.host_outside_ops &&
         !context.graphs && !InputPipelineLever(d, context);
}

// Queued idle inside graph launches, in stretches through which the host was blocked waiting for
// the GPU (kHostBlockedTenths of each): no host event was late and nothing ran on any stream, so
// nothing the trace records could end it, and the graphs may hold nodes it lacks. When that is
// over half of the queued idle, says so in the evidence and returns it; 0 otherwise (hta
// negative_queue rank0: 465 of 794 ms, the host in pageable copies; a graph with two recorded
// nodes 28 ms apart).
std::int64_t UnexplainedGraphGaps(const model::Trace& trace,
                                  const report::AnalysisReport& r,
                                  const IdleAttribution& idle,
                                  report::Diagnosis& d,
                                  ExperimentContext& context) {
  if (2 * idle.queued_in_graphs_ns <= idle.queued_ns)
    return 0;
  const std::vector<util::Interval>& stretches = idle.queued_in_graphs_at;
  const HostBlocked blocked = HostBlockedDuring(trace, stretches);
  std::int64_t unexplained = 0;
  for (std::size_t i = 0; i < stretches.size(); ++i) {
    const std::int64_t length = stretches[i].end - stretches[i].start;
    if (blocked.per_stretch[i] * 10 >= length * kHostBlockedTenths)
      unexplained += length;
  }
  if (2 * unexplained <= idle.queued_ns)
    return 0;
  context.graph_gaps_unexplained_ns = unexplained;
  const std::int64_t outside = idle.queued_ns - unexplained;
  d.support.push_back(fmt::format(
      "Through {} of that idle inside graph launches the host was blocked waiting for the GPU "
      "(in each of those stretches {}0% of the time or more; most in {}) and no GPU work ran: no "
      "event the host records late, no work on another stream, nothing the trace records could "
      "end it. Either the graphs hold nodes the trace does not record (kernels, copies: then "
      "that time is GPU work, {} of the window, and only the other {} of queued idle can come "
      "back: at most {:.2f}x), or they wait on host nodes or another device; node-level tracing "
      "settles which (trace: graph launches, API calls).",
      Ms(unexplained),
      kHostBlockedTenths,
      blocked.top_api,
      Pct(WallFraction(r, idle, unexplained)),
      Ms(outside),
      AmdahlLimit(WallFraction(r, idle, outside))));
  return unexplained;
}

// The host-gap idle inside vLLM's splitting operators (IsVllmSplittingOp), what piecewise capture
// leaves in place, and their names with call counts, most called first (b200: 36
// vllm::unified_attention_with_output calls).
struct EagerSplitOps {
  std::int64_t idle_ns = 0;
  std::string names;
};

EagerSplitOps EagerSplitOpIdle(const model::Trace& trace, const IdleAttribution& idle) {
  CachedNamePredicate is_split(trace, IsVllmSplittingOp);
  std::vector<util::Interval> spans;
  std::map<std::string_view, std::int64_t> calls;
  for (const model::HostOp& op : trace.host_ops) {
    if (!is_split(op.name))
      continue;
    spans.push_back({op.start_ns, op.end_ns});
    ++calls[trace.Name(op.name)];
  }
  EagerSplitOps out;
  if (spans.empty())
    return out;
  out.idle_ns =
      util::TotalLength(util::Intersect(idle.other_gaps, util::MergeIntervals(std::move(spans))));
  std::vector<std::pair<std::string_view, std::int64_t>> sorted(calls.begin(), calls.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return a.second > b.second;
  });
  for (const auto& [name, n] : sorted)
    out.names += fmt::format(
        "{}{}, {}", out.names.empty() ? "" : "; ", name, util::Counted(n, "call", "calls"));
  return out;
}

}  // namespace

void SetIdleClass(const model::Trace& trace,
                  report::Diagnosis& d,
                  const report::AnalysisReport& r,
                  const IdleAttribution& idle,
                  std::string& subject,
                  ExperimentContext& context) {
  d.dominant_kind = report::DominantKind::kIdle;
  d.dominant_fraction = Fraction(idle.idle_ns, SteadyWall(r, idle));
  d.support.push_back(fmt::format(
      "No GPU work ran during {} of the {} steady-state window ({}) in {} stretches; {} of it "
      "before the first or after the last GPU activity (trace).",
      Ms(idle.idle_ns),
      Ms(SteadyWall(r, idle)),
      Pct(d.dominant_fraction),
      idle.gaps,
      Ms(idle.edge_ns)));
  if (!idle.has_api_calls) {
    d.bottleneck = report::Bottleneck::kHostBound;
    d.status = report::DiagnosisStatus::kHypothesis;
    d.evidence = report::EvidenceTier::kInferred;
    d.support.push_back(
        "The trace records no host API calls, so what the host did in the gaps "
        "is unknown.");
    return;
  }
  if (idle.queued_ns > 0)
    d.support.push_back(fmt::format(
        "In {} of the stretches ({}) the next GPU work had already been launched: the GPU "
        "waited on a device-side dependency (an event on another stream, a collective) or the "
        "launch latency, not on the host{} (trace: launch calls by correlation).",
        idle.queued_gaps,
        Ms(idle.queued_ns),
        idle.stream_waits > 0
            ? fmt::format("; the trace holds {} cross-stream waits (cudaStreamWaitEvent)",
                          idle.stream_waits)
            : std::string()));
  if (idle.queued_in_graphs_ns > 0)
    d.support.push_back(fmt::format(
        "{} of that queued idle lies inside a {} graph launch, between its recorded nodes or "
        "in the idle stretch that ends at its first node after it was launched: the graph "
        "waited on an event-wait, event-record or host node (the trace records a graph's "
        "kernel, copy and memset nodes, not those; node-level graph tracing, {}, shows them), "
        "or on a dependency ahead of it in the stream (trace: graph launches by correlation).",
        Ms(idle.queued_in_graphs_ns),
        context.amd ? "HIP" : "CUDA",
        context.amd ? "rocprofv3 with graph node tracing" : "nsys --cuda-graph-trace=node"));
  // Nothing elsewhere (all of the idle queued or in round trips): the split would be three zeros.
  const bool elsewhere = idle.launch_ns + idle.other_api_ns + idle.host_ns > 0;
  d.support.push_back(fmt::format(
      "{} of the stretches ({}) {} the round trip after a host-blocking call, a "
      "synchronization or a copy that waits like one ({} more overlap one but hold long host "
      "work){} (trace: API calls).",
      idle.sync_gaps,
      Ms(idle.sync_ns),
      idle.sync_gaps == 1 ? "is" : "are",
      idle.sync_exposed_gaps,
      elsewhere ? fmt::format("; elsewhere launch calls cover {}, other CUDA API calls {}, and no "
                              "CUDA call {}",
                              Ms(idle.launch_ns),
                              Ms(idle.other_api_ns),
                              Ms(idle.host_ns))
                : std::string("; no launch call, other CUDA call or host time covers the rest")));
  AddHostWorkEvidence(trace, d, idle);
  std::int64_t host = idle.host_ns + idle.other_api_ns;
  // Synchronizations cost their round trips and, when they drain the queue of a host that would
  // otherwise stay ahead, the refill after them (findings_sync.cc, sync_drain.h), which the
  // attribution counts under the launch calls that cover it.
  std::int64_t sync_cost = idle.sync_ns;
  if (const report::Finding* f = FindFinding(r, report::finding_id::kSyncApi))
    sync_cost = std::max(sync_cost, f->gpu_idle_caused_ns.value_or(0));
  std::int64_t attributed = std::max({sync_cost, idle.launch_ns, host, idle.queued_ns});
  std::int64_t graph_gaps_ns = 0;  // queued idle in graphs that nothing recorded could end
  EagerSplitOps eager;             // vLLM's splitting ops in the gaps (piecewise graphs)
  d.evidence = report::EvidenceTier::kMeasured;
  d.status = report::DiagnosisStatus::kFinding;
  if (attributed == idle.queued_ns) {
    // Work was queued and the whole GPU still idled, so the work waited on nothing running on
    // this GPU: an event the host records late, another device or rank, or a host-staged copy
    // ahead of it in stream order. The trace does not record which: a hypothesis to test.
    d.bottleneck = report::Bottleneck::kDependencyBound;
    d.status = report::DiagnosisStatus::kHypothesis;
    context.ranks = r.source.rank.has_value();
    context.collectives = r.timeline.communication_ns > 0;
    if (!context.collective_evidence.wait_text.empty())
      d.support.push_back(context.collective_evidence.wait_text);
    // With collectives in the window, part of what the queued work waits for can be other ranks:
    // the bound then needs them to arrive earlier too.
    if (context.collectives)
      d.support.push_back(
          "The bound counts all of the queued idle as removable: with collectives in the window, "
          "part of it can be this rank waiting for others, which no change on this rank alone "
          "removes; over all ranks, gpuperf ranks splits the wait from the transfer (an upper "
          "bound).");
    context.stream_waits = idle.stream_waits;
    context.queued_ns = idle.queued_ns;
    context.queued_in_graphs_ns = idle.queued_in_graphs_ns;
    graph_gaps_ns = UnexplainedGraphGaps(trace, r, idle, d, context);
    if (std::string stretches = LongQueuedStretches(
            trace, idle, static_cast<std::int64_t>(r.framework.steps.size()), context.queued_focus);
        !stretches.empty())
      d.support.push_back(stretches);
  } else if (attributed == sync_cost) {
    d.bottleneck = report::Bottleneck::kSyncBound;
    // The wait finding that causes the most idle names the call.
    const report::Finding* sync = nullptr;
    for (std::string_view id : kWaitFindings) {
      const report::Finding* f = FindFinding(r, id);
      if (f && (!sync || WaitAdviceIdle(*f) > WaitAdviceIdle(*sync)))
        sync = f;
    }
    if (sync) {
      context.implicit_sync = sync->id == report::finding_id::kPageableAsyncMemcpy;
      d.support.push_back(fmt::format("{} ({}, trace).", sync->summary, sync->id));
      subject = sync->subject;
      // The advice removes the waits of that finding (a pageable copy's, the syncs beside its
      // copies too: WaitAdviceIdle): its cost is the bound, not every round trip in the window
      // (cloverleaf: 21.9 ms of round trips after synchronizations and synchronous copies; the
      // synchronizations alone cost 16.7 ms, and a replay gives 14.8 ms).
      if (WaitAdviceIdle(*sync) > 0)
        attributed = WaitAdviceIdle(*sync);
    }
    // The host's time between the waits sets how much of the idle they cost (sync_drain.h).
    if (std::string overhead =
            ProfilerOverheadText(trace,
                                 context.shapes_recorded,
                                 "the host time between the waits that this bound rests on");
        !overhead.empty())
      d.support.push_back(overhead);
  } else if (attributed == idle.launch_ns) {
    d.bottleneck = report::Bottleneck::kLaunchBound;
    d.support.push_back(fmt::format(
        "{} kernel launches; launch calls took {} against {} of kernel time (ratio {:.2f}, each "
        "call counted once, trace).{}",
        r.audit.kernel_launches,
        Ms(r.launch.call_time_ns),
        Ms(r.launch.kernel_ns.total),
        r.launch.api_to_kernel_ratio,
        GraphSentence(r.launch)));
  } else {
    d.bottleneck = report::Bottleneck::kHostBound;
    // Host ops (framework operators) in the gaps show what the host did; without them the trace
    // shows only that the host was not in CUDA.
    // CPU samples explain the rest where there are enough of them (an estimate, but a
    // measurement of what the host ran, not an inference).
    std::int64_t sampled = SampledHostNs(idle);
    std::int64_t explained = idle.host_work_ns + sampled;
    bool shown = explained >= idle.host_ns - explained;  // half, without overflow
    // Blocking MPI calls in the gaps wait for another rank: no faster host shortens them, so
    // neither the advice nor the bound counts them (saxpy: MPI_Send and MPI_Recv, 244 ms).
    std::int64_t mpi = std::min(idle.host_comm_ns, attributed);
    if (mpi > 0) {
      std::string names;
      for (const auto& [name, ns] : idle.top_host_work) {
        if (IsBlockingMpiCall(name))
          names += fmt::format("{}{} ({})", names.empty() ? "" : ", ", name, Ms(ns));
      }
      const std::string spread = BlockingMpiSpread(trace, context.steady_span);
      d.support.push_back(fmt::format(
          "{} of the host work in the gaps is blocking MPI communication ({}): the host waits "
          "for the transfer and for another rank there, which a faster host does not shorten{}; "
          "the other ranks' traces show what it waits for (gpuperf ranks). The bound if the host "
          "work takes no time leaves it out; the bound if it only moves beside the GPU keeps it, "
          "as non-blocking calls (MPI_Isend, MPI_Irecv) would overlap it (trace).",
          Ms(mpi),
          names.empty() ? std::string("MPI calls") : names,
          spread.empty() ? std::string() : " (" + spread + ")"));
      attributed -= mpi;
    }
    // Outside dispatch: Python self time, OS calls, sampled non-CUDA frames; or the data
    // loader's fetch, which holds the frames and operators of the input pipeline (their union
    // would double count, so the larger of the two).
    std::int64_t other =
        std::max(idle.host_other_ns + std::min(sampled, idle.sampled_other_ns), idle.loader_ns);
    context.loader_ns = idle.loader_ns;
    context.loader_start_up_ns = idle.loader_start_up_ns;
    context.loader_multiprocess = idle.loader_multiprocess;
    context.blocking_syncs = r.audit.synchronizations;
    // The steps and syncs of the steady window: a left-out first step is not among them.
    const util::Interval steady = context.steady_span;
    context.steps = static_cast<std::int64_t>(r.framework.steps.size() - WarmUpStepsLeftOut(r));
    if (context.steps >= 2 && context.blocking_syncs >= 2 * context.steps) {
      context.sync_callers = SyncCallersOf(trace, idle, steady);
      context.blocking_syncs = context.sync_callers.calls;
    }
    context.host_outside_ops = explained > 0 && other > explained - other;
    context.single_process_loader = HasSingleProcessLoader(trace);
    if (context.single_process_loader)
      context.loader_owner = LoaderOwner(trace);
    context.host_work_ns = explained;
    context.window_ns = SteadyWall(r, idle);
    context.lead_ns = std::min(idle.lead_ns, explained);
    // Recorded and sampled names together, by time, the sampled ones marked.
    struct Named {
      std::string text;
      std::int64_t ns = 0;
      std::string recorded;  // the record's name; "" for a sampled function
    };
    std::vector<Named> names;
    for (const auto& [name, ns] : idle.top_host_work) {
      if (IsBlockingMpiCall(name))  // said apart above
        continue;
      std::string callers = BuiltinCallers(trace, name);
      names.push_back(
          {fmt::format(
               "{} ({}{})", WithoutAddresses(name), Ms(ns), callers.empty() ? "" : "; " + callers),
           ns,
           name});
    }
    if (sampled > 0) {
      for (const auto& [name, ns] : idle.top_sampled_host)
        names.push_back({fmt::format("{} ({}, samples)", name, Ms(ns)), ns, ""});
    }
    std::stable_sort(
        names.begin(), names.end(), [](const Named& a, const Named& b) { return a.ns > b.ns; });
    // A name with under 1% of the first one's time is no lever (saxpy: [kernel.kallsyms],
    // 591 us beside main's 587 ms).
    if (!names.empty()) {
      std::int64_t floor = names.front().ns / 100;
      std::erase_if(names, [&](const Named& n) { return n.ns < floor; });
    }
    std::vector<std::string> shown_recorded;
    bool shown_sampled = false;
    for (std::size_t i = 0; i < names.size() && i < 3; ++i) {
      context.host_work_names += (i ? ", " : "") + names[i].text;
      if (names[i].recorded.empty())
        shown_sampled = true;
      else
        shown_recorded.push_back(names[i].recorded);
    }
    // The named work with what it calls (timesformer: normalize, astype and the video decode
    // cover 172 ms of 223 ms): making only it free gives back that much. Sampled names have no
    // intervals, so then only the bound over all host work is said.
    if (!shown_sampled)
      context.named_host_work_ns = NamedHostWorkIn(trace, shown_recorded, idle.other_gaps);
    // Per-run host work of repeated runs on one input is part of the repeats.
    std::vector<std::string> recorded;
    for (const auto& [name, ns] : idle.top_host_work) {
      if (!IsBlockingMpiCall(name) && recorded.size() < 3)
        recorded.push_back(name);
    }
    RepeatedHostWork in_repeats = HostWorkInRepeats(trace, idle, r.framework, recorded);
    context.host_in_repeats_ns = in_repeats.ns;
    if (!in_repeats.evidence.empty())
      d.support.push_back(in_repeats.evidence);
    if (idle.sampled_host_samples >= kMinHostSamples)
      context.host_sampled_names = TimedNames(idle.top_sampled_host);
    context.cpu_samples = !trace.cpu_samples.empty();
    if (ZeroGrad zero = ZeroGradWork(trace, idle, steady, SteadyWall(r, idle)); zero.idle_ns > 0) {
      context.zero_grad = zero.text;
      d.support.push_back(zero.text + ".");
    }
    if (!shown) {
      d.status = report::DiagnosisStatus::kHypothesis;
      d.evidence = report::EvidenceTier::kInferred;
    }
    // Idle mostly before the first (or after the last) GPU work is the host preparing the input
    // once: the bound holds only if that recurs with every input, as it does in a loop. A
    // captured graph's bound leaves that idle out instead (below).
    if (idle.edge_ns > idle.idle_ns - idle.edge_ns &&
        (!CaptureIsTheLever(d, context) || context.vllm))
      d.support.push_back(fmt::format(
          "{} of the {} of idle lies before the first or after the last GPU activity: host work "
          "around the GPU work (preparing the input, writing the result), which the bound counts "
          "as recurring with every input: true when the trace is one call of a loop that prepares "
          "each input this way, not when it happens once per run (trace).",
          Ms(idle.edge_ns),
          Ms(idle.idle_ns)));
    if (std::string overhead = ProfilerOverheadText(
            trace, context.shapes_recorded, "the host time this bound rests on");
        !overhead.empty())
      d.support.push_back(overhead);
  }
  // A faster input pipeline removes the idle inside the loader's fetch, not the other host time
  // in the gaps (resnet: 4.93 s of 5.65 s; the rest is the main thread between the fetch and
  // the next operator).
  if (d.bottleneck == report::Bottleneck::kHostBound && InputPipelineLever(d, context))
    AddStarvedSteps(d, r);
  if (d.bottleneck == report::Bottleneck::kHostBound && InputPipelineLever(d, context) &&
      idle.loader_ns < attributed) {
    d.support.push_back(fmt::format(
        "The bound counts the {} of idle inside the DataLoader's fetch, which a faster input "
        "pipeline removes, not the other {} of host time in the gaps (trace).",
        Ms(idle.loader_ns),
        Ms(attributed - idle.loader_ns)));
    attributed = idle.loader_ns;
  }
  // The advice is a captured graph, which removes the launch calls with the host time between
  // them: the idle under launch calls comes back too (linear: 104 ms beside 527 ms).
  const bool graph_lever = CaptureIsTheLever(d, context);
  if (graph_lever && idle.launch_ns > 0) {
    attributed += idle.launch_ns;
    d.support.push_back(fmt::format(
        "The bound counts the {} of idle under launch calls too: a captured graph removes the "
        "launch calls with the host time between them (trace).",
        Ms(idle.launch_ns)));
  }
  // A captured graph drops the host time of the operators and modules it replays, not the host
  // work around them before the first and after the last GPU activity (bert: a synchronize and
  // the profiler's step before the model's forward, its stop after it; 13.3x counted them).
  // vLLM's forward-only capture is bounded below by the work outside the forward.
  if (graph_lever && !context.vllm && !idle.edge_host_gaps.empty()) {
    const EdgeOutsideCapture outside = EdgeHostOutsideCapture(trace, idle.edge_host_gaps);
    const std::int64_t edge = std::min(attributed, outside.ns);
    if (edge > 0) {
      attributed -= edge;
      d.support.push_back(fmt::format(
          "The bound leaves out the {} of host time before the first and after the last GPU "
          "activity outside the framework operators and modules that launch the GPU work ({}): "
          "a captured graph replays those operators, not the work around them{} (trace).",
          Ms(edge),
          outside.names.empty()
              ? std::string("preparing the input, synchronizing, the profiler's start and stop")
              : "most in " + outside.names,
          outside.names.empty() ? ""
                                : "; moving that recorded work off the launching thread (a "
                                  "worker preparing the next batch) is a lever of its own"));
    }
  }
  // vLLM's graphs hold the model's forward only: the idle around it (input preparation,
  // sampling, logits) stays (b200: 8 ms of 70 ms outside GptOssForCausalLM).
  if (d.bottleneck == report::Bottleneck::kHostBound &&
      d.status == report::DiagnosisStatus::kFinding && context.vllm && !context.host_outside_ops &&
      !context.graphs) {
    ModelForward forward = FindModelForward(trace);
    std::int64_t gaps = util::TotalLength(idle.other_gaps);
    std::int64_t outside =
        forward.spans.empty()
            ? 0
            : std::min(attributed,
                       gaps - util::TotalLength(util::Intersect(idle.other_gaps, forward.spans)));
    if (outside > 0) {
      // The host work after a captured forward runs beside the forward's GPU work once the
      // graph launch returns at once: up to that GPU work, until the host next waits for the
      // GPU (b200: 2.41 ms of sampling beside 11.5 ms of forward kernels, 4.17x -> 4.76x; a
      // replay gives 4.78x at zero cost per graph node, 4.54x at 1 us).
      std::int64_t beside =
          std::min(outside, IdleBesideForwardGpu(forward.spans, idle, context.steady_span.end));
      attributed -= outside - beside;
      d.support.push_back(fmt::format(
          "{} of that idle lies outside the model's forward ({}): vLLM captures only the "
          "forward in its graphs, so input preparation, sampling and logits keep their host "
          "time, and the bound keeps that idle in the wall{}. It is for a full capture at zero "
          "cost per graph node (each node's own launch cost on the GPU, about a microsecond, "
          "lowers it): piecewise capture leaves the attention operators eager, and the idle "
          "around them stays too (trace: module frames).",
          Ms(outside),
          forward.module,
          beside > 0 ? fmt::format(", except the {} of host work after the forward that runs "
                                   "while the graph's kernels execute (the graph launch returns "
                                   "at once; up to the forward's GPU work, until the host next "
                                   "waits for the GPU)",
                                   Ms(beside))
                     : std::string()));
    }
    eager = EagerSplitOpIdle(trace, idle);
    eager.idle_ns = std::min(attributed, eager.idle_ns);
  }
  d.bound_speedup = AmdahlLimit(WallFraction(r, idle, attributed));
  if (const double piecewise = AmdahlLimit(WallFraction(r, idle, attributed - eager.idle_ns));
      eager.idle_ns > 0 && piecewise + 0.005 < *d.bound_speedup) {
    d.bound_speedup_piecewise_graphs = piecewise;
    d.support.push_back(fmt::format(
        "{} of the idle lies inside vLLM's attention operators ({}), where its piecewise capture "
        "splits the forward: captured piecewise, as vLLM captures prefill and mixed batches, "
        "they run eagerly between the pieces and that idle stays: at most {:.2f}x (trace: "
        "operators).",
        Ms(eager.idle_ns),
        eager.names,
        *d.bound_speedup_piecewise_graphs));
  }
  if (graph_gaps_ns > 0)
    d.bound_speedup_unrecorded_graph_work =
        AmdahlLimit(WallFraction(r, idle, attributed - graph_gaps_ns));
  // The bound is over all host work in the gaps; the experiment names the largest of it, which a
  // reader makes faster first (timesformer: 2.40x over all of it, 1.82x for the three named).
  if (d.bottleneck == report::Bottleneck::kHostBound &&
      d.status == report::DiagnosisStatus::kFinding && context.host_outside_ops &&
      !InputPipelineLever(d, context) && context.named_host_work_ns > 0 &&
      context.window_ns > context.named_host_work_ns) {
    double named = AmdahlLimit(static_cast<double>(context.named_host_work_ns) /
                               static_cast<double>(context.window_ns));
    if (named + 0.005 < *d.bound_speedup)
      d.bound_speedup_named = named;
  }
}

}  // namespace gpuperf::analysis
