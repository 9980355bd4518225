#include "analysis/diagnosis/phase_verdicts.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>

#include "analysis/core/names.h"
#include "analysis/timeline/sync_drain.h"

namespace gpuperf::analysis {
namespace {

constexpr std::size_t kPhasesKept = 6;

// The range names of one phase: the same kind and the same name once its numbers are '#'.
struct Group {
  report::ShareKind kind = report::ShareKind::kNvtx;
  model::NameId first_name = 0;
  std::int64_t names = 0;  // distinct names
  std::int64_t instances = 0;
  std::int64_t summed_ns = 0;  // the instances' durations, summed
  bool candidate = false;      // its sum reaches the minimum share, and it is no step or one-time
  std::vector<util::Interval> phase;  // the instances, then their union in the window
};

// The host ranges phases are made of: NVTX ranges and annotations (not steps, not annotations
// projected onto GPU streams).
bool IsPhaseKind(model::RangeKind kind) {
  return kind == model::RangeKind::kNvtx || kind == model::RangeKind::kUserAnnotation;
}

// "step 12" -> "step #": each run of digits one '#'.
std::string NumbersAsHash(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (std::size_t i = 0; i < name.size(); ++i) {
    bool digit = name[i] >= '0' && name[i] <= '9';
    if (!digit)
      out += name[i];
    else if (i == 0 || name[i - 1] < '0' || name[i - 1] > '9')
      out += '#';
  }
  return out;
}

// The host calls that can hold GPU idle, one merged list per kind, in the order an idle stretch
// is given to them: a wait first (the GPU drained while the host waited), then blocking MPI calls
// (the host waited for another rank), launch calls, device allocations, other CUDA calls.
struct HostCalls {
  std::vector<util::Interval> waits, mpi, launches, allocations, other;
};

HostCalls CollectHostCalls(const model::Trace& trace, const CorrelationIndex& index) {
  HostCalls calls;
  CachedNamePredicate is_wait(trace, IsHostWaitApi);
  CachedNamePredicate is_launch(trace, IsLaunchApi);
  CachedNamePredicate is_alloc(
      trace, [](std::string_view name) { return IsDeviceAllocApi(name) || IsDeviceFreeApi(name); });
  for (std::size_t i = 0; i < trace.api_calls.size(); ++i) {
    const model::ApiCall& c = trace.api_calls[i];
    if (!index.IsPrimary(i) || c.end_ns <= c.start_ns)
      continue;
    util::Interval span{c.start_ns, c.end_ns};
    if (is_wait(c.name))
      calls.waits.push_back(span);
    else if (is_launch(c.name))
      calls.launches.push_back(span);
    else if (is_alloc(c.name))
      calls.allocations.push_back(span);
    else
      calls.other.push_back(span);
  }
  // Blocking MPI calls are waits for another rank, wherever the trace records them (operators,
  // NVTX ranges of nsys' MPI trace).
  CachedNamePredicate is_mpi(trace, IsBlockingMpiCall);
  for (const model::HostOp& op : trace.host_ops) {
    if (op.end_ns > op.start_ns && is_mpi(op.name))
      calls.mpi.push_back({op.start_ns, op.end_ns});
  }
  for (const model::Range& r : trace.ranges) {
    if (r.device == model::kNoId && r.end_ns > r.start_ns && is_mpi(r.name))
      calls.mpi.push_back({r.start_ns, r.end_ns});
  }
  for (auto* list : {&calls.waits, &calls.mpi, &calls.launches, &calls.allocations, &calls.other})
    *list = util::MergeIntervals(std::move(*list));
  return calls;
}

// The parts of a phase's idle, in the order they are defined (report.h, PhaseVerdict): the
// verdict each names when it is the largest, and where report.md says the idle mostly lies.
struct IdlePart {
  std::int64_t report::PhaseVerdict::*ns;
  report::PhaseClass verdict;
  const char* where;
};
constexpr IdlePart kIdleParts[] = {
    {&report::PhaseVerdict::idle_queued_ns,
     report::PhaseClass::kDependencyBound,
     "next work already launched"},
    {&report::PhaseVerdict::idle_sync_ns,
     report::PhaseClass::kSyncBound,
     "blocking waits and their round trips"},
    {&report::PhaseVerdict::idle_mpi_ns,
     report::PhaseClass::kCommunicationBound,
     "blocking MPI calls"},
    {&report::PhaseVerdict::idle_launch_ns, report::PhaseClass::kLaunchBound, "launch calls"},
    {&report::PhaseVerdict::idle_alloc_ns,
     report::PhaseClass::kAllocationBound,
     "device allocations"},
    {&report::PhaseVerdict::idle_other_api_ns, report::PhaseClass::kApiBound, "other CUDA calls"},
    {&report::PhaseVerdict::idle_host_ns, report::PhaseClass::kHostBound, "host work"},
};

// The largest part of the phase's idle; a tie goes to the earlier part.
const IdlePart& LargestIdlePart(const report::PhaseVerdict& v) {
  const IdlePart* largest = &kIdleParts[0];
  for (const IdlePart& part : kIdleParts) {
    if (v.*part.ns > v.*largest->ns)
      largest = &part;
  }
  return *largest;
}

report::PhaseClass VerdictOf(const report::PhaseVerdict& v) {
  // Its GPU work runs mostly after it: the host is ahead, and the phase's own time is not what
  // the program waits for (hta negative_queue: backward launches 269 ms, none inside it).
  if (v.launched_gpu_ns > 0 && 2 * v.launched_inside_ns < v.launched_gpu_ns)
    return report::PhaseClass::kRunsBehind;
  if (2 * (v.kernel_ns + v.copy_exposed_ns) >= v.wall_ns) {
    if (v.copy_exposed_ns > v.kernel_ns)
      return report::PhaseClass::kTransferBound;
    // Collectives running alone hold most of the GPU work: their time is set by the slowest rank
    // and the link, not by this rank's kernels (hta dlrm rank 0: the forward's NCCL send/recv).
    return 2 * v.communication_ns > v.kernel_ns + v.copy_exposed_ns
               ? report::PhaseClass::kCommunicationBound
               : report::PhaseClass::kGpuBound;
  }
  return LargestIdlePart(v).verdict;  // the largest share names the verdict
}

// The largest part of the phase's idle, for report.md's "idle mostly in" column.
void NameLargestIdle(report::PhaseVerdict& v) {
  if (v.idle_ns <= 0)
    return;
  const IdlePart& largest = LargestIdlePart(v);
  v.idle_largest_in = largest.where;
  v.idle_largest_ns = v.*largest.ns;
  v.idle_largest_percent =
      100.0 * static_cast<double>(v.idle_largest_ns) / static_cast<double>(v.idle_ns);
}

}  // namespace

std::vector<report::PhaseVerdict> PhaseVerdicts(const model::Trace& trace,
                                                const CorrelationIndex& index,
                                                const report::Initialization& initialization,
                                                const std::vector<StepWindow>& steps,
                                                const IdleAttribution& attribution,
                                                const std::vector<util::Interval>& window) {
  const std::int64_t window_ns = util::TotalLength(window);
  if (window_ns <= 0)
    return {};
  // Host ranges by (kind, name with its numbers as '#'): "step 3" and "step 4" are one phase, as
  // ProfilerStep#3 and #4 are. Each name is keyed once. A first pass sums the instances: a name
  // whose sum is under the minimum share cannot reach it as a union, and most traces stop there.
  std::map<std::pair<report::ShareKind, std::string>, Group> groups;  // kinds in spelling order
  std::vector<Group*> group_of(trace.strings.size(), nullptr);
  auto host_range = [&](const model::Range& r) {
    return r.device == model::kNoId && r.end_ns > r.start_ns && r.name < group_of.size() &&
           IsPhaseKind(r.kind);
  };
  for (const model::Range& r : trace.ranges) {
    if (!host_range(r))
      continue;
    Group*& g = group_of[r.name];
    if (!g) {
      report::ShareKind kind = r.kind == model::RangeKind::kNvtx
                                   ? report::ShareKind::kNvtx
                                   : report::ShareKind::kUserAnnotation;
      // One kind per name in practice; a name under two kinds joins the first.
      g = &groups[{kind, NumbersAsHash(trace.Name(r.name))}];
      g->kind = kind;
      if (g->names++ == 0)
        g->first_name = r.name;
    }
    ++g->instances;
    g->summed_ns += r.end_ns - r.start_ns;
  }
  std::vector<std::string> excluded;  // one-time work and steps, keyed like the groups
  for (const report::InitializationItem& item : initialization.items)
    excluded.push_back(NumbersAsHash(item.name));
  for (const StepWindow& step : steps)
    excluded.push_back(NumbersAsHash(step.name));
  auto share_of = [&](std::int64_t ns) {
    return static_cast<double>(ns) / static_cast<double>(window_ns);
  };
  std::int64_t candidates = 0;
  for (auto& [key, g] : groups) {
    g.candidate = share_of(g.summed_ns) >= kPhaseVerdictMinShare &&
                  std::find(excluded.begin(), excluded.end(), key.second) == excluded.end();
    candidates += g.candidate ? 1 : 0;
  }
  if (candidates < 2)
    return {};
  for (const model::Range& r : trace.ranges) {
    if (host_range(r) && group_of[r.name]->candidate)
      group_of[r.name]->phase.push_back({r.start_ns, r.end_ns});
  }
  std::vector<std::pair<std::string, Group*>> chosen;
  for (auto& [key, g] : groups) {
    if (!g.candidate)
      continue;
    g.phase = util::Intersect(util::MergeIntervals(std::move(g.phase)), window);
    double share = share_of(util::TotalLength(g.phase));
    if (share >= kPhaseVerdictMinShare && share < kPhaseVerdictWholeWindow)
      chosen.emplace_back(g.names == 1 ? std::string(trace.Name(g.first_name)) : key.second, &g);
  }
  if (chosen.size() < 2)
    return {};

  std::vector<util::Interval> kernels, copies, collectives, computation;
  CachedNamePredicate is_collective(trace, IsCommunicationKernel);
  for (const model::GpuActivity& a : trace.activities) {
    if (a.end_ns <= a.start_ns)
      continue;
    (a.kind == model::ActivityKind::kMemcpy ? copies : kernels).push_back({a.start_ns, a.end_ns});
    if (a.kind == model::ActivityKind::kKernel && is_collective(a.name))
      collectives.push_back({a.start_ns, a.end_ns});
    else if (a.kind != model::ActivityKind::kMemcpy)
      computation.push_back({a.start_ns, a.end_ns});
  }
  kernels = util::MergeIntervals(std::move(kernels));
  // Collectives with no computation beside them: the communication the phase waits for.
  const std::vector<util::Interval> exposed_collectives = util::Subtract(
      util::MergeIntervals(std::move(collectives)), util::MergeIntervals(std::move(computation)));
  const std::vector<util::Interval> busy =
      util::UnionOf(kernels, util::MergeIntervals(std::move(copies)));
  HostCalls calls = CollectHostCalls(trace, index);
  // The idle after a blocking wait until the host's next GPU work runs is the wait's round trip
  // (the idle attribution's): it goes with the waits, not with the launch call that ends it.
  const std::vector<util::Interval> waits_alone = calls.waits;
  const ThreadWaits sync_waits = DeviceSyncWaits(trace, index);
  calls.waits = util::UnionOf(calls.waits, attribution.round_trip_gaps);
  // Which call launched each GPU activity: the phase's own GPU work, wherever it runs.
  std::vector<std::int64_t> launch_start(trace.activities.size(), -1);
  for (std::size_t a = 0; a < trace.activities.size(); ++a) {
    const model::GpuActivity& activity = trace.activities[a];
    if (std::int64_t call = index.PrimaryCall(activity.correlation, activity.pid); call >= 0)
      launch_start[a] = trace.api_calls[static_cast<std::size_t>(call)].start_ns;
  }
  std::vector<report::PhaseVerdict> out;
  for (const auto& [name, g] : chosen) {
    const std::vector<util::Interval>& phase = g->phase;
    report::PhaseVerdict v;
    v.name = name;
    v.kind = g->kind;
    v.instances = g->instances;
    v.wall_ns = util::TotalLength(phase);
    if (v.wall_ns <= 0)
      continue;
    v.kernel_ns = util::TotalLength(util::Intersect(phase, kernels));
    v.communication_ns = util::TotalLength(util::Intersect(phase, exposed_collectives));
    v.idle_ns = v.wall_ns - util::TotalLength(util::Intersect(phase, busy));
    v.copy_exposed_ns = v.wall_ns - v.idle_ns - v.kernel_ns;
    for (std::size_t a = 0; a < trace.activities.size(); ++a) {
      const model::GpuActivity& activity = trace.activities[a];
      if (launch_start[a] < 0 || !util::Overlaps(phase, launch_start[a], launch_start[a] + 1))
        continue;
      v.launched_gpu_ns += activity.duration_ns();
      v.launched_inside_ns += util::CoveredLength(phase, activity.start_ns, activity.end_ns);
    }
    std::vector<util::Interval> idle = util::Subtract(phase, busy);
    // Idle with the next GPU work already launched: the GPU waited on a device-side dependency,
    // not on the host, whatever call the host was in.
    v.idle_queued_ns = util::TotalLength(util::Intersect(idle, attribution.queued_gaps_at));
    idle = util::Subtract(idle, attribution.queued_gaps_at);
    std::int64_t* shares[] = {
        &v.idle_sync_ns, &v.idle_mpi_ns, &v.idle_launch_ns, &v.idle_alloc_ns, &v.idle_other_api_ns};
    const std::vector<util::Interval>* lists[] = {
        &calls.waits, &calls.mpi, &calls.launches, &calls.allocations, &calls.other};
    for (std::size_t i = 0; i < std::size(lists); ++i) {
      std::vector<util::Interval> held = util::Intersect(idle, *lists[i]);
      *shares[i] = util::TotalLength(held);
      if (lists[i] == &calls.waits)
        v.idle_round_trip_ns = util::TotalLength(util::Subtract(held, waits_alone));
      idle = util::Subtract(idle, *lists[i]);
    }
    // What removing the phase's synchronizations gives back, as the sync finding counts it (the
    // loop drain): not the round trips' launch calls, which remain (sample workload's
    // phase:sync: 24.3 ms of idle in waits and round trips, about 10 ms back).
    if (v.idle_sync_ns > 0) {
      ThreadWaits inside;
      for (const auto& [thread, list] : sync_waits) {
        for (const util::Interval& w : list) {
          if (util::Overlaps(phase, w.start, w.start + 1))
            inside[thread].push_back(w);
        }
      }
      v.wait_removal_ns = WaitRemovalNs(trace, index, attribution, inside);
    }
    v.idle_host_ns = util::TotalLength(idle);
    NameLargestIdle(v);
    v.verdict = VerdictOf(v);
    out.push_back(std::move(v));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return std::tie(b.wall_ns, a.name, a.kind) < std::tie(a.wall_ns, b.name, b.kind);
  });
  if (out.size() > kPhasesKept)
    out.resize(kPhasesKept);
  if (out.size() < 2)
    return {};
  return out;
}

void DropRunsBehindLimits(const std::vector<report::PhaseVerdict>& verdicts,
                          std::vector<report::CriticalShare>& phases) {
  for (const report::PhaseVerdict& v : verdicts) {
    if (v.verdict != report::PhaseClass::kRunsBehind)
      continue;
    for (report::CriticalShare& p : phases) {
      if (p.name == v.name && p.kind == v.kind) {
        p.limit_speedup.reset();
        p.illustrative_gains.clear();
      }
    }
  }
}

}  // namespace gpuperf::analysis
