#include "analysis/predictions/preroll.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <vector>

#include "analysis/core/statistics.h"
#include "analysis/findings/findings.h"
#include "analysis/framework/categories.h"
#include "analysis/timeline/idle_attribution.h"
#include "analysis/timeline/step_windows.h"
#include "util/intervals.h"

namespace gpuperf::analysis {

bool PreRoll::Holds(const model::GpuActivity& a, const CorrelationIndex& index) const {
  return !empty() && a.start_ns < end_ns &&
         (!warmup_step.empty() || lead_in_ns > 0 || !index.HasCall(a.correlation, a.pid));
}

// A kernel's category by its kernel name, as the framework view gives work without a launching
// operator; memsets kMemset; copies apart.
void PreRoll::AddCategoryTime(const model::Trace& trace,
                              const model::GpuActivity& a,
                              std::int64_t ns) {
  if (a.kind == model::ActivityKind::kKernel)
    category_ns[framework::CategoryOfKernel(trace.Name(a.name))] += ns;
  else if (a.kind == model::ActivityKind::kMemset)
    category_ns[report::FrameworkCategory::kMemset] += ns;
  else
    memcpy_ns = memcpy_ns.value_or(0) + ns;
}

PreRoll FindPreRoll(const model::Trace& trace,
                    const CorrelationIndex& index,
                    const TraceWindow& window) {
  PreRoll out;
  out.start_ns = out.end_ns = window.start_ns;
  // The first launch call of recorded work: before it nothing the trace holds was queued.
  std::int64_t first_launch = std::numeric_limits<std::int64_t>::max();
  for (const model::GpuActivity& a : trace.activities) {
    std::int64_t call = index.PrimaryCall(a.correlation, a.pid);
    if (call >= 0)
      first_launch =
          std::min(first_launch, trace.api_calls[static_cast<std::size_t>(call)].start_ns);
  }
  if (first_launch == std::numeric_limits<std::int64_t>::max())
    return out;
  std::vector<const model::GpuActivity*> orphans;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.start_ns < first_launch && !index.HasCall(a.correlation, a.pid))
      orphans.push_back(&a);
  }
  std::stable_sort(orphans.begin(), orphans.end(), [](const auto* x, const auto* y) {
    return x->start_ns < y->start_ns;
  });
  std::int64_t tail_end = window.start_ns;
  std::vector<util::Interval> busy;
  for (const model::GpuActivity* a : orphans) {
    if (a->start_ns - tail_end > kPreRollGapNs)
      break;  // the GPU ran out of queued work: later orphans are no tail
    tail_end = std::max(tail_end, a->end_ns);
    busy.push_back({a->start_ns, a->end_ns});
    ++out.activities;
    // An orphan has no launching operator: its kernel name decides its category, as in the
    // framework view.
    out.AddCategoryTime(trace, *a, a->end_ns - a->start_ns);
  }
  out.end_ns = std::min(tail_end, first_launch);
  if (out.end_ns <= out.start_ns ||
      static_cast<double>(out.length_ns()) <
          kPreRollMinShare * static_cast<double>(window.length_ns())) {
    out = PreRoll{};
    out.start_ns = out.end_ns = window.start_ns;
    return out;
  }
  out.gpu_ns = util::CoveredLength(util::MergeIntervals(std::move(busy)), out.start_ns, out.end_ns);
  return out;
}

namespace {

// The longest stretch of [start, end) that no record of the trace covers: no GPU work and no
// recorded host work (ranges as long as half of it or longer excluded: a range around the whole
// program says nothing of what ran).
util::Interval LongestUnrecorded(const model::Trace& trace, std::int64_t start, std::int64_t end) {
  std::vector<util::Interval> gpu;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.start_ns < end && a.end_ns > start)
      gpu.push_back({std::max(a.start_ns, start), std::min(a.end_ns, end)});
  }
  const std::vector<util::Interval> covered =
      util::UnionOf(util::MergeIntervals(std::move(gpu)),
                    RecordedHostWork(trace, {start, end}, (end - start - 1) / 2));
  util::Interval longest{start, start};
  std::int64_t at = start;
  for (const util::Interval& c : covered) {
    if (c.start - at > longest.end - longest.start)
      longest = {at, c.start};
    at = std::max(at, c.end);
  }
  if (end - at > longest.end - longest.start)
    longest = {at, end};
  return longest;
}

}  // namespace

