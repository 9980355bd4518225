#include "analysis/predictions/predictions.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <unordered_map>

#include "analysis/core/run_gains.h"
#include "analysis/findings/findings.h"
#include "analysis/predictions/amdahl.h"
#include "analysis/timeline/critical_time.h"
#include "util/intervals.h"

namespace gpuperf::analysis {
namespace {

// Copies, memsets and kernels without a name share keys below every NameId, so that they block
// a kernel's exclusivity without being attributed anything.
constexpr std::int64_t kNotAKernel = -1;

double Fraction(std::int64_t critical_ns, std::int64_t wall_ns, std::int64_t groups) {
  if (wall_ns <= 0 || groups <= 0)
    return 0.0;
  return std::clamp(static_cast<double>(critical_ns) /
                        (static_cast<double>(wall_ns) * static_cast<double>(groups)),
                    0.0,
                    1.0);
}

void SetLimit(report::CriticalShare& share) {
  if (share.fraction < 1.0)
    share.limit_speedup = AmdahlLimit(share.fraction);
}

// The whole-program bound when `saved_ns` of critical time comes back (Amdahl over the summed
// wall of every device group).
double BoundWith(const report::Predictions& p, std::int64_t saved_ns) {
  const double walls = static_cast<double>(p.wall_ns) *
                       static_cast<double>(std::max<std::int64_t>(1, p.device_groups));
  return walls > static_cast<double>(saved_ns) ? walls / (walls - static_cast<double>(saved_ns))
                                               : 1.0;
}

// What each illustrative local speedup would give the program: the wall time saved per trace
// window (run by run, each at most its run's budget: GainNs) and the Amdahl bound over it.
void AddIllustrativeGains(report::CriticalShare& share, const report::Predictions& p) {
  for (double s : kIllustrativeSpeedups) {
    std::int64_t saved = s < 1.0 ? TimeSavedNs(share.critical_ns, s) : GainNs(p, share, s);
    share.illustrative_gains.push_back(
        {s, s < 1.0 ? AmdahlSpeedup(share.fraction, s) : BoundWith(p, saved), saved});
  }
}

void ApplyFloor(report::CriticalShare& share,
                const KernelFloor& floor,
                std::int64_t min_latency,
                const report::Predictions& p) {
  if (floor.floor_ns <= 0 || share.total_ns <= 0)
    return;
  share.floor_ns = floor.floor_ns;
  // The speedup the roof allows stops at the minimum latency of every instance.
  std::int64_t effective = std::max(floor.floor_ns, share.instances * min_latency);
  share.floor_evidence = floor.evidence;
  // A kernel already at (or, by measurement noise, past) its roof has nothing left to give.
  double s = std::max(1.0, static_cast<double>(share.total_ns) / static_cast<double>(effective));
  share.max_local_speedup = s;
  share.recoverable_ns = GainNs(p, share, s);
  share.bound_speedup_at_roof = BoundWith(p, *share.recoverable_ns);
}

// From this share of the steady-state window on, a phase is a range around the run.
constexpr double kWholeWindowPhase = 0.9;

// Host-side phases: the union of each (kind, name)'s instances, clipped to `steady` (the
// steady-state window's intervals), their share of `wall_ns` (its length), as the kernels'.
std::vector<report::CriticalShare> Phases(const model::Trace& trace,
                                          const std::vector<util::Interval>& steady,
                                          std::int64_t wall_ns) {
  // By kind (in the order of its spelling) and name.
  std::map<std::pair<report::ShareKind, model::NameId>, std::vector<util::Interval>> by_name;
  for (const model::Range& r : trace.ranges) {
    bool phase_kind =
        r.kind == model::RangeKind::kNvtx || r.kind == model::RangeKind::kUserAnnotation;
    report::ShareKind kind = r.kind == model::RangeKind::kNvtx ? report::ShareKind::kNvtx
                                                               : report::ShareKind::kUserAnnotation;
    if (phase_kind && r.end_ns > r.start_ns)
      by_name[{kind, r.name}].push_back({r.start_ns, r.end_ns});
  }
  std::vector<report::CriticalShare> phases;
  for (auto& [key, intervals] : by_name) {
    report::CriticalShare p;
    p.name = std::string(trace.Name(key.second));
    p.kind = key.first;
    // The instances in the steady state, each counted by its part there.
    for (const util::Interval& i : intervals) {
      if (std::int64_t inside = util::CoveredLength(steady, i.start, i.end); inside > 0) {
        ++p.instances;
        p.total_ns += inside;
      }
    }
    p.critical_ns =
        util::TotalLength(util::Intersect(util::MergeIntervals(std::move(intervals)), steady));
    // A host phase spans its GPU work only as far as the host waited for it; its union is the
    // time the phase held the program (one host timeline assumed).
    p.exclusive_ns = p.critical_ns;
    if (p.critical_ns <= 0)
      continue;  // all of it outside the steady state (MPI_Init, a compile): no phase of it
    p.fraction = Fraction(p.critical_ns, wall_ns, 1);
    // A range around (nearly) the whole window, the run or its step loop, has no limit to give:
    // its removal would remove the program.
    if (p.fraction < kWholeWindowPhase)
      SetLimit(p);
    phases.push_back(std::move(p));
  }
  std::sort(phases.begin(), phases.end(), [](const auto& a, const auto& b) {
    return std::tie(b.critical_ns, a.name, a.kind) < std::tie(a.critical_ns, b.name, b.kind);
  });
  constexpr std::size_t kPhasesKept = 10;
  if (phases.size() > kPhasesKept)
    phases.resize(kPhasesKept);
  return phases;
}

// The guarded search of --kernel; a name it refuses counts as not selected.
bool Selects(const util::UserRegex& pattern, std::string_view name, std::size_t& unmatchable) {
  Result<bool> hit = pattern.Search(name);
  if (!hit.ok())
    ++unmatchable;
  return hit.ok() && hit.value();
}

// f, the Amdahl bound, the time saved and the limit from the matched share; the assumptions
// after `source`.
void FinishPrediction(predict::Prediction& p, const std::string& source, std::size_t unmatchable) {
  const double denominator = static_cast<double>(p.wall_ns) * static_cast<double>(p.device_groups);
  p.fraction =
      denominator > 0 ? std::min(1.0, static_cast<double>(p.critical_ns) / denominator) : 0.0;
  p.bound_speedup = AmdahlSpeedup(p.fraction, p.local_speedup);
  p.bound_speedup_percent = 100.0 * (p.bound_speedup - 1.0);
  p.time_saved_ns =
      TimeSavedNs(p.critical_ns, p.local_speedup) / std::max<std::int64_t>(1, p.device_groups);
  p.limit_speedup = AmdahlLimit(p.fraction);
  p.rests_on = {
      source,
      "every other part of the program unchanged (Amdahl)",
      "the wall time is the trace window: " + std::to_string(p.wall_ns) + " ns",
  };
  if (unmatchable > 0)
    p.rests_on.push_back(fmt::format("{} kernel name(s) longer than {} characters not matched",
                                     unmatchable,
                                     util::kMaxUserSubjectLength));
  if (p.roof_max_local_speedup && p.local_speedup > *p.roof_max_local_speedup)
    p.rests_on.push_back(
        fmt::format("WARNING: the roofline floor allows at most {:.3f}x for these kernels",
                    *p.roof_max_local_speedup));
}

}  // namespace

predict::Prediction PredictFromReport(const report::Predictions& predictions,
                                      const util::UserRegex& pattern,
                                      double local_speedup) {
  predict::Prediction out;
  out.kernel_regex = pattern.pattern();
  out.local_speedup = local_speedup;
  out.wall_ns = predictions.wall_ns;
  out.device_groups = std::max<std::int64_t>(1, predictions.device_groups);
  out.method = predictions.method;
  std::size_t unmatchable = 0;
  std::int64_t floor = 0;
  bool all_floors = true;
  for (const report::CriticalShare& k : predictions.kernels) {
    if (!Selects(pattern, k.name, unmatchable))
      continue;
    out.kernels_matched.push_back(k.name);
    out.total_ns += k.total_ns;
    out.critical_ns += k.critical_ns;
    all_floors &= k.floor_ns.has_value();
    floor += k.floor_ns.value_or(0);
  }
  if (all_floors && floor > 0 && !out.kernels_matched.empty())
    out.roof_max_local_speedup = std::max(1.0, static_cast<double>(out.total_ns) / floor);
  FinishPrediction(out,
                   out.kernels_matched.size() > 1
                       ? "report.json predictions: the matched kernels' critical times summed (a "
                         "lower bound when they overlap each other; pass the trace for the exact "
                         "figure)"
                       : "report.json predictions",
                   unmatchable);
  return out;
}

predict::Prediction PredictFromTrace(const model::Trace& trace,
                                     const CorrelationIndex& index,
                                     const util::UserRegex& pattern,
                                     double local_speedup) {
  predict::Prediction out;
  out.kernel_regex = pattern.pattern();
  out.local_speedup = local_speedup;
  std::size_t unmatchable = 0;
  std::set<std::string> matched;
  report::CriticalShare share = SelectedKernelsShare(
      trace,
      index,
      [&](std::string_view name) {
        const bool hit = Selects(pattern, name, unmatchable);
        if (hit)
          matched.emplace(name);
        return hit;
      },
      &out.wall_ns,
      &out.device_groups);
  out.kernels_matched.assign(matched.begin(), matched.end());
  out.device_groups = std::max<std::int64_t>(1, out.device_groups);
  out.total_ns = share.total_ns;
  out.critical_ns = share.critical_ns;
  out.method = "critical time as in report.json predictions.method (docs/metrics.md)";
  FinishPrediction(
      out, "trace timeline: stretches in which only the matched kernels run", unmatchable);
  return out;
}

report::Predictions ComputePredictions(const model::Trace& trace,
                                       const CorrelationIndex& index,
                                       const std::vector<report::KernelRow>& kernels,
                                       const std::map<std::string, KernelFloor>& floors,
                                       std::size_t kernels_kept,
                                       const PreRoll* preroll,
                                       std::int64_t one_time_idle_ns,
                                       std::int64_t unobserved_lead_ns,
                                       std::int64_t unobserved_tail_ns,
                                       const std::vector<util::Interval>* steady,
                                       const HostWaits* host_waits) {
  report::Predictions out;
  TraceWindow window = ComputeTraceWindow(trace);
  out.wall_ns = window.length_ns();
  out.wall_source =
      "trace window: first to last recorded event (GPU activities, host API calls, host ops, "
      "ranges, sync records)";
  CriticalRuns critical =
      host_waits ? CriticalActivities(trace, index, *host_waits) : CriticalActivities(trace, index);
  if (preroll && !preroll->empty()) {
    out.wall_ns -= preroll->length_ns();
    out.preroll = preroll->Summary();
    out.wall_source +=
        fmt::format(", less its first {}: {}", Ms(preroll->length_ns()), PreRollWhat(*out.preroll));
    for (std::size_t i = 0; i < trace.activities.size(); ++i) {
      if (preroll->Holds(trace.activities[i], index))
        critical.run_of[i] = CriticalRuns::kNotCritical;
    }
  }
  // Time outside the steady state leaves the wall, and its source says what was left out.
  auto leave_out = [&](std::int64_t ns, std::string_view what) {
    if (ns > 0 && ns < out.wall_ns) {
      out.wall_ns -= ns;
      out.wall_source += fmt::format(", less {} {}", Ms(ns), what);
    }
  };
  leave_out(one_time_idle_ns,
            "of one-time work (initialization) during which the GPU idled: the steady-state "
            "window");
  leave_out(unobserved_lead_ns,
            "before the first GPU activity with its work already launched and nothing recorded "
            "running (unobserved)");
  leave_out(unobserved_tail_ns,
            "after the last GPU activity and the last step in which the trace records nothing "
            "(unobserved)");
  auto kernel_key = [&](std::size_t i) {
    const model::GpuActivity& a = trace.activities[i];
    return a.kind == model::ActivityKind::kKernel ? static_cast<std::int64_t>(a.name) : kNotAKernel;
  };
  // The GPU's own timeline (gpu_timeline_kernels): every activity outside the pre-roll.
  std::vector<bool> on_gpu(trace.activities.size(), true);
  for (std::size_t i = 0; preroll && !preroll->empty() && i < trace.activities.size(); ++i)
    on_gpu[i] = !preroll->Holds(trace.activities[i], index);
  CriticalTimes times = AttributeCriticalTime(trace, critical, kernel_key, &on_gpu);
  out.device_groups = times.device_groups;
  out.run_budget_ns = critical.budget_ns;
  out.summed_wall_ns = out.wall_ns * std::max<std::int64_t>(1, out.device_groups);
  out.method = fmt::format(
      "A kernel's critical time is the time it runs with nothing else on its device (any "
      "stream, copies included) while the program waits for it: a host thread was blocked in a "
      "synchronizing call at its end, or it was the device's last operation and ran past the "
      "host's last call, or the work queued behind it (launched before it ended) leads without "
      "a gap to such a point. Such a chain gives back at most the time the host waited for its "
      "end, so a kernel's critical time counts at most that wait per chain (kernels of one "
      "chain share it: their sum can exceed it). Work after which the GPU idled "
      "until the host issued more work is not critical, nor is the work queued before it: "
      "finishing sooner only lengthens the idle. f = critical time / (wall time x {} "
      "device(s)).",
      times.device_groups);

  std::unordered_map<std::string_view, model::NameId> name_ids;
  for (model::NameId id = 0; id < trace.strings.size(); ++id)
    name_ids.emplace(trace.Name(id), id);
  // No instance runs faster than an empty kernel: a roof far below that promises speedups no
  // launch can reach.
  std::int64_t min_latency = kMinKernelLatencyNs;
  auto share_of = [&](const report::KernelRow& row, bool gpu_timeline) {
    report::CriticalShare share;
    share.name = row.name;
    share.kind = report::ShareKind::kKernel;
    share.instances = row.duration_ns.count;
    share.total_ns = row.duration_ns.total;
    if (auto id = name_ids.find(row.name); id != name_ids.end()) {
      if (auto t = times.by_key.find(id->second); t != times.by_key.end()) {
        const CriticalTime& time = t->second;
        share.exclusive_ns = time.exclusive_ns;
        // The GPU timeline has no budgets: all of its time counts without one.
        share.critical_ns = gpu_timeline ? time.timeline_ns : time.critical_ns;
        share.unbounded_ns = gpu_timeline ? time.timeline_ns : time.unbounded_ns;
        for (const auto& [run, ns] : time.runs) {
          if (!gpu_timeline)
            share.runs.push_back({run, ns});
        }
      }
    }
    share.fraction = Fraction(share.critical_ns, out.wall_ns, out.device_groups);
    SetLimit(share);
    if (auto floor = floors.find(row.name); floor != floors.end())
      ApplyFloor(share, floor->second, min_latency, out);
    AddIllustrativeGains(share, out);
    return share;
  };
  // Critical time first: a kernel without a floor still holds its time (recoverable time is a
  // column, known only where a floor is).
  auto rank_and_keep = [&](std::vector<report::CriticalShare>& rows) {
    std::stable_sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) {
      if (a.critical_ns != b.critical_ns)
        return a.critical_ns > b.critical_ns;
      return a.name < b.name;
    });
    std::int64_t omitted = 0;
    if (rows.size() > kernels_kept) {
      omitted = static_cast<std::int64_t>(rows.size() - kernels_kept);
      rows.resize(kernels_kept);
    }
    return omitted;
  };
  out.illustrative_speedups.assign(std::begin(kIllustrativeSpeedups),
                                   std::end(kIllustrativeSpeedups));
  for (const report::KernelRow& row : kernels) {
    out.kernels.push_back(share_of(row, false));
    out.gpu_timeline_kernels.push_back(share_of(row, true));
  }
  out.ranking = "critical_ns";
  out.kernels_omitted = rank_and_keep(out.kernels);
  rank_and_keep(out.gpu_timeline_kernels);
  out.phases = steady ? Phases(trace, *steady, out.wall_ns)
                      : Phases(trace, {{window.start_ns, window.end_ns}}, window.length_ns());
  for (report::CriticalShare& share : out.phases)
    AddIllustrativeGains(share, out);
  return out;
}

