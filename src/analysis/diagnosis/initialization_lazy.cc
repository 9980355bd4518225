// Lazy module loading: the first launch of each kernel whose call is long, against the
// process's repeated launch calls; and the launch facts (each call's kernel, each process's first
// call) it shares with the API outliers. Part of DetectInitialization (initialization.cc).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>

#include "analysis/core/names.h"
#include "analysis/core/statistics.h"
#include "analysis/diagnosis/initialization.h"
#include "analysis/diagnosis/initialization_parts.h"
#include "analysis/findings/findings.h"

namespace gpuperf::analysis::one_time {

// Kernel name of each launch call (the first kernel it ran), for "first launch of a kernel":
// indexed like Trace::api_calls (a vector: an export holds millions of calls), kNoKernel for a
// call that launched none.
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
      reference[pid] = UpperMedian(durations);
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
    out.push_back({InitializationKind::kLazyLoading,
                   std::string(name),
                   c.start_ns,
                   c.end_ns,
                   fmt::format("the first launch of kernel {}, {}: {} (trace)",
                               trace.Name(kernel_of[i]),
                               Ms(d),
                               why)});
  }
}

}  // namespace gpuperf::analysis::one_time
