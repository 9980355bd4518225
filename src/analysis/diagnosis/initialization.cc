#include "analysis/diagnosis/initialization.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "analysis/core/names.h"
#include "analysis/findings/findings.h"

namespace gpuperf::analysis {
namespace {

constexpr std::size_t kItemsKept = 20;
// A first instance must take at least this many times as long as every later one of its group.
constexpr double kFirstMargin = 2.0;

struct Candidate {
  std::string kind;
  std::string name;
  std::int64_t start = 0, end = 0;
  std::string evidence;
  bool from_host_op = false;
  bool by_name = false;  // found by its name (NamedWork)
};

bool IsJitName(std::string_view name) {
  return ContainsNoCase(name, "nvrtc") || ContainsNoCase(name, "cuLink") ||
         (ContainsNoCase(name, "compil") && !ContainsNoCase(name, "compiled"));
}

bool IsAutotuneName(std::string_view name) {
  return ContainsNoCase(name, "autotun") || ContainsNoCase(name, "cudnnFind");
}

bool IsModuleLoadApi(std::string_view name) {
  return StartsWithNoCase(name, "cuModuleLoad") || StartsWithNoCase(name, "cuLibraryLoad") ||
         StartsWithNoCase(name, "hipModuleLoad");
}

bool IsTeardownApi(std::string_view name) {
  return ContainsNoCase(name, "ModuleUnload") || ContainsNoCase(name, "LibraryUnload") ||
         ContainsNoCase(name, "CtxDestroy") || ContainsNoCase(name, "DeviceReset");
}

// Communication libraries' set-up and shut-down (MPI, NCCL/RCCL communicators, NVSHMEM): once per
// process, however long, and never the steady state.
bool IsLibraryInit(std::string_view name) {
  return name == "MPI_Init" || name == "MPI_Init_thread" ||
         StartsWithNoCase(name, "ncclCommInit") || StartsWithNoCase(name, "rcclCommInit") ||
         StartsWithNoCase(name, "nvshmem_init") || StartsWithNoCase(name, "nvshmemx_init");
}
bool IsLibraryFinalize(std::string_view name) {
  return name == "MPI_Finalize" || StartsWithNoCase(name, "ncclCommDestroy") ||
         StartsWithNoCase(name, "ncclCommFinalize") || StartsWithNoCase(name, "nvshmem_finalize");
}

// The kind a name alone gives, or "" when the name says nothing.
std::string KindByName(std::string_view name) {
  if (IsLibraryInit(name))
    return "setup";
  if (IsLibraryFinalize(name))
    return "teardown";
  if (IsJitName(name))
    return "jit_compile";
  if (IsAutotuneName(name))
    return "autotune";
  if (IsModuleLoadApi(name))
    return "lazy_loading";
  if (IsTeardownApi(name))
    return "teardown";
  return "";
}

std::int64_t Median(std::vector<std::int64_t>& values) {
  auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

// First instances of a group (by key) that are outliers against the rest of the group.
struct Group {
  std::size_t first = 0;
  std::int64_t first_start = std::numeric_limits<std::int64_t>::max();
  std::vector<std::int64_t> durations;
};

// (pid, name, kernel + 1 or 0): hashed, since every API call and host op is grouped once.
using GroupKey = std::array<std::int64_t, 3>;
struct GroupKeyHash {
  std::size_t operator()(const GroupKey& k) const {
    std::size_t h = std::hash<std::int64_t>()(k[0]);
    h = h * 1'000'003 ^ std::hash<std::int64_t>()(k[1]);
    return h * 1'000'003 ^ std::hash<std::int64_t>()(k[2]);
  }
};
using Groups = std::unordered_map<GroupKey, Group, GroupKeyHash>;

// Without a duration the group only tracks its first instance.
void AddToGroup(Groups& groups,
                const GroupKey& key,
                std::size_t i,
                std::int64_t start,
                std::optional<std::int64_t> duration) {
  Group& g = groups[key];
  if (duration)
    g.durations.push_back(*duration);
  if (start < g.first_start) {
    g.first_start = start;
    g.first = i;
  }
}

// "is an outlier": at least kOneTimeMinNs, and kOneTimeFactor x the median of the others.
bool Outlier(Group& g, std::int64_t duration, std::int64_t& median, bool lone_counts) {
  if (duration < kOneTimeMinNs)
    return false;
  if (g.durations.size() < 2) {
    median = 0;
    return lone_counts;
  }
  median = Median(g.durations);
  return static_cast<double>(duration) >= kOneTimeFactor * static_cast<double>(median);
}

// Kernel name of each launch call (the first kernel it ran), for "first launch of a kernel":
// indexed like Trace::api_calls (a vector: an export holds millions of calls), kNoKernel for a
// call that launched none.
constexpr model::NameId kNoKernel = std::numeric_limits<model::NameId>::max();

std::vector<model::NameId> LaunchedKernel(const model::Trace& trace,
                                          const CorrelationIndex& index) {
  std::vector<model::NameId> out(trace.api_calls.size(), kNoKernel);
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind != model::ActivityKind::kKernel)
      continue;
    std::int64_t call = index.PrimaryCall(a.correlation, a.pid);
    if (call >= 0 && out[static_cast<std::size_t>(call)] == kNoKernel)
      out[static_cast<std::size_t>(call)] = a.name;
  }
  return out;
}

// Per process, its first CUDA call (the earliest primary record): the runtime creates the context
// there.
std::unordered_map<std::int64_t, std::size_t> ProcessFirstCalls(const model::Trace& trace,
                                                                const CorrelationIndex& index) {
  std::unordered_map<std::int64_t, std::size_t> first;
  for (std::size_t i = 0; i < trace.api_calls.size(); ++i) {
    if (!index.IsPrimary(i))
      continue;
    auto [it, inserted] = first.try_emplace(trace.api_calls[i].pid, i);
    if (!inserted && trace.api_calls[i].start_ns < trace.api_calls[it->second].start_ns)
      it->second = i;
  }
  return first;
}

// What both the API outliers and the lazy-loading pass need, computed once: each is a pass over
// millions of records on an export.
struct LaunchFacts {
  std::vector<model::NameId> kernel_of;                         // LaunchedKernel
  std::unordered_map<std::int64_t, std::size_t> process_first;  // ProcessFirstCalls
};

void ApiOutliers(const model::Trace& trace,
                 const CorrelationIndex& index,
                 const LaunchFacts& facts,
                 std::vector<Candidate>& out) {
  std::int64_t first_gpu = std::numeric_limits<std::int64_t>::max();
  for (const model::GpuActivity& a : trace.activities)
    first_gpu = std::min(first_gpu, a.start_ns);
  const std::vector<model::NameId>& kernel_of = facts.kernel_of;
  CachedNamePredicate is_launch(trace, IsLaunchApi);
  CachedNamePredicate is_wait(trace, IsHostWaitApi);
  CachedNamePredicate is_graph(trace, IsGraphLaunchApi);
  Groups firsts;   // first per (pid, API, kernel)
  Groups by_name;  // median per (pid, API)
  const std::unordered_map<std::int64_t, std::size_t>& process_first = facts.process_first;
  for (std::size_t i = 0; i < trace.api_calls.size(); ++i) {
    const model::ApiCall& c = trace.api_calls[i];
    if (!index.IsPrimary(i))
      continue;
    // A wait waits for GPU work; only before any GPU work can it be one-time work.
    if (is_wait(c.name) && c.end_ns > first_gpu)
      continue;
    model::NameId kernel = 0;
    if (is_launch(c.name)) {
      kernel = kernel_of[i] == kNoKernel ? 0 : kernel_of[i] + 1;
    }
    AddToGroup(firsts, GroupKey{c.pid, c.name, kernel}, i, c.start_ns, std::nullopt);
    AddToGroup(by_name, GroupKey{c.pid, c.name, 0}, i, c.start_ns, c.duration_ns());
  }
  for (auto& [key, group] : firsts) {
    const model::ApiCall& c = trace.api_calls[group.first];
    std::string_view name = StripVersionSuffix(trace.Name(c.name));
    Group& all = by_name[GroupKey{c.pid, c.name, 0}];
    std::int64_t median = 0;
    bool process_first_call = process_first.at(c.pid) == group.first;
    if (key[2] != 0 && !process_first_call && !is_graph(c.name))
      continue;  // LazyFirstLaunches has first launches of a kernel
    // The process's first CUDA call creates the context whatever its name's other calls take.
    bool outlier = Outlier(all, c.duration_ns(), median, true);
    if (!outlier && !(process_first_call && c.duration_ns() >= kOneTimeMinNs))
      continue;
    if (!process_first_call && !KindByName(name).empty())
      continue;  // NamedWork has it
    Candidate cand{"first_call", std::string(name), c.start_ns, c.end_ns, ""};
    // The runtime creates the context in the process's first call, or in the first allocation
    // (cudaFree(0) is the idiom that forces it) while no GPU work has run yet: after GPU work the
    // context exists (resnet: a 788 ms cudaFree at 2.54 s, inside cuDNN's set-up, after copies
    // ran at 3 ms).
    if (process_first_call ||
        ((IsDeviceAllocApi(name) || IsDeviceFreeApi(name)) && c.start_ns <= first_gpu)) {
      cand.kind = "context_creation";
    } else if (key[2] != 0) {
      cand.kind = "lazy_loading";
    }
    std::string what = process_first_call ? "the process's first CUDA call"
                       : key[2] != 0
                           ? fmt::format("the first launch of kernel {}",
                                         trace.Name(static_cast<model::NameId>(key[2] - 1)))
                           : fmt::format("the first {} call", name);
    cand.evidence =
        !outlier ? fmt::format("{} ({}), {}: the runtime creates its context there (trace)",
                               what,
                               name,
                               Ms(c.duration_ns()))
        : all.durations.size() < 2
            ? fmt::format("{}, {}, the only call of its name (trace)", what, Ms(c.duration_ns()))
            : fmt::format("{}, {}: {:.0f}x the median {} call ({} calls, trace)",
                          what,
                          Ms(c.duration_ns()),
                          static_cast<double>(c.duration_ns()) /
                              static_cast<double>(std::max<std::int64_t>(1, median)),
                          name,
                          all.durations.size());
    // Driver initialization runs from the process's first CUDA call to the call that creates
    // the context: with no GPU work yet and a gap no longer than the creation itself, the time
    // between them is the same one-time work.
    if (cand.kind == "context_creation" && !process_first_call && c.end_ns <= first_gpu) {
      const model::ApiCall& first = trace.api_calls[process_first.at(c.pid)];
      if (first.start_ns < c.start_ns && c.start_ns - first.end_ns <= c.duration_ns()) {
        cand.evidence += fmt::format(
            "; from the process's first CUDA call ({}), {} earlier: driver initialization",
            StripVersionSuffix(trace.Name(first.name)),
            Ms(c.start_ns - first.start_ns));
        cand.start = first.start_ns;
      }
    }
    out.push_back(std::move(cand));
  }
}

bool IsResourceApi(std::string_view name) {
  name = StripVersionSuffix(name);
  return IsDeviceAllocApi(name) || IsDeviceFreeApi(name) || ContainsNoCase(name, "MallocHost") ||
         ContainsNoCase(name, "HostAlloc") || ContainsNoCase(name, "FreeHost") ||
         ContainsNoCase(name, "HostRegister") || ContainsNoCase(name, "HostUnregister") ||
         ContainsNoCase(name, "StreamCreate") || ContainsNoCase(name, "StreamDestroy") ||
         ContainsNoCase(name, "EventCreate") || ContainsNoCase(name, "EventDestroy");
}

// Releases: what a program calls at exit.
bool IsReleaseApi(std::string_view name) {
  name = StripVersionSuffix(name);
  return IsDeviceFreeApi(name) || ContainsNoCase(name, "FreeHost") ||
         ContainsNoCase(name, "HostUnregister") || ContainsNoCase(name, "StreamDestroy") ||
         ContainsNoCase(name, "EventDestroy");
}

// Allocations, frees and stream/event creation before the first GPU work ("setup"), and releases
// after the last GPU work and the process's last allocation or creation ("teardown"): they run
// once around the steady state, never between its steps. An allocation after the last GPU work,
// and a free between such allocations, is the program's own work (a loop that allocates), not
// its exit.
void EdgeResourceCalls(const model::Trace& trace,
                       const CorrelationIndex& index,
                       std::vector<Candidate>& out) {
  std::int64_t first_gpu = std::numeric_limits<std::int64_t>::max();
  std::int64_t last_gpu = std::numeric_limits<std::int64_t>::min();
  for (const model::GpuActivity& a : trace.activities) {
    first_gpu = std::min(first_gpu, a.start_ns);
    last_gpu = std::max(last_gpu, a.end_ns);
  }
  if (trace.activities.empty())
    return;
  CachedNamePredicate is_resource(trace, IsResourceApi);
  CachedNamePredicate is_release(trace, IsReleaseApi);
  std::map<std::int64_t, std::int64_t> last_acquire;  // per process: its last non-release start
  std::vector<std::size_t> resource_calls;
  for (std::size_t i = 0; i < trace.api_calls.size(); ++i) {
    const model::ApiCall& c = trace.api_calls[i];
    if (!is_resource(c.name) || !index.IsPrimary(i))
      continue;
    resource_calls.push_back(i);
    if (!is_release(c.name)) {
      auto [it, inserted] = last_acquire.try_emplace(c.pid, c.start_ns);
      it->second = std::max(it->second, c.start_ns);
    }
  }
  for (std::size_t i : resource_calls) {
    const model::ApiCall& c = trace.api_calls[i];
    if (c.duration_ns() <= 0)
      continue;
    bool setup = c.end_ns <= first_gpu;
    if (!setup) {
      auto acquired = last_acquire.find(c.pid);
      if (c.start_ns < last_gpu || !is_release(c.name) ||
          (acquired != last_acquire.end() && c.start_ns < acquired->second))
        continue;
    }
    // A call another pass already holds (the allocation that created the context) is its item.
    if (std::any_of(out.begin(), out.end(), [&](const Candidate& held) {
          return held.start <= c.start_ns && c.end_ns <= held.end;
        }))
      continue;
    out.push_back({setup ? "setup" : "teardown",
                   std::string(StripVersionSuffix(trace.Name(c.name))),
                   c.start_ns,
                   c.end_ns,
                   fmt::format("{} the {} GPU activity, {} (trace)",
                               setup ? "before" : "after",
                               setup ? "first" : "last",
                               Ms(c.duration_ns()))});
  }
}

// The first launch of each kernel (per process) whose call is long: the driver loaded the
// kernel's module there (CUDA lazy loading). The reference is the median of the process's
// repeated launch calls, a kernel's second and later (kOneTimeFactor x it, at least
// kOneTimeMinNs); with fewer than
// kMinRepeatLaunches such calls, the median of the launch calls' own name would be first launches
// too, so kOneTimeMinNs alone decides: a launch call returns in microseconds. Graph launches and
// the process's first call (context creation) are left to ApiOutliers.
constexpr std::size_t kMinRepeatLaunches = 5;

void LazyFirstLaunches(const model::Trace& trace,
                       const CorrelationIndex& index,
                       const LaunchFacts& facts,
                       std::vector<Candidate>& out) {
  const std::vector<model::NameId>& kernel_of = facts.kernel_of;
  CachedNamePredicate is_launch(trace, IsLaunchApi);
  CachedNamePredicate is_graph(trace, IsGraphLaunchApi);
  CachedNamePredicate is_module_load(trace, IsModuleLoadApi);
  const std::unordered_map<std::int64_t, std::size_t>& process_first = facts.process_first;
  std::vector<std::size_t> launches;
  std::int64_t module_loads = 0;
  for (std::size_t i = 0; i < trace.api_calls.size(); ++i) {
    const model::ApiCall& c = trace.api_calls[i];
    if (!index.IsPrimary(i))
      continue;
    module_loads += is_module_load(c.name) ? 1 : 0;
    if (is_launch(c.name) && !is_graph(c.name) && kernel_of[i] != kNoKernel)
      launches.push_back(i);
  }
  auto by_start = [&](std::size_t a, std::size_t b) {
    return trace.api_calls[a].start_ns < trace.api_calls[b].start_ns;
  };
  if (!std::is_sorted(launches.begin(), launches.end(), by_start))  // exports are in time order
    std::stable_sort(launches.begin(), launches.end(), by_start);
  std::map<std::pair<std::int64_t, model::NameId>, bool> launched;      // (pid, kernel) seen
  std::unordered_map<std::int64_t, std::vector<std::int64_t>> repeats;  // per pid
  std::vector<std::size_t> firsts;
  for (std::size_t i : launches) {
    const model::ApiCall& c = trace.api_calls[i];
    if (launched.try_emplace({c.pid, kernel_of[i]}, true).second)
      firsts.push_back(i);
    else
      repeats[c.pid].push_back(c.duration_ns());
  }
  std::unordered_map<std::int64_t, std::int64_t> reference;  // median repeat, per pid
  for (auto& [pid, durations] : repeats) {
    if (durations.size() >= kMinRepeatLaunches)
      reference[pid] = Median(durations);
  }
  std::string loads = module_loads == 0
                          ? std::string()
                          : fmt::format("; {} module loads in the trace", module_loads);
  for (std::size_t i : firsts) {
    const model::ApiCall& c = trace.api_calls[i];
    std::int64_t d = c.duration_ns();
    if (d < kOneTimeMinNs || process_first.at(c.pid) == i)
      continue;
    auto ref = reference.find(c.pid);
    if (ref != reference.end() &&
        static_cast<double>(d) < kOneTimeFactor * static_cast<double>(ref->second))
      continue;
    std::string_view name = StripVersionSuffix(trace.Name(c.name));
    std::string why =
        ref != reference.end()
            ? fmt::format("{:.0f}x the median repeated launch call of the process ({} calls{})",
                          static_cast<double>(d) /
                              static_cast<double>(std::max<std::int64_t>(1, ref->second)),
                          repeats[c.pid].size(),
                          loads)
            : fmt::format(
                  "over {} where a launch call takes microseconds ({} repeated launches, "
                  "too few for a median{})",
                  Ms(kOneTimeMinNs),
                  repeats[c.pid].size(),
                  loads);
    out.push_back({"lazy_loading",
                   std::string(name),
                   c.start_ns,
                   c.end_ns,
                   fmt::format("the first launch of kernel {}, {}: {} (trace)",
                               trace.Name(kernel_of[i]),
                               Ms(d),
                               why)});
  }
}

// The host-blocking waits of each thread (synchronizations, copies and memsets that wait for the
// GPU), merged: time inside an op or range spent there is the GPU's queue draining, not one-time
// work (difftest: a 9.5 ms first `.item()` whose next call waits 19.4 ms).
using ThreadWaits = std::map<std::pair<std::int64_t, std::int64_t>, std::vector<util::Interval>>;

ThreadWaits WaitsByThread(const model::Trace& trace) {
  ThreadWaits waits;
  CachedNamePredicate is_wait(trace, IsHostWaitApi);
  for (const model::ApiCall& c : trace.api_calls) {
    if (is_wait(c.name))
      waits[{c.pid, c.tid}].push_back({c.start_ns, c.end_ns});
  }
  for (auto& [thread, list] : waits)
    list = util::MergeIntervals(std::move(list));
  return waits;
}

std::int64_t WaitedInside(const ThreadWaits& waits,
                          std::int64_t pid,
                          std::int64_t tid,
                          std::int64_t start,
                          std::int64_t end) {
  auto it = waits.find({pid, tid});
  return it == waits.end() ? 0 : util::CoveredLength(it->second, start, end);
}

// A first instance (of a host op or range) is one-time work only when it takes at least
// kFirstMargin x every later instance and is an Outlier once its waits for the GPU are left out:
// a group whose later instances run nearly as long (a bimodal series, a repeated wait, a stall
// that recurs every step: control's MulBackward0, 2.41 ms then 2.14 ms) has no warm-up to find.
// `durations` holds the first instance's too. A lone instance never is.
bool FirstInstanceOutlier(Group& g,
                          std::int64_t first_duration,
                          std::int64_t waited,
                          std::int64_t& median) {
  bool first_seen = false;  // the first instance's own entry (an equal later one still counts)
  for (std::int64_t d : g.durations) {
    if (d == first_duration && !first_seen) {
      first_seen = true;
      continue;
    }
    if (static_cast<double>(d) * kFirstMargin > static_cast<double>(first_duration))
      return false;
  }
  return Outlier(g, first_duration - waited, median, false);
}

// "first instance 2.09 s: 27207x the median of its 600 instances"
std::string FirstInstanceText(std::int64_t duration, std::int64_t median, std::size_t instances) {
  return fmt::format(
      "first instance {}: {:.0f}x the median of its {} instances",
      Ms(duration),
      static_cast<double>(duration) / static_cast<double>(std::max<std::int64_t>(1, median)),
      instances);
}

void HostOpOutliers(const model::Trace& trace,
                    const ThreadWaits& waits,
                    std::vector<Candidate>& out) {
  Groups groups;
  for (std::size_t i = 0; i < trace.host_ops.size(); ++i) {
    const model::HostOp& op = trace.host_ops[i];
    // Same shapes only: a first call with another shape (a CPU-side input cast before the GPU
    // loop) is other work, not a slow first instance of the loop's calls.
    AddToGroup(
        groups, GroupKey{op.pid, op.name, op.input_dims}, i, op.start_ns, op.end_ns - op.start_ns);
  }
  std::size_t first_new = out.size();
  for (auto& [key, group] : groups) {
    const model::HostOp& op = trace.host_ops[group.first];
    std::int64_t median = 0;
    // A lone host op (a step, a forward pass) is not a first call: nothing repeats it.
    if (!FirstInstanceOutlier(group,
                              op.end_ns - op.start_ns,
                              WaitedInside(waits, op.pid, op.tid, op.start_ns, op.end_ns),
                              median))
      continue;
    std::string name(trace.Name(op.name));
    if (!KindByName(name).empty())
      continue;  // NamedWork has it
    out.push_back(
        {"first_call",
         name,
         op.start_ns,
         op.end_ns,
         fmt::format("{}{} (trace: host ops)",
                     FirstInstanceText(op.end_ns - op.start_ns, median, group.durations.size()),
                     trace.Name(op.input_dims).empty() ? "" : " with the same input shapes"),
         true});
  }
  // One name slow on the first call of several input shapes: per shape, not per process, so a
  // new shape repeats it (b200: addmm at three shapes of an 888-token prefill; in serving every
  // new prompt length is a new shape).
  std::map<std::string, std::int64_t> shapes_of;
  for (std::size_t c = first_new; c < out.size(); ++c)
    ++shapes_of[out[c].name];
  for (std::size_t c = first_new; c < out.size(); ++c) {
    std::int64_t shapes = shapes_of[out[c].name];
    if (shapes > 1)
      out[c].evidence += fmt::format(
          "; the first call of each of its {} input shapes is slow: one-time per shape, so a new "
          "shape (a new batch or prompt length) pays it again",
          shapes);
  }
}

// Repeated host ranges (NVTX, record_function) whose first instance, its waits for the GPU left
// out, is the slowest and at least kOneTimeFactor x the median of its name's instances: a first
// forward that builds its caches, a first call of a library path. A range's instances do real
// work each time, so only the first one's excess over the median is one-time:
// [start, end - median]. An op candidate inside that takes 90% of it names it instead
// (KeepSpecific: from_host_op). A DataLoader's first fetch is not one of them unless it passes
// the same test: without persistent workers it recurs every epoch, and the batches its workers
// prefetch during it make the next steps fast.
void HostRangeOutliers(const model::Trace& trace,
                       const ThreadWaits& waits,
                       std::vector<Candidate>& out) {
  Groups groups;
  for (std::size_t i = 0; i < trace.ranges.size(); ++i) {
    const model::Range& r = trace.ranges[i];
    if (r.device != model::kNoId ||
        (r.kind != model::RangeKind::kNvtx && r.kind != model::RangeKind::kUserAnnotation))
      continue;
    AddToGroup(groups, GroupKey{r.pid, r.name, 0}, i, r.start_ns, r.end_ns - r.start_ns);
  }
  for (auto& [key, group] : groups) {
    const model::Range& r = trace.ranges[group.first];
    std::int64_t median = 0;
    // A lone range (a step, the whole run) is not a first instance: nothing repeats it.
    if (group.durations.size() < 3 ||
        !FirstInstanceOutlier(group,
                              r.end_ns - r.start_ns,
                              WaitedInside(waits, r.pid, r.tid, r.start_ns, r.end_ns),
                              median))
      continue;
    std::string name(trace.Name(r.name));
    if (!KindByName(name).empty())
      continue;  // NamedWork has it
    out.push_back(
        {"first_call",
         name,
         r.start_ns,
         r.end_ns - median,
         fmt::format("{}, {} of it beyond that median (trace: host ranges)",
                     FirstInstanceText(r.end_ns - r.start_ns, median, group.durations.size()),
                     Ms(r.end_ns - r.start_ns - median)),
         true});
  }
}

// Ranges, host ops and API calls whose name says compile, autotune, load, a communication
// library's set-up or teardown.
void NamedWork(const model::Trace& trace, std::vector<Candidate>& out) {
  auto add = [&](model::NameId id, std::int64_t start, std::int64_t end, const char* what) {
    if (end - start < kOneTimeMinNs)
      return;
    std::string_view name = trace.Name(id);
    std::string kind = KindByName(name);
    if (kind.empty())
      return;
    out.push_back({kind,
                   std::string(StripVersionSuffix(name)),
                   start,
                   end,
                   fmt::format("{} {} by its name, {} (trace)", what, kind, Ms(end - start)),
                   false,
                   true});
  };
  for (const model::Range& r : trace.ranges) {
    if (r.device == model::kNoId)
      add(r.name, r.start_ns, r.end_ns, "a host range,");
  }
  for (const model::HostOp& op : trace.host_ops)
    add(op.name, op.start_ns, op.end_ns, "a host op,");
  for (const model::ApiCall& c : trace.api_calls)
    add(c.name, c.start_ns, c.end_ns, "an API call,");
}

// BeginCapture .. EndCapture per thread, and graph instantiation: work recorded into a graph,
// not run.
bool IsBeginCapture(std::string_view name) {
  return ContainsNoCase(name, "BeginCapture");
}
bool IsEndCapture(std::string_view name) {
  return ContainsNoCase(name, "EndCapture");
}
bool IsGraphInstantiate(std::string_view name) {
  return ContainsNoCase(name, "GraphInstantiate");
}

void GraphCapture(const model::Trace& trace, std::vector<Candidate>& out) {
  std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> open;
  // Names decided once each: a trace has 10^5 calls of a few dozen names.
  CachedNamePredicate begin(trace, IsBeginCapture);
  CachedNamePredicate end(trace, IsEndCapture);
  CachedNamePredicate instantiate(trace, IsGraphInstantiate);
  for (const model::ApiCall& c : trace.api_calls) {
    std::pair thread{c.pid, c.tid};
    if (begin(c.name)) {
      open.try_emplace(thread, c.start_ns);
    } else if (end(c.name)) {
      if (auto it = open.find(thread); it != open.end()) {
        out.push_back({"graph_capture",
                       "CUDA graph capture",
                       it->second,
                       c.end_ns,
                       fmt::format("stream capture from BeginCapture to EndCapture, {}: launches "
                                   "record work into a graph, nothing runs (trace)",
                                   Ms(c.end_ns - it->second))});
        open.erase(it);
      }
    } else if (c.duration_ns() >= kOneTimeMinNs && instantiate(c.name)) {
      out.push_back({"graph_capture",
                     std::string(StripVersionSuffix(trace.Name(c.name))),
                     c.start_ns,
                     c.end_ns,
                     fmt::format("graph instantiation, {} (trace)", Ms(c.duration_ns()))});
    }
  }
}

// Of a chain of nested host ops that are one-time work together (aten::conv2d > convolution >
// cudnn_convolution), the innermost names it: an op is left out when an op candidate inside it
// takes at least 90% of its time. API calls inside an op stay beside it: they name a cause.
std::vector<Candidate> KeepSpecific(std::vector<Candidate> candidates) {
  std::stable_sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) {
    return a.end - a.start < b.end - b.start;
  });
  std::vector<Candidate> kept;
  for (Candidate& c : candidates) {
    bool chained =
        c.from_host_op && std::any_of(kept.begin(), kept.end(), [&](const Candidate& inner) {
          return inner.from_host_op && c.start <= inner.start && inner.end <= c.end &&
                 (inner.end - inner.start) * 10 >= (c.end - c.start) * 9;
        });
    if (!chained)
      kept.push_back(std::move(c));
  }
  return kept;
}

