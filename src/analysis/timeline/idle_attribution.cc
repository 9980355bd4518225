#include "analysis/timeline/idle_attribution.h"

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
#include "analysis/timeline/step_windows.h"
#include "util/intervals.h"
#include "util/sort_runs.h"

namespace gpuperf::analysis {
namespace {

using util::Interval;

// Uncovered host time below this, in a gap a synchronization overlaps, is the launch latency of
// the next work rather than host work.
constexpr std::int64_t kHostWorkNs = 100'000;
// A first GPU activity that starts this long after its work was launched, with nothing recorded
// before it, is not launch latency (microseconds) but unrecorded work or a clock offset.
constexpr std::int64_t kUnobservedLeadNs = 1'000'000;
constexpr std::size_t kTopHostWork = 3;

bool SyncCall(std::string_view name) {
  std::string_view stripped = StripVersionSuffix(name);
  return IsBlockingSyncApi(stripped) || IsSyncMemcpyApi(stripped) || IsSyncMemsetApi(stripped);
}

bool LaunchCall(std::string_view name) {
  return IsLaunchApi(StripVersionSuffix(name));
}

bool HostBlocking(model::SyncKind kind) {
  return kind == model::SyncKind::kEvent || kind == model::SyncKind::kStream ||
         kind == model::SyncKind::kContext;
}

// Python frames (with_stack) by their self time: what the innermost recorded frame ran while the
// GPU idled. An enclosing frame counts only the stretches none of its children cover, so the
// frame that did the work is named, not main() around it.
// Only threads that launch GPU work can hold the GPU back: a monitor thread asleep in wait() or
// a worker preparing the next batch in parallel does not (all threads when none launches).
// The starts of each thread's framework operators and CUDA calls, sorted: a Python frame with
// one inside is on the dispatch path (a module's forward, torch.nn.functional.linear), which
// graphs and fewer launches shorten; a frame with none is other host work (decoding, numpy).
using ThreadStarts = std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::int64_t>>;

ThreadStarts DispatchStarts(const model::Trace& trace) {
  ThreadStarts starts;
  for (const model::HostOp& op : trace.host_ops)
    starts[{op.pid, op.tid}].push_back(op.start_ns);
  for (const model::ApiCall& c : trace.api_calls)
    starts[{c.pid, c.tid}].push_back(c.start_ns);
  for (auto& [thread, list] : starts)
    util::SortRuns(list.begin(), list.end(), std::less<std::int64_t>());
  return starts;
}

// `starts`: the frame's thread's dispatch starts (ThreadStarts), null when it has none.
bool HoldsDispatch(const std::vector<std::int64_t>* starts, const model::PythonFrame& f) {
  if (!starts)
    return false;
  auto first = std::lower_bound(starts->begin(), starts->end(), f.start_ns);
  return first != starts->end() && *first < f.end_ns;
}

void AddPythonSelfTime(const model::Trace& trace,
                       const std::vector<Interval>& host_idle,
                       const std::set<std::pair<std::int64_t, std::int64_t>>& launching_threads,
                       std::vector<Interval>& work_raw,
                       std::unordered_map<model::NameId, std::int64_t>& by_name,
                       std::int64_t& other_ns) {
  const auto& frames = trace.python_frames;
  ThreadStarts dispatch = DispatchStarts(trace);
  // A frame that meets no idle stretch names no idle time, and leaving it out of its parent's
  // children changes nothing the parent's self time has in the idle stretches either.
  std::vector<char> launching(trace.frame_threads.size(), 1);
  for (std::size_t t = 0; t < trace.frame_threads.size(); ++t) {
    const model::HostThread& thread = trace.frame_threads[t];
    launching[t] =
        launching_threads.empty() || launching_threads.contains({thread.pid, thread.tid});
  }
  std::vector<std::uint32_t> order;
  util::IntervalProbe idle_probe(host_idle);
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const model::PythonFrame& f = frames[i];
    if (launching[f.thread] && idle_probe.Overlaps(f.start_ns, f.end_ns))
      order.push_back(static_cast<std::uint32_t>(i));
  }
  util::SortRuns(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const model::PythonFrame& x = frames[a];
    const model::PythonFrame& y = frames[b];
    const model::HostThread& tx = trace.ThreadOf(x);
    const model::HostThread& ty = trace.ThreadOf(y);
    return std::tie(tx.pid, tx.tid, x.start_ns, y.end_ns) <
           std::tie(ty.pid, ty.tid, y.start_ns, x.end_ns);
  });
  struct Open {
    std::size_t frame;
    std::int64_t cursor;  // where its next self stretch starts
  };
  std::vector<Open> stack;
  // The order runs thread by thread: the thread's dispatch starts are looked up once per thread.
  const std::vector<std::int64_t>* thread_starts = nullptr;
  // The self stretches of a thread's frames tile its outermost frames, so those alone go to
  // work_raw (the union of host work), not one interval per stretch.
  auto self = [&](const Open& open, std::int64_t end) {
    if (end <= open.cursor)
      return;
    if (std::int64_t covered = idle_probe.Covered(open.cursor, end); covered > 0) {
      by_name[frames[open.frame].name] += covered;
      if (!HoldsDispatch(thread_starts, frames[open.frame]))
        other_ns += covered;
    }
  };
  auto pop = [&] {
    Open done = stack.back();
    stack.pop_back();
    self(done, frames[done.frame].end_ns);
    if (!stack.empty())
      stack.back().cursor = std::max(stack.back().cursor, frames[done.frame].end_ns);
  };
  for (std::size_t k = 0; k < order.size(); ++k) {
    const model::PythonFrame& f = frames[order[k]];
    bool same_thread = k > 0 && frames[order[k - 1]].thread == f.thread;
    if (!same_thread) {
      while (!stack.empty())
        pop();
      const model::HostThread& thread = trace.ThreadOf(f);
      auto it = dispatch.find({thread.pid, thread.tid});
      thread_starts = it == dispatch.end() ? nullptr : &it->second;
    }
    while (!stack.empty() && f.end_ns > frames[stack.back().frame].end_ns)
      pop();
    if (!stack.empty()) {
      self(stack.back(), f.start_ns);
      stack.back().cursor = std::max(stack.back().cursor, f.start_ns);
    }
    if (stack.empty())
      work_raw.push_back({f.start_ns, f.end_ns});
    stack.push_back({order[k], f.start_ns});
  }
  while (!stack.empty())
    pop();
}

