#include "analysis/diagnosis/diagnosis.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <string_view>

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

void SetKernelClass(report::Diagnosis& d,
                    const report::AnalysisReport& r,
                    const IdleAttribution& idle,
                    const report::CriticalShare& share,
                    std::string& subject) {
  const report::KernelRow* row = FindKernel(r, share.name);
  subject.clear();  // kernel names are long: texts say "the dominant kernel" (dominant.name)
  d.dominant_kind = "kernel";
  d.dominant_name = share.name;
  // f over the steady-state window (one-time work left out).
  double f = std::min(
      1.0,
      Fraction(share.critical_ns,
               SteadyWall(r, idle) * std::max<std::int64_t>(1, r.predictions.device_groups)));
  d.dominant_fraction = f;
  d.support.push_back(fmt::format(
      "The dominant kernel holds {} of critical time, f = {} of the steady-state wall time, over "
      "{} instances (trace).",
      Ms(share.critical_ns),
      Pct(f),
      share.instances));
  if (share.max_local_speedup)
    d.bound_speedup = AmdahlSpeedup(f, *share.max_local_speedup);
  else if (f < 1.0)
    d.bound_speedup = AmdahlLimit(f);
  if (!row) {
    d.bottleneck = "unknown";
    d.status = "hypothesis";
    return;
  }
  const report::KernelClass& c = row->classification;
  if (!c.reason.empty())
    d.support.push_back(fmt::format("Class {}: {}.", c.bound, c.reason));
  if (row->tensor_cores)
    d.support.push_back(fmt::format("Tensor cores: {} ({}, {}).",
                                    row->tensor_cores->detail,
                                    row->tensor_cores->evidence,
                                    row->tensor_cores->source));
  if (row->occupancy) {
    std::string achieved =
        row->occupancy->achieved
            ? fmt::format("; achieved {:.0f}% (measured, {} instance(s) with counters)",
                          *row->occupancy->achieved * 100,
                          row->occupancy->achieved_instances)
            : std::string();
    d.support.push_back(fmt::format("Theoretical occupancy {:.0f}%, limited by {} (modeled){}.",
                                    row->occupancy->theoretical * 100,
                                    row->occupancy->limiter,
                                    achieved));
  }
  if (c.tensor_cores_expected_but_unused) {
    d.bottleneck = "tensor_cores_unused";
    d.evidence = "measured";
    d.status = "finding";
    return;
  }
  d.bottleneck = c.bound == "unknown" ? "unknown" : c.bound + "_bound";
  d.evidence = c.evidence;
  d.status = c.evidence == "measured" ? "finding" : "hypothesis";
}

// Share of kernel time in kernels of one class and basis: "launch" (many small launches), or
// "latency" on the basis "launch" (small kernels under one wave run as graph nodes,
// kernel_class.cc: fewer nodes by fusion remove it, graphs are already used).
double ClassShare(const report::AnalysisReport& r,
                  std::string_view bound,
                  std::string_view basis = {}) {
  std::int64_t total = 0, in_class = 0;
  for (const report::KernelRow& k : r.kernels) {
    total += k.duration_ns.total;
    if (k.classification.bound == bound && (basis.empty() || k.classification.basis == basis))
      in_class += k.duration_ns.total;
  }
  return Fraction(in_class, total);
}

double LaunchClassShare(const report::AnalysisReport& r) {
  return ClassShare(r, "launch");
}

double SmallGraphNodeShare(const report::AnalysisReport& r) {
  return ClassShare(r, "latency", "launch");
}

// A phase dominates only from kPhaseMinShare of the window on, and never as a range around
// (nearly) all of it (a root range such as the whole run or one step says nothing).
constexpr double kPhaseMinShare = 0.3;
constexpr double kPhaseWholeWindow = 0.9;

