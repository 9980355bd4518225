// The statement's context lines (target metric, scope, baseline) and the steps every diagnosis
// says apart from its class: one-time work, the launch queue and coverage gaps.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <unordered_set>
#include <vector>

#include "analysis/core/names.h"
#include "analysis/core/statistics.h"
#include "analysis/diagnosis/diagnosis.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/findings/findings.h"
#include "analysis/predictions/preroll.h"
#include "analysis/timeline/audit.h"
#include "util/counted.h"

namespace gpuperf::analysis {
namespace {

// The devices the window's GPU work ran on, described from the trace's device list where it
// names them; "of N recorded" when the trace lists more (a rank sees every GPU of its node).
std::string DevicesText(const model::Trace& trace, const report::AnalysisReport& r) {
  std::vector<std::string> used;
  for (const report::DeviceTimeline& d : r.devices) {
    const model::Device* info = trace.FindDevice(d.device);
    used.push_back(
        info ? DeviceText(*info, "unnamed")
             : fmt::format("{}: {}", d.device, d.name.empty() ? "not described" : d.name));
  }
  std::size_t recorded = r.source.devices.size();
  if (used.empty())
    return "";
  std::string text = fmt::format("; {} device{} used", used.size(), used.size() == 1 ? "" : "s");
  if (recorded > used.size())
    text += fmt::format(" (of {} the trace describes)", recorded);
  text += ": ";
  for (std::size_t i = 0; i < used.size(); ++i)
    text += (i ? "; " : "") + used[i];
  return text;
}

}  // namespace

std::string TargetMetric(const report::AnalysisReport& r) {
  if (!r.source.has_timeline)
    return fmt::format(
        "kernel time of the profiled launches, {} (Nsight Compute replays each "
        "kernel alone: there is no program wall time); lower is better",
        Ms(r.predictions.wall_ns));
  // The window the bounds are over: the recorded one, or less a pre-roll and the one-time work.
  bool steady = r.initialization.steady_window_ns > 0 && !r.initialization.items.empty();
  return fmt::format("wall time of the {} window, {} ({}); lower is better",
                     steady                  ? "steady-state"
                     : r.predictions.preroll ? "measured"
                                             : "recorded",
                     Ms(r.predictions.wall_ns),
                     r.predictions.wall_source.empty() ? "trace" : r.predictions.wall_source);
}

namespace {

struct WindowCounts {
  std::int64_t kernels = 0;
  std::int64_t distinct_kernels = 0;
  std::int64_t copies = 0;
  std::int64_t synchronizations = 0;
};

// What starts in `span`: kernels and their names, copies, and host-blocking synchronizations
// (API calls, one per correlation id as nsys records some twice, and synchronization records
// of no such call).
WindowCounts CountInSpan(const model::Trace& trace, util::Interval span) {
  WindowCounts out;
  std::unordered_set<model::NameId> names;
  for (const model::GpuActivity& a : trace.activities) {
    if (!InSteadySpan(a, span))
      continue;
    if (a.kind == model::ActivityKind::kKernel) {
      ++out.kernels;
      names.insert(a.name);
    } else if (a.kind == model::ActivityKind::kMemcpy) {
      ++out.copies;
    }
  }
  out.distinct_kernels = static_cast<std::int64_t>(names.size());
  std::unordered_set<std::int64_t> calls;
  CachedNamePredicate is_sync(trace, IsBlockingSyncApi);
  for (const model::ApiCall& call : trace.api_calls) {
    if (is_sync(call.name) && InSteadySpan(call.start_ns, span))
      calls.insert(call.correlation != model::kNoId ? call.correlation : call.start_ns);
  }
  out.synchronizations = static_cast<std::int64_t>(calls.size());
  for (const model::SyncEvent& s : trace.syncs) {
    if (InSteadySpan(s.start_ns, span) && !calls.contains(s.correlation) &&
        IsHostBlockingSync(s.kind))
      ++out.synchronizations;
  }
  return out;
}

}  // namespace

std::string Scope(const model::Trace& trace, const report::AnalysisReport& r) {
  const report::SourceInfo& s = r.source;
  std::string text = fmt::format("{} ({}", s.path, s.format);
  if (!s.producer.empty())
    text += ", " + s.producer;
  text += ")";
  text += DevicesText(trace, r);
  if (s.rank)
    text += fmt::format(
        "; rank {}{}", *s.rank, s.world_size ? fmt::format(" of {}", *s.world_size) : "");
  // Synchronous copies block the host like a synchronization, which the count above leaves
  // out (saxpy: 15 cudaMemcpy calls, 0 synchronizations). nsys records a call twice (with and
  // without its version suffix): count correlation ids.
  // With a part left out before the steady window (a pre-roll, the start-up, a warm-up step) or
  // an unobserved tail, what the steady span holds is counted (WindowCounts), not the trace.
  const bool whole = !r.predictions.preroll && r.initialization.unobserved_tail_ns == 0;
  const util::Interval span = whole ? util::Interval{} : SteadySpan(trace, r);
  std::unordered_set<std::int64_t> sync_copies;
  CachedNamePredicate is_sync_copy(trace, IsSyncMemcpyApi);
  for (const model::ApiCall& call : trace.api_calls) {
    if (is_sync_copy(call.name) && (whole || InSteadySpan(call.start_ns, span)))
      sync_copies.insert(call.correlation != model::kNoId ? call.correlation : call.start_ns);
  }
  const WindowCounts counts = whole ? WindowCounts{r.audit.kernel_launches,
                                                   r.audit.distinct_kernels,
                                                   r.audit.memcpy_htod + r.audit.memcpy_dtoh +
                                                       r.audit.memcpy_dtod + r.audit.memcpy_other,
                                                   r.audit.synchronizations}
                                    : CountInSpan(trace, span);
  text +=
      fmt::format("; the {}window holds {} of {}, {}, {}{}",
                  whole ? "" : "steady-state ",
                  util::Counted(counts.kernels, "kernel launch", "kernel launches"),
                  util::Counted(counts.distinct_kernels, "kernel", "kernels"),
                  util::Counted(counts.copies, "copy", "copies"),
                  util::Counted(counts.synchronizations, "synchronization", "synchronizations"),
                  sync_copies.empty()
                      ? std::string()
                      : fmt::format(" and {} synchronous copy call{}, which block{} the host too",
                                    sync_copies.size(),
                                    sync_copies.size() == 1 ? "" : "s",
                                    sync_copies.size() == 1 ? "s" : ""));
  return text;
}

namespace {

// A step far above the median of the steps the window keeps (from kLongStepRatio times it, with
// three or more steps), and how much of it the GPU idled: a mid-run stall the median hides
// (k2021: ProfilerStep#9, 1.29x the median, 55 ms of it idle).
constexpr double kLongStepRatio = 1.2;

std::string LongestStepText(const std::vector<report::StepRow>& steps, std::size_t first) {
  if (steps.size() < first + 3)
    return "";
  std::vector<double> walls;
  const report::StepRow* longest = nullptr;
  for (std::size_t i = first; i < steps.size(); ++i) {
    walls.push_back(static_cast<double>(steps[i].wall_ns));
    if (!longest || steps[i].wall_ns > longest->wall_ns)
      longest = &steps[i];
  }
  double median = Median(walls);
  if (median <= 0 || static_cast<double>(longest->wall_ns) < kLongStepRatio * median)
    return "";
  return fmt::format(
      "; the longest step, {} of {} ({}), takes {}, {:.2f}x the median, the GPU idle {} of it "
      "(trace)",
      longest - steps.data() + 1,
      steps.size(),
      longest->name,
      Ms(longest->wall_ns),
      static_cast<double>(longest->wall_ns) / median,
      Ms(longest->idle_ns));
}

// When the GPU is the constraint, the host runs ahead and its step markers shift with the launch
// queue: a step that blocks on a sync drains it and looks long, the next one short, though the
// GPU did the same work (difftest: walls of 82 to 166 ms, each step's launched work busy 118 to
// 126 ms). The busy union of the work each step launched is then the steadier figure of a step's
// cost; said when it is near the walls' median, under half their spread, and the walls spread.
std::string LaunchedBusyText(const std::vector<report::StepRow>& steps, std::size_t from) {
  if (steps.size() < from + 2)
    return "";
  std::vector<double> walls, busy;
  for (std::size_t i = from; i < steps.size(); ++i) {
    walls.push_back(static_cast<double>(steps[i].wall_ns));
    busy.push_back(static_cast<double>(steps[i].launched_busy_ns));
  }
  double wall_median = Median(walls);
  double busy_median = Median(busy);
  double wall_mad = MedianAbsoluteDeviation(walls);
  double busy_mad = MedianAbsoluteDeviation(busy);
  // Steady walls (a MAD under 5% of their median) need no other figure.
  if (busy_median < 0.9 * wall_median || 2 * busy_mad >= wall_mad || wall_mad < 0.05 * wall_median)
    return "";
  auto [low, high] = std::minmax_element(busy.begin(), busy.end());
  return fmt::format(
      "; the GPU work each step launched keeps the GPU busy a steadier {} a step (median; {} to "
      "{}, MAD {}; the busy union of that work, trace): the GPU is the constraint and the host's "
      "step markers shift with the launch queue, so compare steps by that figure",
      Ms(static_cast<std::int64_t>(busy_median)),
      Ms(static_cast<std::int64_t>(*low)),
      Ms(static_cast<std::int64_t>(*high)),
      Ms(static_cast<std::int64_t>(busy_mad)));
}

}  // namespace

std::size_t WarmUpStepsLeftOut(const report::AnalysisReport& r) {
  if (!r.predictions.preroll || r.predictions.preroll->warmup_step.empty() ||
      r.framework.steps.size() < 3)
    return 0;
  return static_cast<std::size_t>(std::max<std::int64_t>(1, r.predictions.preroll->warmup_steps));
}

std::string Baseline(const model::Trace& trace, const report::AnalysisReport& r) {
  const report::Timeline& t = r.timeline;
  std::int64_t kernel_ns = 0;
  for (const report::KernelRow& k : r.kernels)
    kernel_ns += k.duration_ns.total;
  if (!r.source.has_timeline)
    return fmt::format(
        "kernels {} over {} profiled launches, each replayed alone by Nsight Compute (clocks "
        "locked, caches flushed: per-kernel counters, no timeline, so no idle, copy or overlap "
        "figures; source: counters); one profile, no run-to-run distribution",
        Ms(kernel_ns),
        r.audit.kernel_launches);
  std::string preroll;
  if (const auto& p = r.predictions.preroll) {
    preroll = fmt::format(
        ". Excluded from the diagnosis window: its first {} ({} of GPU busy time), {}; the "
        "window left is {}",
        Ms(p->time_ns),
        Ms(p->gpu_ns),
        PreRollWhat(*p),
        Ms(r.predictions.wall_ns));
  } else if (const std::int64_t steady = r.predictions.wall_ns;
             steady > 0 && t.total_ns > 0 &&
             std::abs(static_cast<double>(t.total_ns - steady)) >
                 0.05 * static_cast<double>(steady)) {
    // One-time gaps or host work outside the span: the shares the diagnosis uses are the
    // window's (switchtransformers: the span 18.6% idle, the window 3.4%).
    preroll = fmt::format("; busy {} of the {} steady-state window, which the diagnosis uses",
                          Pct(Fraction(std::min(t.busy_ns, steady), steady)),
                          Ms(steady));
  }
  // Repeated steps in the trace are a run-to-run distribution of the step time (not of the
  // whole run): say it, with its spread, instead of asking for repeats.
  std::string spread =
      "it holds no run-to-run distribution, so repeat the run before trusting differences under "
      "a few percent";
  const auto& steps = r.framework.step_summary;
  // Warm-up steps left out of the window (outliers) are left out of its distribution too.
  const std::size_t left_out = WarmUpStepsLeftOut(r);
  if (steps && left_out > 0) {
    std::vector<double> walls;
    for (std::size_t i = left_out; i < r.framework.steps.size(); ++i)
      walls.push_back(static_cast<double>(r.framework.steps[i].wall_ns));
    spread = fmt::format(
        "its {} steps ({}) give the step-time distribution; over the {} after the {}, left "
        "out of the window: median {}, p95 {}, MAD {} (trace); compare steps, not single runs",
        steps->steps,
        steps->source,
        walls.size(),
        left_out == 1 ? std::string("first") : fmt::format("first {}", left_out),
        Ms(static_cast<std::int64_t>(Median(walls))),
        Ms(static_cast<std::int64_t>(Percentile(walls, 0.95))),
        Ms(static_cast<std::int64_t>(MedianAbsoluteDeviation(walls))));
  } else if (steps && steps->steps >= 2) {
    spread = fmt::format(
        "its {} steps ({}) give the step-time distribution: median {}, p95 {}, MAD {} (trace); "
        "compare steps, not single runs",
        steps->steps,
        steps->source,
        Ms(static_cast<std::int64_t>(steps->median_wall_ns)),
        Ms(static_cast<std::int64_t>(steps->p95_wall_ns)),
        Ms(static_cast<std::int64_t>(steps->mad_wall_ns)));
  } else if (std::string iterations = UnmarkedIterationsText(trace); !iterations.empty()) {
    spread = iterations;
  }
  spread += LongestStepText(r.framework.steps, left_out);
  spread += LaunchedBusyText(r.framework.steps, left_out);
  return fmt::format(
      "GPU span {}: busy {}, idle {}; kernels {} over {}; exposed copies {}, exposed "
      "communication {}{}. Measured from one trace (source: trace); {}",
      Ms(t.total_ns),
      Pct(Fraction(t.busy_ns, t.total_ns)),
      Pct(Fraction(t.idle_ns, t.total_ns)),
      Ms(kernel_ns),
      util::Counted(r.audit.kernel_launches, "launch", "launches"),
      Ms(t.exposed_memcpy_ns),
      Ms(t.exposed_communication_ns),
      preroll,
      spread);
}

// One-time work: always said when present; the diagnosis itself when it holds most of the
// window ("profile after warm-up").
bool InitializationStep(report::Diagnosis& d,
                        const report::AnalysisReport& r,
                        const IdleAttribution& idle) {
  const report::Initialization& init = r.initialization;
  if (init.time_ns <= 0)
    return false;
  // It dominates the wall only where the GPU idled through it: one-time host work beside GPU
  // work (compilation on another thread) leaves the wall as it is.
  double critical = idle.window_ns > 0 ? static_cast<double>(idle.excluded_ns) /
                                             static_cast<double>(idle.window_ns)
                                       : init.fraction;
  std::string items;
  for (std::size_t i = 0; i < init.items.size() && i < 3; ++i)
    items += fmt::format("{}{} {} ({})",
                         i ? ", " : "",
                         ToString(init.items[i].kind),
                         init.items[i].name,
                         Ms(init.items[i].time_ns));
  bool dominant = critical >= kDominantShare;
  d.triage.push_back({report::TriageQuestion::kInitialization,
                      dominant ? report::TriageAnswer::kYes : report::TriageAnswer::kNo,
                      fmt::format("one-time work covers {} ({} of the trace window{}), {} of the "
                                  "window with the GPU idle; left out of the steady-state shares "
                                  "and bounds (trace)",
                                  Ms(init.time_ns),
                                  Pct(init.fraction),
                                  init.before_window_ns > 0
                                      ? fmt::format("; {} of it before the steady-state window",
                                                    Ms(init.before_window_ns))
                                      : "",
                                  Pct(critical))});
  d.support.push_back(fmt::format(
      "One-time work (initialization, section \"Initialization\"): {} of the window, most in {}; "
      "the steady-state diagnosis leaves it out (trace).",
      Ms(init.time_ns),
      items));
  if (!dominant)
    return false;
  d.bottleneck = report::Bottleneck::kInitialization;
  d.dominant_kind = report::DominantKind::kInitialization;
  d.dominant_name = init.items.empty() ? "" : init.items.front().name;
  d.dominant_fraction = critical;
  d.status = report::DiagnosisStatus::kFinding;
  d.evidence = report::EvidenceTier::kMeasured;
  // Device allocations that fill a repeated phase of the steady window recur outside the
  // one-time work: profiled after warm-up they stay (alexnet: the two marked warm-up forwards
  // spend 1.06 s of 1.09 s in cudaMalloc, the measured one 32.8 ms of 36.4 ms, after the harness
  // empties the caching allocator). One instance shows no recurrence.
  const report::PhaseVerdict* allocating = nullptr;
  for (const report::PhaseVerdict& v : r.phase_verdicts) {
    if (v.verdict == report::PhaseClass::kAllocationBound && v.instances >= 2 &&
        (!allocating || v.idle_alloc_ns > allocating->idle_alloc_ns))
      allocating = &v;
  }
  if (allocating)
    d.support.push_back(fmt::format(
        "In the window left after it, the phase {} is allocation-bound: the GPU idles {} of its "
        "{} under device allocations and frees ({} instance{}, section \"Phases\"). They recur "
        "outside the "
        "one-time work, so a profile after warm-up shows them again unless the memory stays "
        "allocated between iterations (PyTorch's caching allocator: no torch.cuda.empty_cache "
        "between them; buffers allocated once and reused) (trace).",
        allocating->name,
        Ms(allocating->idle_alloc_ns),
        Ms(allocating->wall_ns),
        allocating->instances,
        allocating->instances == 1 ? "" : "s"));
  return true;
}

void AddQueueAndCoverage(report::Diagnosis& d, const IdleAttribution& idle) {
  if (idle.unobserved_lead_ns > 0)
    d.support.push_back(fmt::format(
        "Before the first GPU activity, {} passed with its work already launched and nothing "
        "recorded running: the GPU was busy with work launched before the recording, or the "
        "host and GPU clocks differ. Unobserved, not idle: left out of the idle shares and of "
        "the steady-state window (trace: launch calls by correlation).",
        Ms(idle.unobserved_lead_ns)));
  if (idle.unobserved_tail_ns > 0)
    d.support.push_back(fmt::format(
        "After the last GPU activity and the last step, {} passed in which the trace records "
        "nothing (no GPU work, CUDA call, operator, range or frame) before it ends: outside the "
        "measured steps (code after the loop without operators, or the profiler stopping), and "
        "no later GPU work waited through it. Left out of the idle shares and of the "
        "steady-state window (trace).",
        Ms(idle.unobserved_tail_ns)));
  if (idle.coverage_gap_ns > 0)
    d.support.push_back(fmt::format(
        "{} stretch{} ({}) hold a blocking call of at least {} during which the GPU ran nothing "
        "and nothing queued started: it waited for work the trace does not record (another "
        "process, device or an unprofiled stream). A gap in the trace's coverage, not a "
        "removable synchronization; left out of the idle shares (trace).",
        idle.coverage_gaps,
        idle.coverage_gaps == 1 ? "" : "es",
        Ms(idle.coverage_gap_ns),
        Ms(kCoverageWaitNs)));
}

}  // namespace gpuperf::analysis
