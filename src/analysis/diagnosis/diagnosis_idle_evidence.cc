// What the host's own records say it did while the GPU idled (host work, Python frames, CPU
// samples, the model's forward, a single-process DataLoader, starved steps): the evidence
// SetIdleClass (diagnosis_idle.cc) gives its idle class.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "analysis/core/names.h"
#include "analysis/core/statistics.h"
#include "analysis/diagnosis/diagnosis.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/diagnosis/input_check.h"
#include "analysis/findings/findings.h"
#include "analysis/framework/launch_tree.h"
#include "analysis/predictions/amdahl.h"
#include "util/intervals.h"
#include "util/units_format.h"

namespace gpuperf::analysis {

std::int64_t NamedHostWorkIn(const model::Trace& trace,
                             const std::vector<std::string>& names,
                             const std::vector<util::Interval>& gaps) {
  if (names.empty() || gaps.empty())
    return 0;
  // Each name looked up once, on first use: the string table holds every argument and shape
  // string too, most of which no record names.
  constexpr std::int8_t kUnknown = -1;
  std::vector<std::int8_t> named(trace.strings.size(), kUnknown);
  std::vector<util::Interval> work;
  auto add = [&](model::NameId name, std::int64_t start, std::int64_t end) {
    if (name >= named.size())
      return;
    if (named[name] == kUnknown)
      named[name] = std::find(names.begin(), names.end(), trace.Name(name)) != names.end() ? 1 : 0;
    if (named[name] == 1)
      work.push_back({start, end});
  };
  for (const model::HostOp& op : trace.host_ops)
    add(op.name, op.start_ns, op.end_ns);
  for (const model::Range& r : trace.ranges) {
    if (r.device == model::kNoId)
      add(r.name, r.start_ns, r.end_ns);
  }
  for (const model::PythonFrame& f : trace.python_frames)
    add(f.name, f.start_ns, f.end_ns);
  for (const model::OsCall& call : trace.os_calls)
    add(call.name, call.start_ns, call.end_ns);
  return util::TotalLength(util::Intersect(gaps, util::MergeIntervals(std::move(work))));
}

std::int64_t IdleBesideForwardGpu(const std::vector<util::Interval>& forward,
                                  const IdleAttribution& idle,
                                  std::int64_t window_end) {
  std::vector<util::Interval> all = idle.round_trip_gaps;
  all.insert(all.end(), idle.other_gaps.begin(), idle.other_gaps.end());
  all.insert(all.end(), idle.queued_gaps_at.begin(), idle.queued_gaps_at.end());
  const util::PrefixCover gaps(util::MergeIntervals(std::move(all)));
  const util::PrefixCover host_gaps(idle.other_gaps);
  std::int64_t beside = 0;
  for (std::size_t i = 0; i < forward.size(); ++i) {
    const util::Interval& span = forward[i];
    std::int64_t gpu = (span.end - span.start) - gaps.Within(span.start, span.end);
    std::int64_t until = i + 1 < forward.size() ? forward[i + 1].start : window_end;
    until = std::min(until, idle.run_forward.NextWaitFrom(span.end, until));
    if (until > span.end)
      beside += std::min(gpu, host_gaps.Within(span.end, until));
  }
  return beside;
}

ModelForward FindModelForward(const model::Trace& trace) {
  std::vector<const model::PythonFrame*> frames;
  for (const model::PythonFrame& f : trace.python_frames) {
    if (!framework::ModuleInstanceName(trace.Name(f.name)).empty())
      frames.push_back(&f);
  }
  std::sort(frames.begin(), frames.end(), [](const auto* a, const auto* b) {
    return std::tie(a->thread, a->start_ns, b->end_ns) <
           std::tie(b->thread, b->start_ns, a->end_ns);
  });
  std::map<std::string_view, std::vector<util::Interval>> outermost;
  std::map<std::string_view, std::int64_t> time;
  std::uint32_t thread = 0;
  std::int64_t end = std::numeric_limits<std::int64_t>::min();
  for (const model::PythonFrame* f : frames) {
    if (f->thread != thread) {
      thread = f->thread;
      end = std::numeric_limits<std::int64_t>::min();
    }
    if (f->start_ns < end)
      continue;  // inside an outer module frame
    end = f->end_ns;
    std::string_view module =
        framework::ModuleClassName(framework::ModuleInstanceName(trace.Name(f->name)));
    outermost[module].push_back({f->start_ns, f->end_ns});
    time[module] += f->end_ns - f->start_ns;
  }
  ModelForward out;
  std::int64_t best = 0;
  for (const auto& [module, ns] : time) {
    if (ns > best) {
      best = ns;
      out.module = std::string(module);
    }
  }
  if (!out.module.empty())
    out.spans = util::MergeIntervals(std::move(outermost[out.module]));
  return out;
}

// PyTorch's single-process DataLoader iterator by any recorded name (a Python frame, the
// profiler's "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__" range).
bool HasSingleProcessLoader(const model::Trace& trace) {
  for (model::NameId id = 0; id < trace.strings.size(); ++id) {
    if (trace.Name(id).find("_SingleProcessDataLoaderIter") != std::string_view::npos)
      return true;
  }
  return false;
}

// The host time in the gaps that CPU samples explain, where there are enough of them: no more
// than the time that recorded host work leaves unexplained.
std::int64_t SampledHostNs(const IdleAttribution& idle) {
  if (idle.sampled_host_samples < kMinHostSamples)
    return 0;
  return std::max<std::int64_t>(0,
                                std::min(idle.sampled_host_ns, idle.host_ns - idle.host_work_ns));
}

// What the host did in the gaps no CUDA call covers, from the records that say it: host work
// (framework ops, Python frames, ranges, OS runtime calls) and, for the rest, CPU samples.
void AddHostWorkEvidence(const model::Trace& trace,
                         report::Diagnosis& d,
                         const IdleAttribution& idle) {
  if (idle.host_ns <= 0)
    return;
  // "Covers 0 ns" says something only where the host's share of the idle is large.
  if (idle.has_host_work_records && (idle.host_work_ns > 0 || idle.host_ns >= idle.idle_ns / 4)) {
    std::string names = TimedNames(idle.top_host_work);
    // The kinds of host record the trace holds, so that none is named that it lacks.
    std::string kinds;
    auto kind = [&](bool held, const char* what) {
      if (held)
        kinds += fmt::format("{}{}", kinds.empty() ? "" : ", ", what);
    };
    kind(!trace.host_ops.empty(), "framework ops");
    kind(!trace.python_frames.empty(), "Python frames by self time");
    kind(!trace.ranges.empty(), "NVTX and annotation ranges");
    kind(!trace.os_calls.empty(), "OS runtime calls");
    // Ranges and operators count all the time they cover, frames their self time: a name can
    // hold another (a DataLoader range around a decoding frame), so the names do not add up.
    bool nesting = !trace.host_ops.empty() || !trace.ranges.empty();
    d.support.push_back(fmt::format(
        "Recorded host work ({}) covers {} of the {} with no CUDA call{} (trace).",
        kinds,
        Ms(idle.host_work_ns),
        Ms(idle.host_ns),
        names.empty() ? ""
        : nesting && idle.top_host_work.size() > 1
            ? "; most in " + names + " (a range or operator includes the names inside it)"
            : "; most in " + names));
  }
  if (idle.sampled_host_samples >= kMinHostSamples)
    d.support.push_back(fmt::format(
        "CPU samples of the launching threads estimate what the host ran in {} more of it: {} "
        "samples at one per {} (each counted as that interval), most in {} (samples: an "
        "estimate).",
        Ms(SampledHostNs(idle)),
        idle.sampled_host_samples,
        Ms(idle.sample_interval_ns),
        TimedNames(idle.top_sampled_host)));
  else if (idle.sampled_host_samples > 0)
    d.support.push_back(fmt::format(
        "Only {} CPU samples of the launching threads fall in the rest of it: too few (under {}) "
        "to say what the host ran there (samples).",
        idle.sampled_host_samples,
        kMinHostSamples));
}

// A loader-paced window mixes steps the loader fed (a prefetched batch was ready) with steps it
// starved: the per-step figure says what a loader that keeps up gives in the starved regime,
// which a long run is mostly made of (resnet: 8 buffered steps of 156 ms, then ~400 ms ones).
void AddStarvedSteps(report::Diagnosis& d, const report::AnalysisReport& r) {
  std::vector<std::int64_t> fed, starved;
  for (const report::StepRow& s : r.framework.steps)
    (s.idle_ns > s.wall_ns - s.idle_ns ? starved : fed).push_back(s.wall_ns);
  if (fed.size() < 2 || starved.size() < 2)
    return;
  report::Distribution fed_wall = Summarize(fed);
  report::Distribution starved_wall = Summarize(starved);
  if (fed_wall.med <= 0 || starved_wall.med <= fed_wall.med)
    return;
  d.support.push_back(fmt::format(
      "{} of the {} steps are starved (the GPU idles over half of the step): median {} against "
      "{} for the {} the loader fed; a loader that keeps up makes a starved step up to {:.2f}x "
      "faster (median over median, trace: steps).",
      starved.size(),
      fed.size() + starved.size(),
      Ms(static_cast<std::int64_t>(starved_wall.med)),
      Ms(static_cast<std::int64_t>(fed_wall.med)),
      fed.size(),
      starved_wall.med / fed_wall.med));
}

std::string BlockingMpiSpread(const model::Trace& trace, const util::Interval& steady) {
  // A blocking send whose calls all take the fastest's time is paying for its transfer; one whose
  // calls spread far above the fastest waited for its peer (saxpy-mpi: MPI_Send 11.1 ms in 8 of
  // 10 calls, MPI_Recv 12.5 ms to 36.0 ms).
  constexpr double kTightMedian = 1.2;
  std::map<std::string_view, std::vector<std::int64_t>> calls;
  CachedNamePredicate is_mpi(trace, IsBlockingMpiCall);
  auto add = [&](model::NameId name, std::int64_t start, std::int64_t end) {
    if (end > start && start >= steady.start && end <= steady.end && is_mpi(name))
      calls[trace.Name(name)].push_back(end - start);
  };
  for (const model::HostOp& op : trace.host_ops)
    add(op.name, op.start_ns, op.end_ns);
  for (const model::Range& r : trace.ranges) {
    if (r.device == model::kNoId)
      add(r.name, r.start_ns, r.end_ns);
  }
  std::string text;
  for (auto& [name, durations] : calls) {
    std::sort(durations.begin(), durations.end());
    const std::int64_t fastest = durations.front();
    const std::int64_t median = durations[(durations.size() - 1) / 2];
    std::int64_t above = 0;
    for (std::int64_t d : durations)
      above += d - fastest;
    const bool tight = static_cast<double>(median) <= kTightMedian * static_cast<double>(fastest);
    text += fmt::format("{}{}: {} call{}, {} to {}, median {}{}",
                        text.empty() ? "" : "; ",
                        name,
                        durations.size(),
                        durations.size() == 1 ? "" : "s",
                        Ms(fastest),
                        Ms(durations.back()),
                        Ms(median),
                        durations.size() < 3 ? std::string()
                        : tight ? std::string(": most take the fastest's time, the transfer's own")
                                : fmt::format(": {} above the fastest, the sign of waiting for the "
                                              "other rank",
                                              Ms(above)));
  }
  return text;
}

}  // namespace gpuperf::analysis