report::CriticalShare SelectedKernelsShare(const model::Trace& trace,
                                           const CorrelationIndex& index,
                                           const std::function<bool(std::string_view)>& select,
                                           std::int64_t* wall_ns,
                                           std::int64_t* device_groups) {
  std::unordered_map<model::NameId, bool> selected;
  auto is_selected = [&](const model::GpuActivity& a) {
    if (a.kind != model::ActivityKind::kKernel)
      return false;
    auto [it, inserted] = selected.try_emplace(a.name, false);
    if (inserted)
      it->second = select(trace.Name(a.name));
    return it->second;
  };
  report::CriticalShare share;
  share.kind = report::ShareKind::kKernel;
  for (const model::GpuActivity& a : trace.activities) {
    if (is_selected(a)) {
      ++share.instances;
      share.total_ns += a.duration_ns();
    }
  }
  CriticalRuns critical = CriticalActivities(trace, index);
  CriticalTimes times = AttributeCriticalTime(trace, critical, [&](std::size_t i) {
    return is_selected(trace.activities[i]) ? std::int64_t{1} : std::int64_t{0};
  });
  if (auto t = times.by_key.find(1); t != times.by_key.end()) {
    share.exclusive_ns = t->second.exclusive_ns;
    share.critical_ns = t->second.critical_ns;
  }
  *wall_ns = ComputeTraceWindow(trace).length_ns();
  *device_groups = times.device_groups;
  share.fraction = Fraction(share.critical_ns, *wall_ns, times.device_groups);
  SetLimit(share);
  return share;
}