// A named candidate inside another of the same kind (NVRTC inside a compile range) adds no time
// and names a part of the same work: the outer one stands for it.
std::vector<Candidate> DropNested(std::vector<Candidate> candidates) {
  std::vector<Candidate> kept;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = candidates[i];
    bool nested = false;
    for (std::size_t j = 0; j < candidates.size() && !nested; ++j) {
      const Candidate& o = candidates[j];
      bool wider =
          o.end - o.start > c.end - c.start || (o.end - o.start == c.end - c.start && j < i);
      nested = j != i && c.by_name && o.by_name && o.kind == c.kind && wider &&
               o.start <= c.start && c.end <= o.end;
    }
    if (!nested)
      kept.push_back(c);
  }
  return kept;
}

// An item inside a wider one (context creation inside MPI_Init, where a GPU-aware MPI initialises
// CUDA; a lazy-loading launch inside a first cuDNN convolution) is part of that time, not added to
// it: its evidence says so, so that rows summing past the total read right. (The total is the
// union of the items either way.)
void NoteContainers(std::vector<Candidate>& candidates) {
  for (Candidate& c : candidates) {
    for (const Candidate& o : candidates) {
      if (&o == &c || o.name == c.name || o.end - o.start <= c.end - c.start || c.start < o.start ||
          o.end < c.end)
        continue;
      c.evidence += fmt::format("; inside {} ({}), whose time includes it", o.name, o.kind);
      break;
    }
  }
}

}  // namespace