PreRoll FindStepLead(const model::Trace& trace,
                     const TraceWindow& window,
                     const WindowSteps& found) {
  PreRoll out;
  out.start_ns = out.end_ns = window.start_ns;
  const std::vector<StepWindow>& steps = found.steps;
  if (steps.size() < 2)
    return out;
  std::vector<double> walls;
  for (const StepWindow& s : steps)
    walls.push_back(static_cast<double>(s.end_ns - s.start_ns));
  const std::size_t warmup_steps = LeadingOutliers(walls);
  const bool warmup = warmup_steps > 0;
  const std::int64_t min_lead =
      static_cast<std::int64_t>(kPreRollMinShare * static_cast<double>(window.length_ns()));
  const std::int64_t lead = steps.front().start_ns - window.start_ns;
  const bool lead_in = found.marked && lead >= min_lead && lead > 0;
  const std::size_t first_steady = warmup_steps;
  if ((!warmup && !lead_in) || steps[first_steady].start_ns <= window.start_ns)
    return out;
  out.end_ns = std::min(steps[first_steady].start_ns, window.end_ns);
  if (lead_in) {
    out.lead_in_ns = lead;
    out.first_step = steps.front().name;
    util::Interval quiet = LongestUnrecorded(trace, window.start_ns, steps.front().start_ns);
    if (2 * (quiet.end - quiet.start) >= lead) {
      out.lead_in_unrecorded_ns = quiet.end - quiet.start;
      out.lead_in_unrecorded_start_ns = quiet.start - window.start_ns;
    }
  }
  if (warmup) {
    out.warmup_step = steps.front().name;
    out.warmup_steps = static_cast<std::int64_t>(warmup_steps);
    for (std::size_t i = 0; i < warmup_steps; ++i)
      out.warmup_step_wall_ns += steps[i].end_ns - steps[i].start_ns;
    out.other_steps_median_ns = static_cast<std::int64_t>(Median(std::vector<double>(
        walls.begin() + static_cast<std::ptrdiff_t>(warmup_steps), walls.end())));
  }
  // Kernels of the left-out part are categorised by name here: the levers subtract them from
  // the framework's categories, which name launched work by its operator; a name and an
  // operator category rarely differ for the same kernel.
  std::vector<util::Interval> busy;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.start_ns >= out.end_ns)
      continue;
    busy.push_back({a.start_ns, a.end_ns});
    ++out.activities;
    out.AddCategoryTime(
        trace, a, std::min(a.end_ns, out.end_ns) - std::max(a.start_ns, out.start_ns));
  }
  out.gpu_ns = util::CoveredLength(util::MergeIntervals(std::move(busy)), out.start_ns, out.end_ns);
  return out;
}

std::optional<report::PreRollSummary> PreRoll::Summary() const {
  if (empty())
    return std::nullopt;
  return report::PreRollSummary{length_ns(),
                                gpu_ns,
                                activities,
                                category_ns,
                                memcpy_ns,
                                warmup_step,
                                warmup_step_wall_ns,
                                other_steps_median_ns,
                                lead_in_ns,
                                first_step,
                                warmup_steps,
                                lead_in_unrecorded_ns,
                                lead_in_unrecorded_start_ns};
}

std::string_view PreRollName(const report::PreRollSummary& p) {
  bool several = p.warmup_steps > 1;
  if (p.lead_in_ns > 0)
    return p.warmup_step.empty() ? "the start-up before the first step"
           : several             ? "the start-up and the warm-up steps"
                                 : "the start-up and the warm-up step";
  return p.warmup_step.empty() ? "the pre-roll"
         : several             ? "the warm-up steps"
                               : "the warm-up step";
}

bool IsOrphanPreRoll(const report::PreRollSummary& p) {
  return p.warmup_step.empty() && p.lead_in_ns == 0;
}

std::string PreRollWhat(const report::PreRollSummary& p) {
  if (IsOrphanPreRoll(p))
    return fmt::format(
        "{} GPU activities with no launch call in the trace ran there before the trace's first "
        "launch call: work launched before the recording began (the previous step's tail), not "
        "part of the measured iteration",
        p.activities);
  std::string lead_in =
      p.lead_in_ns > 0
          ? fmt::format(
                "the {} before the first step, {}: start-up before the loop (process and "
                "library start, model construction, data set-up), not part of it{}",
                Ms(p.lead_in_ns),
                p.first_step,
                p.lead_in_unrecorded_ns > 0
                    ? fmt::format(
                          " ({} of it, from +{} to +{}, the trace records nothing: no GPU "
                          "work, CUDA call, operator or range; host work the profiler does not "
                          "see, such as imports, compilation or data loading, which a CPU "
                          "sampler (py-spy, nsys --sample=cpu) shows)",
                          Ms(p.lead_in_unrecorded_ns),
                          Ms(p.lead_in_unrecorded_start_ns),
                          Ms(p.lead_in_unrecorded_start_ns + p.lead_in_unrecorded_ns))
                    : std::string())
          : "";
  if (p.warmup_step.empty())
    return fmt::format("{}, with {} GPU activities", lead_in, p.activities);
  // The warm-up steps' activities, and the start-up's with them when it is left out too.
  std::string activities =
      !lead_in.empty()
          ? fmt::format("{} GPU activities left out, the start-up's included", p.activities)
      : p.warmup_steps > 1 ? fmt::format("their {} GPU activities", p.activities)
                           : fmt::format("its {} GPU activities", p.activities);
  std::string_view then = lead_in.empty() ? "" : "; and ";
  if (p.warmup_steps > 1)
    return fmt::format(
        "{}{}the first {} steps, {}, with {}: outliers, each against the steps after it, {} "
        "together against a median {} a step of the others (the first steps pay for warm-up: "
        "lazy loading, allocator growth, autotuning, profiler start-up), not part of the steady "
        "state",
        lead_in,
        then,
        p.warmup_steps,
        p.warmup_step,
        activities,
        Ms(p.warmup_step_wall_ns),
        Ms(p.other_steps_median_ns));
  return fmt::format(
      "{}{}the first step, {}, with {}: an outlier, {} against a median {} of the other steps "
      "(the first profiled step pays for warm-up, profiler start-up or a one-time stall), not "
      "part of the steady state",
      lead_in,
      then,
      p.warmup_step,
      activities,
      Ms(p.warmup_step_wall_ns),
      Ms(p.other_steps_median_ns));
}

}  // namespace gpuperf::analysis