void BoundFindings(std::vector<report::Finding>& findings, std::int64_t wall_ns) {
  if (wall_ns <= 0)
    return;
  for (report::Finding& f : findings) {
    // A wait costs the GPU idle it causes, not its length; slow work, what its change gives back.
    std::int64_t cost = f.gpu_idle_caused_ns.value_or(f.recoverable_ns.value_or(f.time_ns));
    double fraction =
        cost > 0 ? std::min(1.0, static_cast<double>(cost) / static_cast<double>(wall_ns)) : 0.0;
    // Where the advice removes more than the finding's calls (the syncs beside pageable copies).
    const std::int64_t advice_cost = std::max(cost, f.advice_gpu_idle_ns.value_or(0));
    const double advice_fraction =
        std::min(1.0, static_cast<double>(advice_cost) / static_cast<double>(wall_ns));
    // What removing it cannot speed up by half a percent is information, not a warning (a
    // synchronization that caused 434 ns of idle).
    if (f.severity == report::Severity::kWarning && (f.gpu_idle_caused_ns || cost > 0) &&
        advice_fraction < kMaterialFraction)
      f.severity = report::Severity::kInfo;
    if (advice_cost > cost && advice_fraction < 1.0)
      f.advice_bound_speedup = AmdahlLimit(advice_fraction);
    if (cost <= 0)
      continue;
    f.wall_fraction = fraction;
    if (fraction < 1.0)
      f.bound_speedup_if_removed = AmdahlLimit(fraction);
  }
}

}  // namespace gpuperf::analysis