bool OnLaunchingThread(const std::set<std::pair<std::int64_t, std::int64_t>>& launching_threads,
                       std::int64_t pid,
                       std::int64_t tid) {
  return launching_threads.empty() || launching_threads.contains({pid, tid});
}

std::vector<std::pair<std::string, std::int64_t>> TopNames(
    const model::Trace& trace, const std::unordered_map<model::NameId, std::int64_t>& by_name) {
  std::vector<std::pair<model::NameId, std::int64_t>> top(by_name.begin(), by_name.end());
  std::sort(top.begin(), top.end(), [&](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : trace.Name(a.first) < trace.Name(b.first);
  });
  std::vector<std::pair<std::string, std::int64_t>> out;
  for (std::size_t i = 0; i < top.size() && i < kTopHostWork; ++i)
    out.emplace_back(std::string(trace.Name(top[i].first)), top[i].second);
  return out;
}

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
  }
}

// What the host was running in `host_idle` (GPU idle, no CUDA call, not a synchronization's
// round trip): host ops (framework operators) and host ranges (NVTX, record_function), except
// those longer than half the window, which enclose everything and say nothing.
void AttributeHostWork(const model::Trace& trace,
                       const std::vector<Interval>& host_idle,
                       const std::set<std::pair<std::int64_t, std::int64_t>>& launching_threads,
                       IdleAttribution& out) {
  std::int64_t enclosing = out.window_ns / 2;
  std::vector<Interval> work_raw;
  std::unordered_map<model::NameId, std::int64_t> by_name;
  util::IntervalProbe idle_cover(host_idle);
  // A step marker (2021-era traces record ProfilerStep#N as an operator) holds the whole step:
  // no name of work, so it is not named (k2106: "ProfilerStep#9 (51.5 ms)").
  CachedNamePredicate is_step(trace, IsProfilerStepName);
  auto add = [&](model::NameId name, std::int64_t start, std::int64_t end) {
    if (end - start > enclosing)
      return;
    // Only the union of work_raw is read: an interval that starts inside the last one extends it
    // (a thread's operators nest and come in time order), so work_raw holds about one interval
    // per outermost operator, not one per operator (780k on the 1 GB benchmark trace).
    if (!work_raw.empty() && work_raw.back().start <= start && start <= work_raw.back().end)
      work_raw.back().end = std::max(work_raw.back().end, end);
    else
      work_raw.push_back({start, end});
    if (std::int64_t covered = idle_cover.Covered(start, end); covered > 0 && !is_step(name))
      by_name[name] += covered;
  };
  // Blocking MPI calls are waits for other ranks, wherever the trace records them.
  std::vector<Interval> mpi;
  CachedNamePredicate is_mpi(trace, IsBlockingMpiCall);
  auto note_mpi = [&](model::NameId name, std::int64_t start, std::int64_t end) {
    if (is_mpi(name) && end - start <= enclosing)
      mpi.push_back({start, end});
  };
  // A data loader's fetch is the input pipeline, wherever the trace records it.
  std::vector<Interval> loader;
  CachedNamePredicate is_loader(trace, IsDataLoaderFetch);
  auto note_loader = [&](model::NameId name, std::int64_t start, std::int64_t end) {
    if (!is_loader(name) || end - start > enclosing)
      return;
    loader.push_back({start, end});
    out.loader_multiprocess = out.loader_multiprocess ||
                              trace.Name(name).find("MultiProcessing") != std::string_view::npos;
  };
  for (const model::HostOp& op : trace.host_ops) {
    add(op.name, op.start_ns, op.end_ns);
    note_loader(op.name, op.start_ns, op.end_ns);
    note_mpi(op.name, op.start_ns, op.end_ns);
  }
  for (const model::Range& r : trace.ranges) {
    if (r.kind == model::RangeKind::kNvtx || r.kind == model::RangeKind::kUserAnnotation) {
      if (r.device == model::kNoId) {
        add(r.name, r.start_ns, r.end_ns);
        note_loader(r.name, r.start_ns, r.end_ns);
        note_mpi(r.name, r.start_ns, r.end_ns);
      }
    }
  }
  out.loader_ns =
      util::TotalLength(util::Intersect(host_idle, util::MergeIntervals(std::move(loader))));
  AddPythonSelfTime(trace, host_idle, launching_threads, work_raw, by_name, out.host_other_ns);
  // OS runtime calls (nsys OSRT: write, ioctl, poll) are host work no dispatch path holds.
  // Calls nest (fflush around write), so their union, not their sum, is added.
  std::vector<Interval> os_work;
  std::unordered_map<model::NameId, std::int64_t> os_by_name;
  for (const model::OsCall& call : trace.os_calls) {
    if (!OnLaunchingThread(launching_threads, call.pid, call.tid) ||
        call.end_ns - call.start_ns > enclosing)
      continue;
    add(call.name, call.start_ns, call.end_ns);
    note_mpi(call.name, call.start_ns, call.end_ns);
    if (std::int64_t covered = util::CoveredLength(host_idle, call.start_ns, call.end_ns);
        covered > 0) {
      os_work.push_back({call.start_ns, call.end_ns});
      os_by_name[call.name] += covered;
      ++out.os_calls_in_gaps;
    }
  }
  out.os_call_ns =
      util::TotalLength(util::Intersect(host_idle, util::MergeIntervals(std::move(os_work))));
  out.host_other_ns += out.os_call_ns;
  out.top_os_calls = TopNames(trace, os_by_name);
  out.has_host_work_records =
      !work_raw.empty() || !trace.python_frames.empty() || !trace.os_calls.empty();
  std::vector<Interval> work = util::MergeIntervals(std::move(work_raw));
  out.host_work_ns = util::TotalLength(util::Intersect(host_idle, work));
  out.top_host_work = TopNames(trace, by_name);
  out.host_comm_ns =
      util::TotalLength(util::Intersect(host_idle, util::MergeIntervals(std::move(mpi))));
  AttributeSamples(trace, util::Subtract(host_idle, work), launching_threads, out);
}

}  // namespace