InitializationResult DetectInitialization(const model::Trace& trace,
                                          const CorrelationIndex& index,
                                          const TraceWindow& window) {
  std::vector<Candidate> candidates;
  const LaunchFacts facts{LaunchedKernel(trace, index), ProcessFirstCalls(trace, index)};
  ApiOutliers(trace, index, facts, candidates);
  LazyFirstLaunches(trace, index, facts, candidates);
  const ThreadWaits waits = WaitsByThread(trace);
  HostOpOutliers(trace, waits, candidates);
  HostRangeOutliers(trace, waits, candidates);
  NamedWork(trace, candidates);
  GraphCapture(trace, candidates);
  EdgeResourceCalls(trace, index, candidates);
  candidates = DropNested(KeepSpecific(std::move(candidates)));
  // One record found by two passes (the process's first call is also a named one-time API, a
  // module load) is one item, under the first pass's kind: the context is created there.
  std::vector<Candidate> unique;
  for (Candidate& c : candidates) {
    if (std::none_of(unique.begin(), unique.end(), [&](const Candidate& u) {
          return u.start == c.start && u.end == c.end && u.name == c.name;
        }))
      unique.push_back(std::move(c));
  }
  candidates = std::move(unique);
  NoteContainers(candidates);

  InitializationResult out;
  std::vector<util::Interval> raw;
  std::map<std::pair<std::string, std::string>, report::InitializationItem> items;
  std::map<std::pair<std::string, std::string>, std::int64_t> largest;
  for (const Candidate& c : candidates) {
    std::int64_t start = std::max(c.start, window.start_ns);
    std::int64_t end = std::min(c.end, window.end_ns);
    if (end <= start)
      continue;
    raw.push_back({start, end});
    auto key = std::pair{c.kind, c.name};
    report::InitializationItem& item = items[key];
    item.kind = c.kind;
    item.name = c.name;
    item.time_ns += end - start;
    ++item.count;
    if (end - start > largest[key]) {
      largest[key] = end - start;
      item.evidence = c.evidence;
    }
  }
  out.intervals = util::MergeIntervals(std::move(raw));
  out.report.time_ns = util::TotalLength(out.intervals);
  if (window.length_ns() > 0)
    out.report.fraction =
        static_cast<double>(out.report.time_ns) / static_cast<double>(window.length_ns());
  for (auto& [key, item] : items) {
    if (item.count > 1)
      item.evidence += fmt::format("; {} instances in all", item.count);
    out.report.items.push_back(std::move(item));
  }
  std::sort(out.report.items.begin(), out.report.items.end(), [](const auto& a, const auto& b) {
    return std::tie(b.time_ns, a.kind, a.name) < std::tie(a.time_ns, b.kind, b.name);
  });
  if (out.report.items.size() > kItemsKept) {
    out.report.items_omitted = static_cast<std::int64_t>(out.report.items.size() - kItemsKept);
    out.report.items.resize(kItemsKept);
  }
  return out;
}

}  // namespace gpuperf::analysis
