// CPU samples (nsys sampling) of the launching threads in the idle that no CUDA call and no
// recorded host work explain: an estimate of the host time there, and the functions that hold
// it. Part of AttributeIdle (idle_attribution.cc).
#include <algorithm>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "analysis/core/names.h"
#include "analysis/timeline/idle_attribution.h"
#include "analysis/timeline/idle_attribution_parts.h"
#include "analysis/timeline/step_windows.h"
#include "util/intervals.h"
#include "util/sort_runs.h"

namespace gpuperf::analysis {
namespace {

using util::Interval;

// A sampled frame inside the CUDA driver or runtime: the dispatch path, which graphs shorten.
bool IsCudaLibraryFrame(std::string_view function) {
  return function.starts_with("[libcuda") || function.starts_with("[libnvidia") ||
         function.starts_with("cuda") ||
         (function.size() > 2 && function.starts_with("cu") && function[2] >= 'A' &&
          function[2] <= 'Z');
}

// A frame of the profiler's own libraries (Nsight Systems' injection, CUPTI, the perf SDK).
bool IsProfilerFrame(std::string_view function) {
  return function.starts_with("[libToolsInjection") || function.starts_with("[libcupti") ||
         function.starts_with("[libnvperf");
}

}  // namespace

// CPU samples (nsys sampling) of the launching threads in `unexplained` (GPU idle that no CUDA
// call and no recorded host work covers): each stands for its thread's sampling interval, the
// median distance between the thread's consecutive samples, so their sum estimates the time.
void AttributeSamples(const model::Trace& trace,
                      const std::vector<Interval>& unexplained,
                      const std::set<std::pair<std::int64_t, std::int64_t>>& launching_threads,
                      IdleAttribution& out) {
  if (trace.cpu_samples.empty() || unexplained.empty())
    return;
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::int64_t>> times;
  for (const model::CpuSample& s : trace.cpu_samples) {
    if (OnLaunchingThread(launching_threads, s.pid, s.tid))
      times[{s.pid, s.tid}].push_back(s.time_ns);
  }
  std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> interval;
  for (auto& [thread, list] : times) {
    std::sort(list.begin(), list.end());
    std::vector<std::int64_t> steps;
    for (std::size_t i = 1; i < list.size(); ++i) {
      if (list[i] > list[i - 1])
        steps.push_back(list[i] - list[i - 1]);
    }
    if (steps.empty())
      continue;
    std::nth_element(
        steps.begin(), steps.begin() + static_cast<std::ptrdiff_t>(steps.size() / 2), steps.end());
    interval[thread] = steps[steps.size() / 2];
  }
  std::unordered_map<model::NameId, std::int64_t> by_name;
  std::unordered_map<model::NameId, bool> in_cuda;  // by function, decided once
  std::vector<std::int64_t> weights;
  for (const model::CpuSample& s : trace.cpu_samples) {
    auto it = interval.find({s.pid, s.tid});
    if (it == interval.end() || !util::Overlaps(unexplained, s.time_ns, s.time_ns + 1))
      continue;
    by_name[s.function] += it->second;
    out.sampled_host_ns += it->second;
    ++out.sampled_host_samples;
    weights.push_back(it->second);
    auto [cuda, added] = in_cuda.try_emplace(s.function, false);
    if (added)
      cuda->second = IsCudaLibraryFrame(trace.Name(s.function));
    if (!cuda->second)
      out.sampled_other_ns += it->second;
  }
  if (!weights.empty()) {
    std::nth_element(weights.begin(),
                     weights.begin() + static_cast<std::ptrdiff_t>(weights.size() / 2),
                     weights.end());
    out.sample_interval_ns = weights[weights.size() / 2];
  }
  out.top_sampled_host = TopNames(trace, by_name);
  for (auto& [name, ns] : out.top_sampled_host) {
    if (IsProfilerFrame(name))
      name += " (the profiler itself)";
    // Samples whose innermost frame is the entry point ran main's own code: loops the compiler
    // inlined into it. Bare, the name reads as "the whole program" (saxpy: main, 587 ms).
    else if (name == "main" || name == "MAIN__")
      name += " (its own code, loops inlined into it: no finer function sampled)";
  }
}

}  // namespace gpuperf::analysis