namespace {

// Waits of at least kCoverageWaitNs that lie inside one gap: the GPU ran nothing while the host
// waited, so it waited for work the trace does not hold.
std::vector<Interval> CoverageWaits(const std::vector<Interval>& waits,
                                    const std::vector<Interval>& gaps) {
  std::vector<Interval> out;
  for (const Interval& w : waits) {
    if (w.end - w.start < kCoverageWaitNs)
      continue;
    auto it =
        std::upper_bound(gaps.begin(), gaps.end(), w.start, [](std::int64_t t, const Interval& g) {
          return t < g.end;
        });
    if (it != gaps.end() && it->start <= w.start && w.end <= it->end)
      out.push_back(w);
  }
  return out;
}

// For each gap, from when GPU work was queued: the earliest end of a launch call whose work
// started at or after the gap's end; INT64_MAX when none (nothing after the gap). Orphan work (no
// launch call in the trace) that starts before the trace's first launch call was launched before
// the recording began (a previous step's tail): queued from the start; a later orphan's launch is
// unknown and queues nothing. A suffix minimum over the activities by start.
std::vector<std::int64_t> QueuedFrom(const model::Trace& trace,
                                     const ActivityList& activities,
                                     const CorrelationIndex& index,
                                     const std::vector<Interval>& gaps,
                                     std::int64_t first_launch) {
  constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();
  constexpr std::int64_t kBeforeRecording = std::numeric_limits<std::int64_t>::min();
  std::vector<std::pair<std::int64_t, std::int64_t>> by_start;  // (start, launch-call end)
  by_start.reserve(activities.size());
  for (const model::GpuActivity* a : activities) {
    std::int64_t call = index.PrimaryCall(a->correlation, a->pid);
    std::int64_t queued = call >= 0 ? trace.api_calls[static_cast<std::size_t>(call)].end_ns
                          : a->start_ns < first_launch ? kBeforeRecording
                                                       : kNever;
    by_start.emplace_back(a->start_ns, queued);
  }
  util::SortRuns(by_start.begin(), by_start.end(), [](const auto& x, const auto& y) {
    return x.first < y.first;
  });
  std::vector<std::int64_t> suffix_min(by_start.size() + 1, kNever);
  for (std::size_t i = by_start.size(); i-- > 0;)
    suffix_min[i] = std::min(suffix_min[i + 1], by_start[i].second);
  std::vector<std::int64_t> out;
  out.reserve(gaps.size());
  for (const Interval& gap : gaps) {
    auto it = std::lower_bound(
        by_start.begin(), by_start.end(), gap.end, [](const auto& x, std::int64_t t) {
          return x.first < t;
        });
    out.push_back(suffix_min[static_cast<std::size_t>(it - by_start.begin())]);
  }
  return out;
}

// The span of each graph launch: its nodes' first start to last end, and before that the idle
// stretch that ends at its first node when the graph was already launched (it waited to start),
// merged. `busy` is the merged GPU work.
std::vector<Interval> GraphSpans(const model::Trace& trace,
                                 const ActivityList& activities,
                                 const CorrelationIndex& index,
                                 const std::vector<Interval>& busy) {
  CachedNamePredicate is_graph(trace, IsGraphLaunchApi);
  std::unordered_map<std::int64_t, Interval> by_call;
  for (const model::GpuActivity* a : activities) {
    std::int64_t call = index.PrimaryCall(a->correlation, a->pid);
    if (call < 0 || !is_graph(trace.api_calls[static_cast<std::size_t>(call)].name))
      continue;
    auto [it, fresh] = by_call.try_emplace(call, Interval{a->start_ns, a->end_ns});
    if (!fresh) {
      it->second.start = std::min(it->second.start, a->start_ns);
      it->second.end = std::max(it->second.end, a->end_ns);
    }
  }
  std::vector<Interval> spans;
  spans.reserve(by_call.size());
  for (auto [call, span] : by_call) {
    // The last GPU work that ended before the first node: the idle stretch after it is the
    // graph's wait when the graph had been launched by then.
    auto after = std::upper_bound(
        busy.begin(), busy.end(), span.start, [](std::int64_t t, const Interval& b) {
          return t < b.end;
        });
    std::int64_t launched = trace.api_calls[static_cast<std::size_t>(call)].end_ns;
    if (after != busy.begin()) {
      std::int64_t idle_from = std::prev(after)->end;
      if (idle_from < span.start)
        span.start = std::max(idle_from, std::min(launched, span.start));
    }
    spans.push_back(span);
  }
  return util::MergeIntervals(std::move(spans));
}

bool StreamWaitCall(std::string_view name) {
  name = StripVersionSuffix(name);
  return name.starts_with("cudaStreamWaitEvent") || name.starts_with("cuStreamWaitEvent") ||
         name.starts_with("hipStreamWaitEvent");
}

}  // namespace

