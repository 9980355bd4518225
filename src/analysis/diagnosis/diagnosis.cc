// The diagnosis of a trace window: the triage as a table of steps (GPU idle, transfer,
// communication, dominant work), the statement's experiment, lever and caps, and the facts of
// the whole window; with the small lookups every diagnosis file shares. The classes, the
// secondary statement and the window's facts are in diagnosis_dominant_work.cc,
// diagnosis_secondary.cc and diagnosis_window_facts.cc.
#include "analysis/diagnosis/diagnosis.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <string_view>

#include "analysis/core/critical_term.h"
#include "analysis/core/names.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/diagnosis/input_check.h"
#include "analysis/findings/findings.h"
#include "analysis/kernel/cache_reuse.h"
#include "analysis/kernel/kernel_class.h"
#include "analysis/kernel/readable_name.h"
#include "analysis/predictions/amdahl.h"
#include "analysis/predictions/preroll.h"
#include "analysis/timeline/critical_time.h"
#include "model/ceilings.h"
#include "util/intervals.h"
#include "util/units_format.h"

namespace gpuperf::analysis {

double Fraction(std::int64_t part, std::int64_t whole) {
  return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

std::string Pct(double fraction) {
  return fmt::format("{:.1f}%", fraction * 100);
}

const report::Finding* FindFinding(const report::AnalysisReport& r, std::string_view id) {
  for (const report::Finding& f : r.findings) {
    if (f.id == id)
      return &f;
  }
  return nullptr;
}

std::int64_t WaitAdviceIdle(const report::Finding& f) {
  return std::max(f.gpu_idle_caused_ns.value_or(0), f.advice_gpu_idle_ns.value_or(0));
}

const report::KernelRow* FindKernel(const report::AnalysisReport& r, std::string_view name) {
  for (const report::KernelRow& k : r.kernels) {
    if (k.name == name)
      return &k;
  }
  return nullptr;
}

const report::CriticalShare* DominantKernelShare(const report::AnalysisReport& r,
                                                 bool computation_only) {
  const report::CriticalShare* best = nullptr;
  for (const report::CriticalShare& s : r.predictions.kernels) {
    if (computation_only && IsCollective(r, s.name))
      continue;
    if (!best || s.critical_ns > best->critical_ns)
      best = &s;
  }
  return best;
}

namespace {

// Transfer- and communication-bound: time not hidden behind computation, measured on the trace.
void SetExposedClass(report::Diagnosis& d,
                     report::Bottleneck bottleneck,
                     report::DominantKind kind,
                     std::int64_t exposed_ns,
                     std::int64_t window_ns) {
  d.bottleneck = bottleneck;
  d.dominant_kind = kind;
  d.dominant_fraction = Fraction(exposed_ns, window_ns);
  d.status = report::DiagnosisStatus::kFinding;
  d.evidence = report::EvidenceTier::kMeasured;
  d.support.push_back(
      fmt::format("Exposed {}: {} of the {} window, not overlapped by computation "
                  "(trace).",
                  d.dominant_kind == report::DominantKind::kCopy ? "copies" : "communication",
                  Ms(exposed_ns),
                  Ms(window_ns)));
  d.bound_speedup = AmdahlLimit(std::min(1.0, Fraction(exposed_ns, window_ns)));
}

std::int64_t ReplaySpans(const model::Trace& trace) {
  std::int64_t spans = 0;
  for (const model::KernelCounters& c : trace.counters)
    spans += c.replay_span ? 1 : 0;
  return spans;
}

// "memory_bound" -> "memory-bound"; an unknown class over kernel work is still GPU-bound, and
// "unknown" alone reads as no verdict.
std::string Label(const report::Diagnosis& d) {
  if (d.bottleneck == report::Bottleneck::kUnknown && IsKernelWork(d.dominant_kind))
    return "GPU-bound, kernel class unknown";
  std::string label(report::ToString(d.bottleneck));
  std::replace(label.begin(), label.end(), '_', '-');
  return label;
}

report::Diagnosis DiagnoseWindow(const model::Trace& trace,
                                 const DeviceRoofsTable& roofs,
                                 const CorrelationIndex& index,
                                 const report::AnalysisReport& r,
                                 const IdleAttribution& idle,
                                 std::optional<report::LaunchQueue> queue,
                                 const std::vector<BlockedLaunch>* blocked) {
  report::Diagnosis d;
  d.target_metric = TargetMetric(r);
  d.scope = Scope(trace, r);
  d.baseline = Baseline(trace, r);
  d.queue = std::move(queue);
  ExperimentContext context = InputContext(trace);
  context.blocked_launches = blocked;
  context.steady_span = SteadySpan(trace, r);
  context.collective_evidence = CollectiveEvidenceOf(trace, index, r);
  context.one_shot = r.framework.steps.size() < 2 && !r.kernels.empty() &&
                     r.kernels.front().duration_ns.count < kOneShotInstances;
  // Graphs already carry most launches, or the program captures them: never advise graphs.
  context.graphs =
      r.launch.graph_kernels * 2 > std::max<std::int64_t>(1, r.launch.kernel_ns.count) ||
      std::any_of(
          r.initialization.items.begin(), r.initialization.items.end(), [](const auto& item) {
            return item.kind == report::InitializationKind::kGraphCapture;
          });
  std::string subject;
  const report::Timeline& t = r.timeline;
  if (t.activities == 0) {
    d.dominant_kind = report::DominantKind::kNone;
    d.bottleneck = report::Bottleneck::kUnknown;
    d.status = report::DiagnosisStatus::kHypothesis;
    SetExperiment(d, subject, context);
    if (std::string other = UnsupportedDevice(trace); !other.empty())
      d.missing_evidence = other;
    return d;
  }
  if (t.busy_ns == 0) {  // every activity has zero length: no durations recorded
    DiagnoseWithoutDurations(d, r);
    return d;
  }
  if (InitializationStep(d, r, idle)) {
    AddQueueAndCoverage(d, idle);
    SetExperiment(d, subject, context);
    return d;
  }
  // Shares of the steady-state window: idle time outside the GPU span counts too.
  std::int64_t window = std::max(SteadyWall(r, idle), std::int64_t{1});
  double idle_share = Fraction(idle.idle_ns, window);
  QueueAgainstIdle(d, Fraction(idle.queued_ns, window));
  // Copies, communication and computation of the steady span: what lies before it (a pre-roll,
  // the start-up, a warm-up step) is outside the window (the H200 MLP's start-up copies).
  const report::Timeline steady = SteadyTimeline(trace, r);
  double transfer = Fraction(steady.exposed_memcpy_ns, window);
  double comm = Fraction(steady.exposed_communication_ns, window);
  double compute = std::min(1.0, Fraction(steady.computation_ns, window));
  double largest = std::max({idle_share, transfer, comm, compute});
  auto answer = [&](double share) {
    return share >= kDominantShare || share == largest ? report::TriageAnswer::kYes
                                                       : report::TriageAnswer::kNo;
  };
  // Work waiting in the launch queue means the GPU sets the pace: a minority of idle time then
  // does not make the program host-bound.
  bool queued = d.queue && d.queue->verdict == report::QueueVerdict::kGpuBound;
  bool idle_decides = idle_share >= kDominantShare || (idle_share == largest && !queued);
  // Nsight Compute replays each kernel alone: no timeline, so no idle, copy or overlap question.
  bool has_timeline = trace.metadata.has_timeline;
  idle_decides = idle_decides && has_timeline;
  // The triage as a table of steps, asked in the order of docs/method.md ("Triage order"): GPU
  // idle -> transfer -> communication -> dominant work. The first step that decides classifies the
  // window; the steps before it are recorded with their answer. Without a timeline (Nsight Compute)
  // only the dominant work is asked.
  std::size_t kernel_evidence_from = 0;  // where the dominant kernel's evidence starts
  // The GPU phase of a window with a material idle phase is diagnosed on the GPU's own timeline
  // (predictions.gpu_timeline_kernels): its kernels become critical once that phase is fixed,
  // and the host's waits cap what they give back until then (HostWaitCap).
  std::optional<report::AnalysisReport> gpu_view;
  const report::AnalysisReport* gpu_phase = &r;
  if (has_timeline && idle_share >= kSecondaryIdleShare &&
      !r.predictions.gpu_timeline_kernels.empty()) {
    gpu_view = r;
    gpu_view->predictions.kernels = r.predictions.gpu_timeline_kernels;
    gpu_view->predictions.on_gpu_timeline = true;
    gpu_phase = &*gpu_view;
  }
  struct TriageStep {
    report::TriageQuestion question;
    bool asked;
    report::TriageAnswer answer;
    std::string detail;
    bool decides;
    std::function<void()> classify;
  };
  const std::vector<TriageStep> steps = {
      {report::TriageQuestion::kGpuIdle,
       has_timeline,
       idle_decides                        ? report::TriageAnswer::kYes
       : idle_share >= kSecondaryIdleShare ? report::TriageAnswer::kPartly
                                           : report::TriageAnswer::kNo,
       fmt::format("no GPU work during {} of the steady-state window, {} of it before the first "
                   "or after the last GPU activity{} (trace)",
                   Pct(idle_share),
                   Ms(idle.edge_ns),
                   d.queue ? fmt::format("; launch-queue depth median {}, p90 {}",
                                         Ms(d.queue->median_ns),
                                         Ms(d.queue->p90_ns))
                           : std::string()),
       idle_decides,
       [&] { SetIdleClass(trace, d, r, idle, subject, context); }},
      {report::TriageQuestion::kTransfer,
       has_timeline,
       answer(transfer),
       fmt::format("copies not overlapped by kernels: {} of the window (trace)", Pct(transfer)),
       transfer >= kDominantShare || transfer == largest,
       [&] {
         SetExposedClass(d,
                         report::Bottleneck::kTransferBound,
                         report::DominantKind::kCopy,
                         steady.exposed_memcpy_ns,
                         window);
         if (!r.memory_ops.empty())
           d.dominant_name = subject = r.memory_ops.front().operation;
         if (const report::Finding* f = FindFinding(r, report::finding_id::kPageableAsyncMemcpy))
           d.support.push_back(fmt::format("{} ({}, trace).", f->summary, f->id));
       }},
      {report::TriageQuestion::kCommunication,
       has_timeline,
       // "partly": a large minority, which a collective can still make the dominant work.
       answer(comm) == report::TriageAnswer::kNo && comm >= kSecondaryIdleShare
           ? report::TriageAnswer::kPartly
           : answer(comm),
       fmt::format("communication not overlapped by computation: {} of the window (trace)",
                   Pct(comm)),
       comm >= kDominantShare || comm == largest,
       [&] {
         SetExposedClass(d,
                         report::Bottleneck::kCommunicationBound,
                         report::DominantKind::kCommunication,
                         steady.exposed_communication_ns,
                         window);
         // The long tail of a collective's instances is this rank waiting for the others: the
         // evidence the falsification asks for.
         if (!context.collective_evidence.wait_text.empty())
           d.support.push_back(context.collective_evidence.wait_text);
         HypothesisWhenCollectivesWait(
             d, context.collective_evidence.excess_ns, steady.exposed_communication_ns);
         for (const report::KernelRow& k : r.kernels) {
           if (IsCommunicationKernel(k.name)) {
             d.dominant_name = subject = k.name;
             break;
           }
         }
       }},
      {report::TriageQuestion::kDominantWork,
       true,
       report::TriageAnswer::kYes,
       has_timeline ? fmt::format("computation covers {} of the window; {} of kernel time is in "
                                  "launch-bound small kernels{} (trace)",
                                  Pct(compute),
                                  Pct(LaunchClassShare(r)),
                                  SmallGraphNodeShare(r) > 0
                                      ? fmt::format(", {} in small kernels run as graph nodes "
                                                    "(latency-bound: fewer nodes, by fusion, "
                                                    "remove it; graphs are already used)",
                                                    Pct(SmallGraphNodeShare(r)))
                                      : std::string())
                    : fmt::format("Nsight Compute input: the profiled kernels are all there is; "
                                  "{} of kernel time is in launch-bound small kernels (counters)",
                                  Pct(LaunchClassShare(r))),
       true,
       [&] {
         kernel_evidence_from = d.support.size();
         // A material idle phase beside the GPU work: a GPU-side change gives back only the
         // host's waits for the GPU until that phase is fixed.
         // Without one, the host may still be close behind the GPU: changes that keep the
         // launch count are held to its waits too (KeepsLaunchCount).
         if (has_timeline) {
           context.host_wait_cap = HostWaitsOnGpu(
               trace, index, r, context.steady_span, SteadyWall(r, idle), context.blocked_launches);
           context.host_wait_cap->host_work_ns = idle.host_work_ns;
           context.host_wait_cap->lead_ns = std::min(context.lead_ns, idle.host_work_ns);
           context.host_wait_cap->beside_idle_phase = idle_share >= kSecondaryIdleShare;
         }
         ClassifyDominantWork(trace, roofs, d, *gpu_phase, idle, subject, context);
         // The term's meaning before the first line that uses it.
         if (gpu_phase->predictions.on_gpu_timeline) {
           kernel_evidence_from = std::min(kernel_evidence_from, d.support.size());
           d.support.insert(d.support.begin() + static_cast<std::ptrdiff_t>(kernel_evidence_from),
                            kGpuPhaseTimeText);
           ++kernel_evidence_from;  // the evidence a lever may replace starts after it
         }
       }},
  };
  for (const TriageStep& step : steps) {
    if (!step.asked)
      continue;
    d.triage.push_back({step.question, step.answer, step.detail});
    if (step.decides) {
      step.classify();
      break;
    }
  }
  SetExperiment(d, subject, context);
  if (const report::KernelRow* k = FindKernel(r, d.dominant_name);
      k && d.dominant_kind == report::DominantKind::kKernel)
    AdviseFromCounters(d, *k);
  const HostWaitCap* cap = context.host_wait_cap ? &*context.host_wait_cap : nullptr;
  if (IsKernelWork(d.dominant_kind) && d.bottleneck != report::Bottleneck::kLaunchBound) {
    AddCollectiveEvidence(d, r, context.collective_evidence.wait_text);
    ApplyLever(d, trace, roofs, *gpu_phase, SteadyWall(r, idle), kernel_evidence_from, cap);
  }
  // Overlapping communication is a GPU-side change as well: held to the same waits (hta
  // trace_diff/control: 87.3 ms of exposed communication beside 75.2 ms of host waits).
  if (cap &&
      (IsKernelWork(d.dominant_kind) || d.dominant_kind == report::DominantKind::kOperators ||
       d.dominant_kind == report::DominantKind::kCommunication)) {
    if (cap->beside_idle_phase || KeepsLaunchCount(d))
      ApplyHostWaitCap(d, *cap);
    // A GPU-bound window whose host is close behind, and a change that cuts launches: beyond
    // the waits it must cut the host's own time too (Qwen H100: 2.03 ms of 35.2 ms).
    else if (cap->Binds(SavedByBound(d, cap->wall_ns))) {
      d.support.push_back(HostCloseBehindText(*cap));
      d.bound_speedup_same_launches =
          AmdahlLimit(std::min(0.99, Fraction(cap->waits_ns, cap->wall_ns)));
      RaiseToFewerLaunchesCeiling(d, *cap);
      // The host's own time that caps the gain is profiled host time.
      if (std::string overhead = ProfilerOverheadText(
              trace, context.shapes_recorded, "the host time that holds the gain beyond the waits");
          !overhead.empty())
        d.support.push_back(overhead);
      // Work from before the recording still queued at its start: unrecorded, the host ran at
      // least that far ahead of the GPU, many times the lead it keeps while recorded.
      if (const auto& pre = r.predictions.preroll;
          pre && IsOrphanPreRoll(*pre) && pre->gpu_ns > 2 * cap->waits_ns)
        d.support.push_back(fmt::format(
            "Before the recording the host ran further ahead: at its start the GPU still had "
            "{} of work the host had queued earlier (the pre-roll), against the {} the host "
            "waits for the GPU while recorded; the recorded host is the slower one, which points "
            "to the profiler's own work, so time the steps unprofiled before taking the {:.2f}x "
            "as the limit (trace).",
            Ms(pre->gpu_ns),
            Ms(cap->waits_ns),
            *d.bound_speedup_same_launches));
    }
  }
  if (d.dominant_kind == report::DominantKind::kIdle) {
    d.secondary = SecondaryGpuStatement(
        trace, roofs, index, d, *gpu_phase, compute, SteadyWall(r, idle), context);
    // Without a GPU phase to diagnose, copies that hold the triage's share get their statement.
    if (d.secondary.empty() && has_timeline)
      d.secondary = SecondaryTransferStatement(trace,
                                               roofs,
                                               d,
                                               r,
                                               transfer,
                                               kSecondaryIdleShare,
                                               SteadyWall(r, idle),
                                               steady.exposed_memcpy_ns,
                                               context);
  } else if (has_timeline && idle.has_api_calls && d.bottleneck != report::Bottleneck::kNone &&
             (idle_share >= kSecondaryIdleShare ||
              LargestWaitBound(r) >
                  std::min(d.bound_speedup_at_2x.value_or(d.bound_speedup.value_or(1.0)),
                           kMaterialWaitBound))) {
    d.secondary = SecondaryIdleStatement(trace, d, r, idle, context);
  }
  RankStatements(d);
  BoundThisRankOnly(d, context.collective_evidence.peer_wait, r, SteadyWall(r, idle));
  // Facts of the whole window go with the statement ranked first.
  AddPhase(d, trace, r);
  AddMaterialCopies(d,
                    trace,
                    roofs,
                    r,
                    transfer,
                    kSecondaryIdleShare,
                    SteadyWall(r, idle),
                    steady.exposed_memcpy_ns);
  AddQueueAndCoverage(d, idle);
  QueueAgainstHostPhases(d, idle);
  if (std::int64_t spans = ReplaySpans(trace); spans > 0) {
    d.support.push_back(fmt::format(
        "{} kernel instances are CUPTI range-profiler replay spans (Kineto cuda_profiler_range): "
        "their durations cover the counter replay passes, not one run (trace).",
        spans));
    d.status = report::DiagnosisStatus::kHypothesis;
    d.missing_evidence =
        "Kernel times here are replay spans, so the ranking by time and the timeline are not "
        "run times: a trace of the same run without the range profiler would give them.";
  }
  return d;
}

}  // namespace

report::Diagnosis Diagnose(const model::Trace& trace,
                           const DeviceRoofsTable& roofs,
                           const CorrelationIndex& index,
                           const report::AnalysisReport& r,
                           const IdleAttribution& idle,
                           std::optional<report::LaunchQueue> queue,
                           const std::vector<BlockedLaunch>* blocked) {
  report::Diagnosis d = DiagnoseWindow(trace, roofs, index, r, idle, std::move(queue), blocked);
  if (d.queue)
    d.queue->sentence = QueueSentence(*d.queue, SteadyWall(r, idle));
  PrependInputCheck(d, r.framework, SteadyWall(r, idle));
  if (d.lead == report::DiagnosisLead::kNone && d.bottleneck != report::Bottleneck::kNone)
    d.lead = report::DiagnosisLead::kBottleneck;
  d.label = Label(d);
  for (report::Diagnosis& s : d.secondary)
    s.label = Label(s);
  return d;
}

}  // namespace gpuperf::analysis