// The host time of the host ranges named `name` spent blocked in calls that wait for the GPU:
// synchronizations, synchronous copies and memsets, and async copy calls of at least 1 ms (the
// runtime staged them through pageable memory, an implicit synchronization).
std::int64_t PhaseBlockedNs(const model::Trace& trace, std::string_view name) {
  std::vector<util::Interval> phase, waits;
  for (const model::Range& range : trace.ranges) {
    if (range.device == model::kNoId && trace.Name(range.name) == name)
      phase.push_back({range.start_ns, range.end_ns});
  }
  if (phase.empty())
    return 0;
  CachedNamePredicate is_wait(trace, IsHostWaitApi);
  CachedNamePredicate is_async(
      trace, [](std::string_view n) { return IsAsyncMemcpyApi(StripVersionSuffix(n)); });
  for (const model::ApiCall& c : trace.api_calls) {
    if (!is_wait(c.name) || (is_async(c.name) && c.duration_ns() < 1'000'000))
      continue;
    waits.push_back({c.start_ns, c.end_ns});
  }
  return util::TotalLength(util::Intersect(util::MergeIntervals(std::move(phase)),
                                           util::MergeIntervals(std::move(waits))));
}

void AddPhase(report::Diagnosis& d, const model::Trace& trace, const report::AnalysisReport& r) {
  const report::CriticalShare* best = nullptr;
  for (const report::CriticalShare& p : r.predictions.phases) {
    if (p.fraction < kPhaseMinShare || p.fraction >= kPhaseWholeWindow)
      continue;
    // One-time work (MPI_Init, a compile range) is left out of the steady state: never its phase.
    if (std::any_of(r.initialization.items.begin(),
                    r.initialization.items.end(),
                    [&](const report::InitializationItem& item) { return item.name == p.name; }))
      continue;
    if (!best || p.fraction > best->fraction)
      best = &p;
  }
  if (!best)
    return;
  // A phase long because its host waits for the GPU is not where the time goes: say so.
  std::int64_t blocked = PhaseBlockedNs(trace, best->name);
  std::string waiting =
      blocked >= best->critical_ns - blocked  // half, without overflow
          ? fmt::format(
                "; {} of it the host was blocked in calls waiting for the GPU "
                "(synchronizations, copies), so the phase is long because the GPU is "
                "behind, not because of its own host work",
                Ms(blocked))
          : std::string();
  d.support.push_back(
      fmt::format("Dominant phase: {} ({} range), {} of the trace window{} (trace).",
                  best->name,
                  best->kind,
                  Pct(best->fraction),
                  waiting));
}