// Everything the host is recorded doing inside `within`: API calls, framework ops, host ranges
// (except those longer than `enclosing`, which wrap the whole run and say nothing), Python frames
// and OS runtime calls, merged and clipped.
std::vector<Interval> RecordedHostWork(const model::Trace& trace,
                                       Interval within,
                                       std::int64_t enclosing) {
  std::vector<Interval> raw;
  auto add = [&](std::int64_t start, std::int64_t end) {
    start = std::max(start, within.start);
    end = std::min(end, within.end);
    if (start < end)
      raw.push_back({start, end});
  };
  for (const model::ApiCall& c : trace.api_calls)
    add(c.start_ns, c.end_ns);
  for (const model::HostOp& op : trace.host_ops)
    add(op.start_ns, op.end_ns);
  for (const model::Range& r : trace.ranges) {
    if (r.device == model::kNoId && r.end_ns - r.start_ns <= enclosing)
      add(r.start_ns, r.end_ns);
  }
  for (const model::PythonFrame& f : trace.python_frames)
    add(f.start_ns, f.end_ns);
  for (const model::OsCall& call : trace.os_calls)
    add(call.start_ns, call.end_ns);
  return util::MergeIntervals(std::move(raw));
}

namespace {

// The end of the last step when the trace records at least two (the window's steps); nullopt
// otherwise.
std::optional<std::int64_t> LastStepEnd(const std::vector<StepWindow>& steps) {
  if (steps.size() < 2)
    return std::nullopt;
  std::int64_t end = 0;
  for (const StepWindow& step : steps)
    end = std::max(end, step.end_ns);
  return end;
}

// After the last GPU activity nothing later waits for the GPU. In a trace of repeated steps, the
// stretches of the trailing gap after the last step where the trace records nothing at all
// (resnet: 1.65 s between its last kernel and the profiler's closing synchronization) are outside
// the measured steps. Their total, when over kUnobservedLeadNs, leaves the gaps (the recorded
// pieces stay); 0 otherwise. Without steps (a single-shot program) an unrecorded tail may be the
// program's own host work after its GPU work (post-processing, writing results): it stays idle.
std::int64_t CutUnobservedTail(const model::Trace& trace,
                               const std::vector<StepWindow>& steps,
                               const std::vector<Interval>& busy,
                               std::int64_t window_ns,
                               std::vector<Interval>& gaps) {
  if (busy.empty() || gaps.empty() || gaps.back().start < busy.back().end)
    return 0;
  std::optional<std::int64_t> last_step_end = LastStepEnd(steps);
  if (!last_step_end)
    return 0;
  Interval tail = gaps.back();
  tail.start = std::max(tail.start, *last_step_end);
  if (tail.end - tail.start <= kUnobservedLeadNs)
    return 0;
  std::vector<Interval> recorded = RecordedHostWork(trace, tail, window_ns / 2);
  std::int64_t unobserved = tail.end - tail.start - util::TotalLength(recorded);
  if (unobserved <= kUnobservedLeadNs)
    return 0;
  Interval before_tail{gaps.back().start, tail.start};  // inside the last step: stays idle
  gaps.pop_back();
  if (before_tail.end > before_tail.start)
    gaps.push_back(before_tail);
  gaps.insert(gaps.end(), recorded.begin(), recorded.end());
  return unobserved;
}

std::vector<Interval> WindowGaps(const std::vector<Interval>& busy, const TraceWindow& window) {
  std::vector<Interval> gaps;
  std::int64_t previous_end = window.start_ns;
  for (const Interval& b : busy) {
    if (b.start > previous_end)
      gaps.push_back({previous_end, b.start});
    previous_end = std::max(previous_end, b.end);
  }
  if (window.end_ns > previous_end)
    gaps.push_back({previous_end, window.end_ns});
  return gaps;
}

}  // namespace

