// What the host was running while the GPU idled: its recorded work (framework operators, host
// ranges, Python frames by self time, MPI waits) in the idle no CUDA call covers, and the names
// that hold most of it. Part of AttributeIdle (idle_attribution.cc).
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

constexpr std::size_t kTopHostWork = 3;

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

// A DataLoader fetch from worker processes, on its host thread.
struct WorkerFetch {
  Interval span;
  std::int64_t pid = 0;
  std::int64_t tid = 0;
  std::int64_t ops = 0;  // host ops inside it: unpacking the batch it received
};

// A fetch this many times the shortest one that received a batch waited for it.
constexpr std::int64_t kFetchWaitFactor = 10;
// A first fetch this many times the longest later one waited for the workers' start-up too.
constexpr std::int64_t kFetchStartUpFactor = 2;

struct LoaderFetchWaits {
  std::vector<Interval> waits;  // sorted, disjoint
  // The first fetch, when it waited kFetchStartUpFactor x longer than any later fetch: the
  // workers' start-up and their first batches (once per iterator, so per epoch unless the
  // loader keeps its workers); empty otherwise.
  Interval start_up{};
};

// The worker-process fetches that waited for their batch. A fetch that receives one unpacks it on
// the host (as many operators inside it as a typical fetch with any: pytorch-kineto 2021-06's 11
// in 1.25-1.40 ms, 31 for three batches in 4.33 ms), one that returns a batch already there
// takes microseconds (one operator, or none): only a fetch kFetchWaitFactor times the shortest
// that unpacked waited (resnet: 12 operators in 1.80 ms; starved, 212-748 ms). Its end is when
// the workers had the batch ready, which a host arriving sooner does not move: released early by
// pinned copies, resnet's host only waits longer at its next fetch.
LoaderFetchWaits LoaderWaits(std::vector<WorkerFetch> fetches,
                             const model::RecordArray<model::HostOp>& host_ops) {
  if (fetches.empty())
    return {};
  std::sort(fetches.begin(), fetches.end(), [](const WorkerFetch& a, const WorkerFetch& b) {
    return a.span.start < b.span.start;
  });
  for (const model::HostOp& op : host_ops) {
    auto after = std::upper_bound(
        fetches.begin(), fetches.end(), op.start_ns, [](std::int64_t t, const WorkerFetch& f) {
          return t < f.span.start;
        });
    if (after == fetches.begin())
      continue;
    WorkerFetch& f = *(after - 1);
    if (f.pid == op.pid && f.tid == op.tid && op.end_ns <= f.span.end &&
        (op.start_ns > f.span.start || op.end_ns < f.span.end))  // inside it, not the fetch
      ++f.ops;
  }
  std::vector<std::int64_t> counts;
  for (const WorkerFetch& f : fetches) {
    if (f.ops > 0)
      counts.push_back(f.ops);
  }
  if (counts.empty())
    return {};
  std::nth_element(counts.begin(), counts.begin() + counts.size() / 2, counts.end());
  const std::int64_t typical = counts[counts.size() / 2];
  std::int64_t unpacking = std::numeric_limits<std::int64_t>::max();
  for (const WorkerFetch& f : fetches) {
    if (f.ops >= typical)
      unpacking = std::min(unpacking, f.span.end - f.span.start);
  }
  LoaderFetchWaits out;
  std::int64_t longest_later = 0;
  for (std::size_t i = 0; i < fetches.size(); ++i) {
    const Interval& span = fetches[i].span;
    if (span.end - span.start > kFetchWaitFactor * unpacking)
      out.waits.push_back(span);
    if (i > 0)
      longest_later = std::max(longest_later, span.end - span.start);
  }
  const Interval& first = fetches.front().span;
  if (fetches.size() > 1 && first.end - first.start > kFetchWaitFactor * unpacking &&
      first.end - first.start >= kFetchStartUpFactor * longest_later)
    out.start_up = first;
  out.waits = util::MergeIntervals(std::move(out.waits));
  return out;
}

}  // namespace

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
  std::vector<WorkerFetch> from_workers;  // the fetches that hand over a worker's batch
  CachedNamePredicate is_loader(trace, IsDataLoaderFetch);
  auto note_loader = [&](model::NameId name,
                         std::int64_t start,
                         std::int64_t end,
                         std::int64_t pid,
                         std::int64_t tid) {
    if (!is_loader(name) || end - start > enclosing)
      return;
    loader.push_back({start, end});
    if (trace.Name(name).find("MultiProcessing") != std::string_view::npos) {
      out.loader_multiprocess = true;
      from_workers.push_back({{start, end}, pid, tid});
    }
  };
  for (const model::HostOp& op : trace.host_ops) {
    add(op.name, op.start_ns, op.end_ns);
    note_loader(op.name, op.start_ns, op.end_ns, op.pid, op.tid);
    note_mpi(op.name, op.start_ns, op.end_ns);
  }
  for (const model::Range& r : trace.ranges) {
    if (r.kind == model::RangeKind::kNvtx || r.kind == model::RangeKind::kUserAnnotation) {
      if (r.device == model::kNoId) {
        add(r.name, r.start_ns, r.end_ns);
        note_loader(r.name, r.start_ns, r.end_ns, r.pid, r.tid);
        note_mpi(r.name, r.start_ns, r.end_ns);
      }
    }
  }
  out.loader_ns =
      util::TotalLength(util::Intersect(host_idle, util::MergeIntervals(std::move(loader))));
  LoaderFetchWaits fetch_waits = LoaderWaits(std::move(from_workers), trace.host_ops);
  out.loader_waits = std::move(fetch_waits.waits);
  out.loader_start_up_ns =
      util::CoveredLength(host_idle, fetch_waits.start_up.start, fetch_waits.start_up.end);
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

}  // namespace gpuperf::analysis