// Transfer- and communication-bound: time not hidden behind computation, measured on the trace.
void SetExposedClass(report::Diagnosis& d,
                     const char* bottleneck,
                     const char* kind,
                     std::int64_t exposed_ns,
                     std::int64_t window_ns) {
  d.bottleneck = bottleneck;
  d.dominant_kind = kind;
  d.dominant_fraction = Fraction(exposed_ns, window_ns);
  d.status = "finding";
  d.evidence = "measured";
  d.support.push_back(
      fmt::format("Exposed {}: {} of the {} window, not overlapped by computation "
                  "(trace).",
                  d.dominant_kind == "copy" ? "copies" : "communication",
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

// A deep queue with a GPU that idles while its next work is queued is not GPU-bound: the queued
// work waits on something other than the host (another stream, a collective, another rank).
// Idle with nothing queued (before the first launch, host phases) says nothing about the queue.
void QueueAgainstIdle(report::Diagnosis& d, double queued_idle_share) {
  if (!d.queue || d.queue->verdict != "gpu_bound" || queued_idle_share < kDominantShare)
    return;
  d.queue->verdict = "gpu_waits";
  d.queue->sentence = fmt::format(
      "Queued but idle: the host runs {} ahead of the GPU (median launch-queue depth; p90 {}; {} "
      "launch calls, trace), yet the GPU idles {} of the steady-state window with its next "
      "work already queued: that work waits on something other than the host (an event on "
      "another stream, a collective, another rank).",
      Ms(d.queue->median_ns),
      Ms(d.queue->p90_ns),
      d.queue->launches,
      Pct(queued_idle_share));
}

// The ceilings the kernel was placed against, as analyze.cc resolved them for the devices of
// the report's ceilings[]: the candidate parts it names (an unnamed GPU), else each device's entry.
std::vector<const model::DeviceCeilings*> EntriesOf(const DeviceRoofsTable& roofs,
                                                    const report::AnalysisReport& r,
                                                    const report::KernelRoofline& roof) {
  const std::vector<std::string>& keys = roof.ceiling_candidates;
  std::vector<const model::DeviceCeilings*> out;
  for (const report::CeilingsUsed& c : r.ceilings) {
    const DeviceRoofs& device = roofs.Of(c.device);
    if (keys.empty() && device.match.entry)
      out.push_back(device.match.entry);
    for (const model::DeviceCeilings* entry : device.unnamed_candidates) {
      if (std::find(keys.begin(), keys.end(), entry->key) != keys.end())
        out.push_back(entry);
    }
  }
  return out;
}

// A GEMM-shaped FP32 kernel on CUDA cores of a GPU with TF32 tensor cores: its time over the
// floor at the TF32 tensor roof. The FP32 compute roof it was placed against (clock-scaled) is
// raised by the datasheet's TF32-tensor / FP32-vector ratio (the clock scaling cancels); the DRAM
// floor stays, unless the kernel shows no on-chip reuse: a tiled library GEMM moves far fewer
// DRAM bytes than it (its operands once, about), so its traffic is no floor for the change and the
// FLOPs alone bound it. Over several candidate parts, the largest ratio and bandwidth: an upper
// bound.
std::optional<double> TensorLocalSpeedup(const DeviceRoofsTable& roofs,
                                         const report::AnalysisReport& r,
                                         const report::KernelRow& row,
                                         bool traffic_falls) {
  if (!row.roofline || !IsMatrixShapedKernel(row.name))
    return std::nullopt;
  const report::KernelRoofline& roof = *row.roofline;
  if (roof.precision != "fp32" || roof.unit != "vector" || !roof.flops || !roof.dram_bytes ||
      !roof.achieved_flops_per_s || !roof.achieved_bytes_per_s || *roof.achieved_flops_per_s <= 0)
    return std::nullopt;
  double ratio = 0;
  for (const model::DeviceCeilings* entry : EntriesOf(roofs, r, roof)) {
    auto tf32 = entry->Peak(model::Precision::kTf32, model::MathUnit::kTensor);
    auto fp32 = entry->Peak(model::Precision::kFp32, model::MathUnit::kVector);
    if (tf32 && fp32 && *fp32 > 0)
      ratio = std::max(ratio, *tf32 / *fp32);
  }
  std::optional<double> compute_peak = roof.peak_flops_per_s;
  std::optional<double> bandwidth = roof.peak_bytes_per_s;
  if (!compute_peak && roof.compute_fraction_range && roof.compute_fraction_range->second > 0)
    compute_peak = *roof.achieved_flops_per_s / roof.compute_fraction_range->second;
  if (!bandwidth && roof.memory_fraction_range && roof.memory_fraction_range->first > 0)
    bandwidth = *roof.achieved_bytes_per_s / roof.memory_fraction_range->first;
  if (ratio <= 1 || !compute_peak || !bandwidth || *compute_peak <= 0 || *bandwidth <= 0)
    return std::nullopt;
  double seconds = *roof.flops / *roof.achieved_flops_per_s;
  double floor = *roof.flops / (*compute_peak * ratio);
  if (!traffic_falls)
    floor = std::max(floor, *roof.dram_bytes / *bandwidth);
  if (floor <= 0)
    return std::nullopt;
  return seconds / floor;
}

// A window whose idle time is the host's (host-, launch- or sync-bound) while its launch queue
// runs deep when it launches has two phases: say so, instead of "GPU-bound" beside "host-bound".
void QueueAgainstHostPhases(report::Diagnosis& d, const IdleAttribution& idle) {
  if (!d.queue || d.queue->verdict != "gpu_bound" || d.dominant_kind != "idle" ||
      d.bottleneck == "dependency_bound")
    return;
  d.queue->sentence = fmt::format(
      "Host-bound between its GPU phases, GPU-bound within them: while it launches, the host "
      "runs {} ahead of the GPU (median launch-queue depth, kernel start - launch-call end; p90 "
      "{}; {} launch calls, trace), and the idle time lies where nothing was launched ({} of it "
      "before the first or after the last GPU activity).",
      Ms(d.queue->median_ns),
      Ms(d.queue->p90_ns),
      d.queue->launches,
      Ms(idle.edge_ns));
}

// FP8 tensor cores came with compute capability 8.9 (Ada) and 9.0 (Hopper), and stay after them.
bool HasFp8TensorCores(const model::Trace& trace) {
  return !trace.devices.empty() &&
         std::all_of(trace.devices.begin(), trace.devices.end(), [](const model::Device& d) {
           return d.compute_major > 8 || (d.compute_major == 8 && d.compute_minor >= 9);
         });
}

// What the advice for the dominant kernel depends on: its cache reuse, shape, grid and floor.
void DescribeDominantKernel(const model::Trace& trace,
                            const DeviceRoofsTable& roofs,
                            const report::AnalysisReport& r,
                            const report::CriticalShare& share,
                            ExperimentContext& context) {
  context.roof_local_speedup = share.max_local_speedup;  // SetKernelClass's bound rests on it
  const report::KernelRow* row = FindKernel(r, share.name);
  if (!row)
    return;
  if (row->roofline &&
      (row->roofline->evidence == "measured" || row->classification.bound == "cache")) {
    if (auto reuse = NoOnChipReuse(*row->roofline))
      context.no_reuse = NoReuseText(*reuse);
  }
  context.matrix_shaped = IsMatrixShapedKernel(row->name);
  if (row->roofline && row->roofline->evidence == "measured") {
    context.roof_precision = row->roofline->precision;
    context.roof_unit = row->roofline->unit;
  }
  context.fp8_tensor_cores = HasFp8TensorCores(trace);
  context.min_waves = MinWaves(trace, roofs, *row);
  context.tensor_local_speedup = TensorLocalSpeedup(roofs, r, *row, !context.no_reuse.empty());
}

// The idle half of a window whose main statement is its GPU work: from this share of the steady
// window on, the idle time gets its own statement (its class, experiment and causal bound).
constexpr double kSecondaryIdleShare = 0.15;

std::vector<report::Diagnosis> SecondaryIdleStatement(const model::Trace& trace,
                                                      const report::Diagnosis& main,
                                                      const report::AnalysisReport& r,
                                                      const IdleAttribution& idle,
                                                      const ExperimentContext& base) {
  report::Diagnosis s;
  s.target_metric = main.target_metric;
  s.scope = main.scope;
  s.baseline = main.baseline;
  std::string subject;
  ExperimentContext context = SameInput(base);
  context.graphs = base.graphs;
  SetIdleClass(trace, s, r, idle, subject, context);
  SetExperiment(s, subject, context);
  return {std::move(s)};
}

// A wait finding that bounds at least this much (about 5% of the window in GPU idle it causes) is
// worth its own statement even under kSecondaryIdleShare of idle.
constexpr double kMaterialWaitBound = 1.05;

// The largest bound of a wait-type finding (sized by the GPU idle it causes): under the idle
// share that calls for an idle statement, a wait that bounds more than the main statement, or
// kMaterialWaitBound, still earns one, so that the ranking and the reader see it.
double LargestWaitBound(const report::AnalysisReport& r) {
  double best = 1.0;
  for (std::string_view id : kWaitFindings) {
    if (const report::Finding* f = FindFinding(r, id); f && f->bound_speedup_if_removed)
      best = std::max(best, *f->bound_speedup_if_removed);
  }
  return best;
}

// The statement fields, without the triage, scope and queue the two statements share.
void SwapStatements(report::Diagnosis& a, report::Diagnosis& b) {
  std::swap(a.dominant_kind, b.dominant_kind);
  std::swap(a.dominant_name, b.dominant_name);
  std::swap(a.dominant_fraction, b.dominant_fraction);
  std::swap(a.lever, b.lever);
  std::swap(a.bottleneck, b.bottleneck);
  std::swap(a.status, b.status);
  std::swap(a.evidence, b.evidence);
  std::swap(a.support, b.support);
  std::swap(a.next_experiment, b.next_experiment);
  std::swap(a.bound_speedup, b.bound_speedup);
  std::swap(a.bound_speedup_modeled, b.bound_speedup_modeled);
  std::swap(a.bound_speedup_at_2x, b.bound_speedup_at_2x);
  std::swap(a.bound_speedup_overlapped, b.bound_speedup_overlapped);
  std::swap(a.bound_speedup_same_launches, b.bound_speedup_same_launches);
  std::swap(a.falsified_by, b.falsified_by);
  std::swap(a.missing_evidence, b.missing_evidence);
}

// One ranked next experiment: when the other half of a mixed window bounds a larger gain, and
// stands on a finding (or the main statement does not either), its experiment comes first.
void RankStatements(report::Diagnosis& d) {
  if (d.secondary.empty())
    return;
  report::Diagnosis& s = d.secondary.front();
  // A measurement over kernels of unknown class ranks by their gain at 2x, not at zero time.
  auto ranked = [](const report::Diagnosis& x) {
    return x.bound_speedup_at_2x ? x.bound_speedup_at_2x : x.bound_speedup;
  };
  std::optional<double> secondary_bound = ranked(s);
  if (!secondary_bound || !std::isfinite(*secondary_bound))
    return;
  double main_bound = ranked(d).value_or(1.0);
  bool evidence_allows = s.status == "finding" || d.status != "finding";
  if (*secondary_bound <= main_bound + 1e-3 || !evidence_allows)
    return;
  SwapStatements(d, s);
  d.support.push_back(fmt::format(
      "Ranked first: its bound ({:.2f}x) is larger than that of the {} phase's statement "
      "({:.2f}x, {}), which follows as the secondary.",
      *secondary_bound,
      s.dominant_kind == "idle"   ? "idle"
      : s.dominant_kind == "copy" ? "copy"
                                  : "GPU",
      main_bound,
      s.bottleneck));
}

// The dominant work's class: the collective or kernel with the most critical time, or
// launch-bound when launch-class kernels hold most of the kernel time.
void ClassifyDominantWork(const model::Trace& trace,
                          const DeviceRoofsTable& roofs,
                          report::Diagnosis& d,
                          const report::AnalysisReport& r,
                          const IdleAttribution& idle,
                          std::string& subject,
                          ExperimentContext& context) {
  double launch_share = LaunchClassShare(r);
  const report::CriticalShare* top = DominantKernelShare(r);
  // A collective with the most critical time while exposed communication stays a small share of
  // the window (the triage's "no") does not make the window communication-bound: the computation
  // around it is the dominant work (hta trace_diff/test: SendRecv 8.7% of the wall time, exposed
  // communication 9.7%, computation 73.8%).
  double exposed_comm = Fraction(r.timeline.exposed_communication_ns, SteadyWall(r, idle));
  if (top && IsCollective(r, top->name) && exposed_comm < kSecondaryIdleShare) {
    if (const report::CriticalShare* compute = DominantKernelShare(r, true)) {
      d.support.push_back(fmt::format(
          "The kernel with the most critical time is a collective ({} of the wall time), but "
          "exposed communication is {} of the window: the computation is the dominant work "
          "(trace).",
          Pct(top->fraction),
          Pct(exposed_comm)));
      top = compute;
    }
  }
  if (top && IsCollective(r, top->name)) {
    SetCollectiveClass(d, r, *top, subject);
    if (!context.collective_wait.empty())
      d.support.push_back(context.collective_wait);
  } else if (top)
    SetKernelClass(d, r, idle, *top, subject);
  if (launch_share >= kDominantShare) {
    d.bottleneck = "launch_bound";
    d.evidence = "measured";
    d.status = "finding";
    d.support.push_back(fmt::format(
        "{} of kernel time is in kernels of a few microseconds on less than one wave; {} "
        "kernel launches (trace).",
        Pct(launch_share),
        r.audit.kernel_launches));
  } else if (!top) {
    d.bottleneck = "unknown";
    d.status = "hypothesis";
  }
  if (top && d.dominant_kind == "kernel" && d.dominant_name == top->name &&
      d.bottleneck != "launch_bound")
    DescribeDominantKernel(trace, roofs, r, *top, context);
  WidenToFlatProfile(d, r, SteadyWall(r, idle), context);
  WidenToClassPeers(d, r, SteadyWall(r, idle), context);
}

// "memory_bound" -> "memory-bound"; an unknown class over kernel work is still GPU-bound, and
// "unknown" alone reads as no verdict.
std::string Label(const report::Diagnosis& d) {
  if (d.bottleneck == "unknown" && d.dominant_kind == "kernel")
    return "GPU-bound, kernel class unknown";
  std::string label = d.bottleneck;
  std::replace(label.begin(), label.end(), '_', '-');
  return label;
}

report::Diagnosis DiagnoseWindow(const model::Trace& trace,
                                 const DeviceRoofsTable& roofs,
                                 const CorrelationIndex& index,
                                 const report::AnalysisReport& r,
                                 const IdleAttribution& idle,
                                 std::optional<report::LaunchQueue> queue) {
  report::Diagnosis d;
  d.target_metric = TargetMetric(r);
  d.scope = Scope(trace, r);
  d.baseline = Baseline(trace, r);
  d.queue = std::move(queue);
  ExperimentContext context = InputContext(trace);
  context.collective_wait = CollectiveWaitText(trace, index, r);
  context.one_shot = r.framework.steps.size() < 2 && !r.kernels.empty() &&
                     r.kernels.front().duration_ns.count < kOneShotInstances;
  // Graphs already carry most launches, or the program captures them: never advise graphs.
  context.graphs =
      r.launch.graph_kernels * 2 > std::max<std::int64_t>(1, r.launch.kernel_ns.count) ||
      std::any_of(r.initialization.items.begin(),
                  r.initialization.items.end(),
                  [](const auto& item) { return item.kind == "graph_capture"; });
  std::string subject;
  const report::Timeline& t = r.timeline;
  if (t.activities == 0) {
    d.dominant_kind = "none";
    d.bottleneck = "unknown";
    d.status = "hypothesis";
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
    return share >= kDominantShare || share == largest ? "yes" : "no";
  };
  // Work waiting in the launch queue means the GPU sets the pace: a minority of idle time then
  // does not make the program host-bound.
  bool queued = d.queue && d.queue->verdict == "gpu_bound";
  bool idle_decides = idle_share >= kDominantShare || (idle_share == largest && !queued);
  // Nsight Compute replays each kernel alone: no timeline, so no idle, copy or overlap question.
  bool has_timeline = trace.metadata.format != "ncu-csv";
  idle_decides = idle_decides && has_timeline;
  // The triage as a table of steps, asked in the seed's order: GPU idle -> transfer ->
  // communication -> dominant work. The first step that decides classifies the window; the
  // steps before it are recorded with their answer. Without a timeline (Nsight Compute) only the
  // dominant work is asked.
  std::size_t kernel_evidence_from = 0;  // where the dominant kernel's evidence starts
  struct TriageStep {
    const char* question;
    bool asked;
    const char* answer;
    std::string detail;
    bool decides;
    std::function<void()> classify;
  };
  const std::vector<TriageStep> steps = {
      {"gpu_idle",
       has_timeline,
       idle_decides                        ? "yes"
       : idle_share >= kSecondaryIdleShare ? "partly"
                                           : "no",
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
      {"transfer",
       has_timeline,
       answer(transfer),
       fmt::format("copies not overlapped by kernels: {} of the window (trace)", Pct(transfer)),
       transfer >= kDominantShare || transfer == largest,
       [&] {
         SetExposedClass(d, "transfer_bound", "copy", steady.exposed_memcpy_ns, window);
         if (!r.memory_ops.empty())
           d.dominant_name = subject = r.memory_ops.front().operation;
         if (const report::Finding* f = FindFinding(r, report::finding_id::kPageableAsyncMemcpy))
           d.support.push_back(fmt::format("{} ({}, trace).", f->summary, f->id));
       }},
      {"communication",
       has_timeline,
       // "partly": a large minority, which a collective can still make the dominant work.
       std::string_view(answer(comm)) == "no" && comm >= kSecondaryIdleShare ? "partly"
                                                                             : answer(comm),
       fmt::format("communication not overlapped by computation: {} of the window (trace)",
                   Pct(comm)),
       comm >= kDominantShare || comm == largest,
       [&] {
         SetExposedClass(
             d, "communication_bound", "communication", steady.exposed_communication_ns, window);
         // The long tail of a collective's instances is this rank waiting for the others: the
         // evidence the falsification asks for.
         if (!context.collective_wait.empty())
           d.support.push_back(context.collective_wait);
         for (const report::KernelRow& k : r.kernels) {
           if (IsCommunicationKernel(k.name)) {
             d.dominant_name = subject = k.name;
             break;
           }
         }
       }},
      {"dominant_work",
       true,
       "yes",
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
           context.host_wait_cap = HostWaitsOnGpu(trace, index, r, SteadyWall(r, idle));
           context.host_wait_cap->host_work_ns = idle.host_work_ns;
           context.host_wait_cap->beside_idle_phase = idle_share >= kSecondaryIdleShare;
         }
         ClassifyDominantWork(trace, roofs, d, r, idle, subject, context);
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
  if (const report::KernelRow* k = FindKernel(r, d.dominant_name); k && d.dominant_kind == "kernel")
    AdviseFromCounters(d, *k);
  const HostWaitCap* cap = context.host_wait_cap ? &*context.host_wait_cap : nullptr;
  if (d.dominant_kind == "kernel" && d.bottleneck != "launch_bound") {
    AddCollectiveEvidence(d, r, context.collective_wait);
    ApplyLever(d, trace, roofs, r, SteadyWall(r, idle), kernel_evidence_from, cap);
  }
  if (cap && (d.dominant_kind == "kernel" || d.dominant_kind == "operators")) {
    if (cap->beside_idle_phase || KeepsLaunchCount(d))
      ApplyHostWaitCap(d, *cap);
    // A GPU-bound window whose host is close behind, and a change that cuts launches: beyond
    // the waits it must cut the host's own time too (Qwen H100: 2.03 ms of 35.2 ms).
    else if (cap->Binds(SavedByBound(d, cap->wall_ns))) {
      d.support.push_back(HostCloseBehindText(*cap));
      d.bound_speedup_same_launches =
          AmdahlLimit(std::min(0.99, Fraction(cap->waits_ns, cap->wall_ns)));
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
  if (d.dominant_kind == "idle") {
    d.secondary =
        SecondaryGpuStatement(trace, roofs, index, d, r, compute, SteadyWall(r, idle), context);
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
  } else if (has_timeline && idle.has_api_calls && !d.bottleneck.empty() &&
             (idle_share >= kSecondaryIdleShare ||
              LargestWaitBound(r) >
                  std::min(d.bound_speedup_at_2x.value_or(d.bound_speedup.value_or(1.0)),
                           kMaterialWaitBound))) {
    d.secondary = SecondaryIdleStatement(trace, d, r, idle, context);
  }
  RankStatements(d);
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
    d.status = "hypothesis";
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
                           std::optional<report::LaunchQueue> queue) {
  report::Diagnosis d = DiagnoseWindow(trace, roofs, index, r, idle, std::move(queue));
  PrependInputCheck(d, r.framework, SteadyWall(r, idle));
  if (d.lead.empty() && !d.bottleneck.empty())
    d.lead = "bottleneck";
  d.label = Label(d);
  for (report::Diagnosis& s : d.secondary)
    s.label = Label(s);
  return d;
}

}  // namespace gpuperf::analysis
