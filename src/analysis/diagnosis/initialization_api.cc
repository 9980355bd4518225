// One-time work among the CUDA API calls: first calls far slower than the rest of their name
// (context creation, the first call of a library path), and resource calls (allocations, stream
// and event creation, releases) before the first and after the last GPU work. Part of
// DetectInitialization (initialization.cc).
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>

#include "analysis/core/names.h"
#include "analysis/diagnosis/initialization.h"
#include "analysis/diagnosis/initialization_parts.h"
#include "analysis/findings/findings.h"

namespace gpuperf::analysis::one_time {

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
    if (!process_first_call && KindByName(name))
      continue;  // NamedWork has it
    Candidate cand{InitializationKind::kFirstCall, std::string(name), c.start_ns, c.end_ns, ""};
    // The runtime creates the context in the process's first call, or in the first allocation
    // (cudaFree(0) is the idiom that forces it) while no GPU work has run yet: after GPU work the
    // context exists (resnet: a 788 ms cudaFree at 2.54 s, inside cuDNN's set-up, after copies
    // ran at 3 ms).
    if (process_first_call ||
        ((IsDeviceAllocApi(name) || IsDeviceFreeApi(name)) && c.start_ns <= first_gpu)) {
      cand.kind = InitializationKind::kContextCreation;
    } else if (key[2] != 0) {
      cand.kind = InitializationKind::kLazyLoading;
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
    if (cand.kind == InitializationKind::kContextCreation && !process_first_call &&
        c.end_ns <= first_gpu) {
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

namespace {

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

}  // namespace

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
    out.push_back({setup ? InitializationKind::kSetup : InitializationKind::kTeardown,
                   std::string(StripVersionSuffix(trace.Name(c.name))),
                   c.start_ns,
                   c.end_ns,
                   fmt::format("{} the {} GPU activity, {} (trace)",
                               setup ? "before" : "after",
                               setup ? "first" : "last",
                               Ms(c.duration_ns()))});
  }
}

}  // namespace gpuperf::analysis::one_time