IdleAttribution AttributeIdle(const model::Trace& trace,
                              const ActivityList& activities,
                              const TraceWindow& window,
                              const std::vector<std::size_t>& implicit_sync_calls,
                              const std::vector<Interval>& excluded,
                              const CorrelationIndex* index,
                              const std::vector<StepWindow>* steps) {
  IdleAttribution out;
  out.window_ns = window.length_ns();

  std::vector<Interval> busy_raw;
  busy_raw.reserve(activities.size());
  for (const model::GpuActivity* a : activities)
    busy_raw.push_back({a->start_ns, a->end_ns});
  std::vector<Interval> busy = util::MergeIntervals(std::move(busy_raw));

  std::vector<Interval> sync_raw, launch_raw, api_raw;
  CachedNamePredicate is_sync(trace, SyncCall);
  CachedNamePredicate is_launch(trace, LaunchCall);
  CachedNamePredicate is_stream_wait(trace, StreamWaitCall);
  // Launch calls also say which threads launch GPU work and when the recording's first launch
  // was (QueuedFrom, AttributeHostWork): one pass over the calls for all of it.
  std::set<std::pair<std::int64_t, std::int64_t>> launching_threads;
  std::int64_t first_launch = std::numeric_limits<std::int64_t>::max();
  for (const model::ApiCall& call : trace.api_calls) {
    Interval span{call.start_ns, call.end_ns};
    api_raw.push_back(span);
    if (is_stream_wait(call.name))
      ++out.stream_waits;
    bool launch = is_launch(call.name);
    if (launch) {
      launching_threads.insert({call.pid, call.tid});
      first_launch = std::min(first_launch, call.start_ns);
    }
    if (is_sync(call.name))
      sync_raw.push_back(span);
    else if (launch)
      launch_raw.push_back(span);
  }
  for (std::size_t i : implicit_sync_calls)
    sync_raw.push_back({trace.api_calls[i].start_ns, trace.api_calls[i].end_ns});
  for (const model::SyncEvent& s : trace.syncs) {
    if (HostBlocking(s.kind))
      sync_raw.push_back({s.start_ns, s.end_ns});
  }
  out.has_api_calls = !trace.api_calls.empty();
  std::vector<Interval> all_gaps = WindowGaps(busy, window);
  std::vector<Interval> coverage = util::MergeIntervals(CoverageWaits(sync_raw, all_gaps));
  std::vector<Interval> sync = util::MergeIntervals(std::move(sync_raw));
  std::vector<Interval> launch = util::MergeIntervals(std::move(launch_raw));
  std::vector<Interval> api = util::MergeIntervals(std::move(api_raw));
  // One-time work is not steady state: its idle time is left out of the attribution.
  std::vector<Interval> gaps = util::Subtract(all_gaps, excluded);
  out.excluded_ns = util::TotalLength(all_gaps) - util::TotalLength(gaps);
  out.unobserved_tail_ns =
      CutUnobservedTail(trace, steps ? *steps : DefaultSteps(trace), busy, out.window_ns, gaps);
  // One-time work shortens the wall only where the GPU idled: where it ran beside GPU work, that
  // work still had to run.
  out.steady_window_ns = out.window_ns - out.excluded_ns;
  out.last_busy_end = busy.empty() ? window.end_ns : busy.back().end;
  std::vector<std::int64_t> queued_from;
  if (index)
    queued_from = QueuedFrom(trace, activities, *index, gaps, first_launch);
  std::vector<Interval> host_gaps;  // gaps attributed to the host, not to a synchronization
  // The gaps are sorted and disjoint: each cover is swept once.
  util::CoverageSweep coverage_of(coverage), launch_of(launch), api_of(api), sync_of(sync);
  for (std::size_t g = 0; g < gaps.size(); ++g) {
    const Interval& gap = gaps[g];
    std::int64_t start = gap.start, end = gap.end;
    if (coverage_of.Covered(start, end) > 0) {
      ++out.coverage_gaps;
      out.coverage_gap_ns += end - start;
      continue;
    }
    // Queued from the gap's start, or for longer than a launch's latency: the few microseconds
    // between a launch call's end and its kernel's start stay part of a round trip.
    std::int64_t from = queued_from.empty() ? end : std::max(queued_from[g], start);
    bool leading = !busy.empty() && end <= busy.front().start;
    if (leading && from < end && end - from > kUnobservedLeadNs) {
      out.unobserved_lead_ns += end - from;
      end = from;
      if (end <= start)
        continue;
    }
    ++out.gaps;
    out.idle_ns += end - start;
    if (busy.empty() || end <= busy.front().start || start >= busy.back().end)
      out.edge_ns += end - start;
    if (!busy.empty() && end <= busy.front().start)
      out.lead_ns += end - start;
    if (from < end && (from == start || end - from > kHostWorkNs)) {
      std::int64_t queued = end - from;
      out.queued_ns += queued;
      ++out.queued_gaps;
      out.queued_gaps_at.push_back({from, end});
      end -= queued;
      if (end <= start)
        continue;
    }
    std::int64_t length = end - start;
    std::int64_t launch_ns = launch_of.Covered(start, end);
    std::int64_t api_ns = api_of.Covered(start, end);
    if (sync_of.Covered(start, end) > 0) {
      // A drained queue costs the round trip back to the GPU; long host work after the
      // synchronization is host time that the synchronization exposed, counted as host.
      std::int64_t uncovered = length - api_ns;
      if (uncovered <= std::max(kHostWorkNs, length / 2)) {
        ++out.sync_gaps;
        out.sync_ns += length;
        if (start < out.last_busy_end)
          out.round_trip_gaps.push_back({start, end});
        continue;
      }
      ++out.sync_exposed_gaps;
    }
    out.launch_ns += launch_ns;
    out.other_api_ns += api_ns - launch_ns;
    out.host_ns += length - api_ns;
    host_gaps.push_back({start, end});
    if (start < out.last_busy_end)
      out.other_gaps.push_back({start, end});
  }
  out.steady_window_ns -= out.unobserved_lead_ns + out.unobserved_tail_ns;
  if (index && !out.queued_gaps_at.empty())
    out.queued_in_graphs_ns = util::TotalLength(
        util::Intersect(out.queued_gaps_at, GraphSpans(trace, activities, *index, busy)));
  AttributeHostWork(trace, util::Subtract(host_gaps, api), launching_threads, out);
  return out;
}

