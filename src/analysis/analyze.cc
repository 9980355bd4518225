// The orchestrator: builds every part of the report from the trace, in dependency order.
#include "gpuperf/analyze.h"

#include <fmt/format.h>

#include <functional>
#include <future>
#include <limits>

#include "analysis/core/correlation.h"
#include "analysis/core/names.h"
#include "analysis/diagnosis/diagnosis.h"
#include "analysis/diagnosis/headline.h"
#include "analysis/diagnosis/initialization.h"
#include "analysis/diagnosis/phase_verdicts.h"
#include "analysis/diagnosis/time_removed_at_2x.h"
#include "analysis/findings/findings.h"
#include "analysis/framework/framework_view.h"
#include "analysis/kernel/ceilings_used.h"
#include "analysis/kernel/kernel_class.h"
#include "analysis/kernel/kernel_floor.h"
#include "analysis/kernel/kernel_model.h"
#include "analysis/kernel/ncu_evidence.h"
#include "analysis/kernel/occupancy.h"
#include "analysis/kernel/readable_name.h"
#include "analysis/kernel/roofline.h"
#include "analysis/kernel/shape_model.h"
#include "analysis/kernel/tensor_cores.h"
#include "analysis/predictions/predictions.h"
#include "analysis/predictions/preroll.h"
#include "analysis/timeline/audit.h"
#include "analysis/timeline/blocked_launches.h"
#include "analysis/timeline/critical_time.h"
#include "analysis/timeline/host_waits.h"
#include "analysis/timeline/idle_attribution.h"
#include "analysis/timeline/launch_overhead.h"
#include "analysis/timeline/ranges.h"
#include "analysis/timeline/step_windows.h"
#include "analysis/timeline/tables.h"
#include "analysis/timeline/timeline.h"
#include "util/intervals.h"
#include "util/user_regex.h"

