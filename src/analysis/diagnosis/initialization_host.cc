// One-time work on the host: repeated framework operators and host ranges (NVTX,
// record_function) whose first instance, its waits for the GPU left out, is an outlier of its
// group. Part of DetectInitialization (initialization.cc).
#include <fmt/format.h>

#include <map>
#include <string>
#include <utility>

#include "analysis/core/names.h"
#include "analysis/diagnosis/initialization.h"
#include "analysis/diagnosis/initialization_parts.h"
#include "analysis/findings/findings.h"

namespace gpuperf::analysis::one_time {

// The host-blocking waits of each thread (synchronizations, copies and memsets that wait for the
// GPU), merged: time inside an op or range spent there is the GPU's queue draining, not one-time
// work (difftest: a 9.5 ms first `.item()` whose next call waits 19.4 ms).
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

namespace {

// A first instance must take at least this many times as long as every later one of its group.
constexpr double kFirstMargin = 2.0;

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

}  // namespace

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
    if (KindByName(name))
      continue;  // NamedWork has it
    out.push_back(
        {InitializationKind::kFirstCall,
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
    if (KindByName(name))
      continue;  // NamedWork has it
    out.push_back(
        {InitializationKind::kFirstCall,
         name,
         r.start_ns,
         r.end_ns - median,
         fmt::format("{}, {} of it beyond that median (trace: host ranges)",
                     FirstInstanceText(r.end_ns - r.start_ns, median, group.durations.size()),
                     Ms(r.end_ns - r.start_ns - median)),
         true});
  }
}

}  // namespace gpuperf::analysis::one_time