namespace {

// Indices of the gaps (sorted, disjoint) that some wait (merged, sorted) overlaps, ascending and
// unique: only those are visited, so a finding's rows cost their own waits, not every gap.
std::vector<std::size_t> TouchedGaps(const std::vector<Interval>& gaps,
                                     const std::vector<Interval>& waits) {
  std::vector<std::size_t> touched;
  std::size_t next = 0;  // the waits are sorted: the first gap that can meet one only moves on
  for (const Interval& w : waits) {
    while (next < gaps.size() && gaps[next].end <= w.start)
      ++next;
    for (std::size_t i = next; i < gaps.size() && gaps[i].start < w.end; ++i) {
      if (touched.empty() || touched.back() < i)
        touched.push_back(i);
    }
  }
  return touched;
}

}  // namespace

std::int64_t IdleAttribution::CausedBy(std::vector<Interval> waits,
                                       std::vector<Interval> data_waits) const {
  waits = util::MergeIntervals(std::move(waits));
  data_waits = util::MergeIntervals(std::move(data_waits));
  std::vector<Interval> all = util::MergeIntervals([&] {
    std::vector<Interval> both = waits;
    both.insert(both.end(), data_waits.begin(), data_waits.end());
    return both;
  }());
  // The waits that overlap [start, end): the first one's start and their summed length. Each
  // loop below asks in ascending order, so a cursor that only moves forward finds the first.
  std::size_t next = 0;
  auto overlap = [&](const std::vector<Interval>& list,
                     std::int64_t start,
                     std::int64_t end,
                     std::int64_t* first) {
    while (next < list.size() && list[next].end <= start)
      ++next;
    *first = next < list.size() && list[next].start < end ? list[next].start : end;
    std::int64_t sum = 0;
    for (std::size_t i = next; i < list.size() && list[i].start < end; ++i)
      sum += list[i].end - list[i].start;
    return sum;
  };
  std::int64_t caused = 0;
  std::int64_t first = 0;
  // A round trip from the first wait on: idle before the wait began was not its doing.
  for (std::size_t i : TouchedGaps(round_trip_gaps, all)) {
    const Interval& g = round_trip_gaps[i];
    overlap(all, g.start, g.end, &first);
    caused += g.end - std::max(g.start, first);
  }
  next = 0;
  for (std::size_t i : TouchedGaps(other_gaps, all)) {
    const Interval& g = other_gaps[i];
    // A wait delays the host work after it by its length, so it is credited up to that, but
    // never the idle before it began: a copy that ends a long data-loader gap did not cause the
    // gap (resnet: 340 ms credited to pageable copies that overlap 10.6 ms of idle).
    std::int64_t credit = overlap(waits, g.start, g.end, &first);
    credit = std::min(credit, g.end - std::max(g.start, first));
    credit += util::CoveredLength(data_waits, g.start, g.end);
    caused += std::min(g.end - g.start, credit);
  }
  return caused;
}

std::int64_t IdleAttribution::QueuedDuring(std::vector<Interval> waits) const {
  return util::TotalLength(util::Intersect(queued_gaps_at, util::MergeIntervals(std::move(waits))));
}

std::vector<std::size_t> ImplicitSyncCalls(const model::Trace& trace,
                                           const CorrelationIndex& index) {
  std::vector<std::size_t> out;
  CachedNamePredicate is_async(
      trace, [](std::string_view name) { return IsAsyncMemcpyApi(StripVersionSuffix(name)); });
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind != model::ActivityKind::kMemcpy)
      continue;
    if (a.src_kind != model::MemoryKind::kPageable && a.dst_kind != model::MemoryKind::kPageable)
      continue;
    if (std::int64_t call = index.PrimaryCall(a.correlation, a.pid);
        call >= 0 && is_async(trace.api_calls[static_cast<std::size_t>(call)].name))
      out.push_back(static_cast<std::size_t>(call));
  }
  return out;
}

}  // namespace gpuperf::analysis