namespace gpuperf::analysis {
namespace {

report::SourceInfo SourceOf(const model::Trace& trace) {
  const model::TraceMetadata& m = trace.metadata;
  report::SourceInfo s{m.source_path,
                       m.format,
                       m.format_version,
                       m.producer,
                       {},
                       m.rank,
                       m.world_size,
                       m.has_timeline};
  for (const model::Device& d : trace.devices) {
    s.devices.push_back(DeviceText(d, ""));  // unnamed shows as "0:  (cc 8.0, …)", as it always has
  }
  return s;
}

void CopyDiagnostics(const model::Trace& trace, report::AnalysisReport& out) {
  for (const auto& [what, count] : trace.diagnostics.counts)  // in byte order of the names
    out.diagnostics.push_back({std::string(model::DiagnosticName(what)), count});
  out.diagnostic_notes = trace.diagnostics.notes;
}

std::int64_t DuplicateApiRecords(const model::Trace& trace, const CorrelationIndex& index) {
  std::int64_t duplicates = 0;
  for (std::size_t i = 0; i < trace.api_calls.size(); ++i)
    duplicates += index.IsPrimary(i) ? 0 : 1;
  return duplicates;
}

void AddNotes(const model::Trace& trace,
              const CorrelationIndex& index,
              report::AnalysisReport& out) {
  if (out.orphan_activities > 0) {
    out.notes.push_back(fmt::format(
        "timeline counts all {} GPU activities, including {} without a launch call in the trace "
        "(orphans). TraceLens' gpu_timeline drops orphans: timeline_tracelens has busy {} of "
        "span {}, against busy {} of span {} here.",
        out.timeline.activities,
        out.orphan_activities,
        Ms(out.timeline_tracelens.busy_ns),
        Ms(out.timeline_tracelens.total_ns),
        Ms(out.timeline.busy_ns),
        Ms(out.timeline.total_ns)));
  }
  if (std::int64_t duplicates = DuplicateApiRecords(trace, index); duplicates > 0) {
    out.notes.push_back(fmt::format(
        "{} host API records repeat a call already recorded under the same correlation id (nsys "
        "writes e.g. cudaMemcpy and cudaMemcpy_v3020). The API table and the finding rows list "
        "every record as nsys does; launch, audit and finding counts count each call once.",
        duplicates));
  }
}

// The window's steps with the user's --step-range; an invalid pattern finds none (the step
// table reports it).
WindowSteps StepsOfWindow(const model::Trace& trace, const std::string& step_range) {
  if (step_range.empty())
    return FindWindowSteps(trace, nullptr);
  auto pattern = util::UserRegex::Compile(step_range);
  return pattern.ok() ? FindWindowSteps(trace, &*pattern) : WindowSteps{};
}

// Operators, categories, modules and steps, and per kernel name the operator that launched most
// of its time.
struct FrameworkResult {
  report::FrameworkView view;
  framework::KernelFrameworkMap kernels;
  std::string error;
};

FrameworkResult ComputeFramework(const model::Trace& trace,
                                 const CorrelationIndex& index,
                                 const DeviceRoofsTable& roofs,
                                 const AnalyzeOptions& options) {
  FrameworkResult r;
  r.view = framework::ComputeFrameworkView(
      trace, index, roofs, {.step_range = options.step_range}, r.kernels, r.error);
  return r;
}

// `note_at`: where the view's note goes among the others, so that their order does not depend on
// when the view finished.
void AttachFrameworkView(FrameworkResult result, std::size_t note_at, report::AnalysisReport& out) {
  out.framework = std::move(result.view);
  if (!result.error.empty())
    out.notes.insert(out.notes.begin() + static_cast<std::ptrdiff_t>(note_at), result.error);
  for (report::KernelRow& row : out.kernels) {
    if (auto it = result.kernels.find(row.name); it != result.kernels.end()) {
      row.top_operator = it->second.top_operator;
      row.category = it->second.category;
    }
  }
}

}  // namespace

report::AnalysisReport Analyze(const model::Trace& trace, const AnalyzeOptions& options) {
  report::AnalysisReport out;
  out.source = SourceOf(trace);
  CorrelationIndex index(trace);
  // Each device's ceilings, once: every pass that places work on a roof reads these.
  const DeviceRoofsTable roofs(trace);
  // The framework view reads only the trace and the index, and only the diagnosis reads it: it
  // runs beside the kernel, timeline and finding passes (deferred when no thread can start).
  std::future<FrameworkResult> framework = std::async(std::launch::async | std::launch::deferred,
                                                      ComputeFramework,
                                                      std::cref(trace),
                                                      std::cref(index),
                                                      std::cref(roofs),
                                                      std::cref(options));

  ActivityList all = SelectActivities(trace, index, {});
  ActivityList launched =
      SelectActivities(trace, index, {.launched_only = true, .device = std::nullopt});
  out.timeline = ComputeTimeline(trace, all);
  out.devices = DeviceTimelines(trace, all);
  out.timeline_tracelens = ComputeTimeline(trace, launched, CommunicationKernels::kNcclOnly);
  out.orphan_activities = static_cast<std::int64_t>(all.size() - launched.size());

  out.kernels = KernelTable(trace, index, out.timeline.total_ns);
  AttachReadableNames(out.kernels);
  AttachRooflines(trace, roofs, out.kernels, out.notes);
  if (options.kernel_model)  // the user's explicit model beats the shape models
    AttachUserModelRooflines(trace, *options.kernel_model, roofs, out.kernels, out.notes);
  // The innermost host op around each kernel's launch: the shape models and the rules use it.
  const std::vector<std::int64_t> launching_ops = LaunchingHostOps(trace, index);
  AttachModeledRooflines(
      trace, index, roofs, out.kernels, out.notes, &launching_ops);  // counters win
  AttachOccupancy(trace, out.kernels);
  AttachTensorCores(trace, options.sass, out.kernels, out.notes);  // counters, SASS, name
  AttachNcuEvidence(trace, out.kernels);                           // Speed of Light, rules
  ClassifyKernels(trace, out.kernels);
  out.unclassified_kernels = UnclassifiedKernelsOf(out.kernels);
  out.ceilings = CeilingsUsed(trace, roofs, out.kernels);
  out.counters_join = CounterJoinOf(trace);
  out.memory_ops = MemoryOpTable(trace);
  out.api = ApiTable(trace);
  std::vector<LaunchPair> launch_pairs = JoinKernelLaunches(trace, index, false);
  out.launch = SummarizeLaunches(trace, launch_pairs);
  out.audit = ComputeAudit(trace, index);
  out.ranges = RangeTable(trace);
  std::size_t framework_note_at = out.notes.size();
  // One-time work first: the steady-state idle attribution, finding bounds and diagnosis leave
  // it out.
  TraceWindow window = ComputeTraceWindow(trace);
  InitializationResult init = DetectInitialization(trace, index, window);
  out.initialization = init.report;
  // Orphan work from before the recording (the previous step's tail) is no part of the measured
  // iteration: the steady-state window starts where it ends.
  // The start-up before the first marked step and a warm-up first step are left out the same
  // way; they hold any pre-roll before them. The steps are the step table's (--step-range).
  const WindowSteps steps = StepsOfWindow(trace, options.step_range);
  PreRoll preroll = FindStepLead(trace, window, steps);
  if (preroll.empty())
    preroll = FindPreRoll(trace, index, window);
  TraceWindow measured = window;
  measured.start_ns = preroll.end_ns;
  IdleAttribution idle = AttributeIdle(
      trace, all, measured, ImplicitSyncCalls(trace, index), init.intervals, &index, &steps.steps);
  // The host's waits for the GPU, launches blocked on a full queue among them, once: the
  // critical-time runs, the run-forward cost of waits, the host-wait cap and the queue sentence
  // all count the same.
  const LaunchBlocking blocking = FindBlockedLaunches(trace, index);
  const std::vector<BlockedLaunch>& blocked = blocking.launches;
  const HostWaits host_waits(trace, index, blocked);
  AttachRunForward(trace, host_waits.merged(), idle);
  out.initialization.steady_window_ns = idle.steady_window_ns;
  out.initialization.unobserved_lead_ns = idle.unobserved_lead_ns;
  out.initialization.unobserved_tail_ns = idle.unobserved_tail_ns;
  out.initialization.before_window_ns =
      util::CoveredLength(init.intervals, window.start_ns, measured.start_ns);
  // The steady-state window as intervals (after the pre-roll, less the one-time work): the
  // phases of the predictions and of the phase verdicts are measured over it.
  const std::vector<util::Interval> steady =
      util::Subtract({{measured.start_ns, window.end_ns}}, util::MergeIntervals(init.intervals));
  const std::map<std::string, KernelFloor> floors = RooflineFloors(out.kernels);
  out.findings =
      RunRules({trace,
                index,
                options,
                out.timeline,
                out.launch,
                &idle,
                &init.intervals,
                preroll.empty() ? std::numeric_limits<std::int64_t>::min() : measured.start_ns,
                &floors,
                &launching_ops,
                &blocked});
  out.predictions = ComputePredictions(trace,
                                       index,
                                       out.kernels,
                                       floors,
                                       options.prediction_rows,
                                       &preroll,
                                       idle.excluded_ns,
                                       idle.unobserved_lead_ns,
                                       idle.unobserved_tail_ns,
                                       &steady,
                                       &host_waits);
  BoundFindings(out.findings, idle.steady_window_ns);
  AttachPinnedSavings(trace, roofs, window, out);
  out.phase_verdicts = PhaseVerdicts(trace, index, out.initialization, steps.steps, idle, steady);
  DropRunsBehindLimits(out.phase_verdicts, out.predictions.phases);

  CopyDiagnostics(trace, out);
  AddNotes(trace, index, out);
  // Nsight Compute serialises and replays kernels: its launch times are no queue.
  std::optional<report::LaunchQueue> queue;
  if (trace.metadata.has_timeline)
    queue = LaunchQueueDepth(trace, launch_pairs, HostBlockingSyncs(trace, index));
  if (queue)
    SummarizeBlockedLaunches(blocking, *queue);
  AttachFrameworkView(framework.get(), framework_note_at, out);
  out.diagnosis = Diagnose(trace, roofs, index, out, idle, std::move(queue), &blocked);
  SetTimeRemovedAt2x(out.diagnosis);
  out.headline = Headline(trace, out);
  return out;
}

}  // namespace gpuperf::analysis
