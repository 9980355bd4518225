// Device memory allocated and freed while the program runs, not once around it (docs/metrics.md,
// "Findings"): cudaMalloc goes to the driver each time and cudaFree synchronizes the device, so a
// loop that allocates its buffers pays both every iteration; allocations never freed before the
// trace ends are held to exit. One-time work (set-up before the first GPU work, the frees after
// the last allocation at exit, context creation) is not counted.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string_view>
#include <tuple>
#include <vector>

#include "analysis/core/names.h"
#include "analysis/findings/findings.h"

namespace gpuperf::analysis {
namespace {

// Fewer allocation calls than this outside one-time work are a lazily created workspace or two,
// not a loop that allocates.
constexpr std::int64_t kMinLoopAllocations = 8;

struct AllocCall {
  std::int64_t duration_ns, start_ns, pid, tid;
  std::string_view name;
};

bool StreamOrdered(std::string_view name) {
  return name.find("Async") != std::string_view::npos;
}

// A framework's caching allocator (PyTorch's) grows its pool with cudaMalloc while the first
// steps run and keeps it: allocations without frees are its design. Known by framework
// operators, or by PyTorch's kernels in a trace without them (an Nsight Systems capture).
bool CachingAllocator(const model::Trace& trace) {
  if (!trace.host_ops.empty())
    return true;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind == model::ActivityKind::kKernel &&
        trace.Name(a.name).find("at::native::") != std::string_view::npos)
      return true;
  }
  return false;
}

}  // namespace

std::optional<report::Finding> DeviceAllocChurnRule(const RuleInput& in) {
  const model::Trace& trace = in.trace;
  // One lookup for the many calls that are neither, a second only for those that are.
  CachedNamePredicate is_memory(
      trace, [](std::string_view n) { return IsDeviceAllocApi(n) || IsDeviceFreeApi(n); });
  CachedNamePredicate is_alloc(trace, IsDeviceAllocApi);
  std::vector<AllocCall> loop_calls;
  std::int64_t loop_allocs = 0, loop_frees = 0, all_allocs = 0, all_frees = 0;
  std::vector<std::pair<std::int64_t, int>> live_changes;  // (time, +1 allocation / -1 free)
  for (std::size_t i = 0; i < trace.api_calls.size(); ++i) {
    const model::ApiCall& c = trace.api_calls[i];
    if (!is_memory(c.name) || !in.index.IsPrimary(i))
      continue;
    bool alloc = is_alloc(c.name);
    std::string_view name = trace.Name(c.name);
    if (StreamOrdered(name))
      continue;  // the pool allocator: what the advice proposes
    ++(alloc ? all_allocs : all_frees);
    live_changes.emplace_back(c.start_ns, alloc ? 1 : -1);
    bool one_time = in.one_time && c.duration_ns() > 0 &&
                    util::CoveredLength(*in.one_time, c.start_ns, c.end_ns) == c.duration_ns();
    if (one_time)
      continue;
    ++(alloc ? loop_allocs : loop_frees);
    loop_calls.push_back({c.duration_ns(), c.start_ns, c.pid, c.tid, name});
  }
  // Under a caching allocator only allocations that are freed again churn (empty_cache(), an
  // allocation retried after freeing the cache); its pool growth is warm-up.
  const bool caching_allocator = CachingAllocator(trace);
  if (loop_allocs < kMinLoopAllocations || (caching_allocator && loop_frees < kMinLoopAllocations))
    return std::nullopt;
  // Their cost: the part of their time with no GPU work running anywhere, where the host was
  // the critical path (at the program's end too, where the wall still counts it).
  std::vector<util::Interval> busy;
  busy.reserve(trace.activities.size());
  for (const model::GpuActivity& a : trace.activities)
    busy.push_back({a.start_ns, a.end_ns});
  busy = util::MergeIntervals(std::move(busy));
  std::int64_t host_ns = 0, idle_ns = 0;
  auto idle_during = [&](const AllocCall& c) {
    return c.duration_ns - util::CoveredLength(busy, c.start_ns, c.start_ns + c.duration_ns);
  };
  for (const AllocCall& c : loop_calls) {
    host_ns += c.duration_ns;
    idle_ns += idle_during(c);
  }
  // Only a program that calls the runtime itself is told of allocations it never frees, and only
  // when they pile up while it runs: more live allocations at the end than at the middle of its
  // GPU span (buffers allocated once at start-up and left to the exit are no leak). Counted by
  // calls: a trace records no addresses to pair them by.
  std::int64_t unfreed = caching_allocator ? 0 : std::max<std::int64_t>(0, all_allocs - all_frees);
  std::int64_t live_at_middle = 0;
  if (trace.activities.empty())
    unfreed = 0;  // no GPU span to say that they pile up in
  if (unfreed > 0) {
    const report::Timeline& span = in.timeline;  // all GPU activities
    std::int64_t middle = span.first_start_ns + (span.last_end_ns - span.first_start_ns) / 2;
    for (const auto& [time, change] : live_changes) {
      if (time < middle)
        live_at_middle += change;
    }
    if (all_allocs - all_frees - live_at_middle < 2)
      unfreed = 0;
  }
  std::int64_t unfreed_bytes = 0;
  for (const model::MemoryEvent& e : trace.memory_events) {
    if (e.device >= 0)
      unfreed_bytes += e.op == model::MemoryOp::kAllocate ? e.bytes : -e.bytes;
  }
  report::Finding f;
  f.id = report::finding_id::kDeviceAllocChurn;
  f.title = "Device memory allocated while the program runs";
  f.severity = report::Severity::kWarning;
  f.source = "trace";
  f.count = loop_allocs + loop_frees;
  f.time_ns = host_ns;
  f.host_blocked_ns = host_ns;
  f.gpu_idle_caused_ns = idle_ns;
  std::string leak;
  if (unfreed > 0)
    leak = fmt::format(
        " {} of the {} device allocations in the trace are never freed in it (counted by calls), "
        "and they pile up while it runs: {} live at the middle of the GPU span, {} at the end{}: "
        "held until the process exits, a leak where the loop that allocates them runs on.",
        unfreed,
        all_allocs,
        live_at_middle,
        all_allocs - all_frees,
        unfreed_bytes > 0 ? fmt::format(" ({:.3g} MB still allocated at its end, trace: memory "
                                        "events)",
                                        static_cast<double>(unfreed_bytes) / 1e6)
                          : std::string());
  f.summary = fmt::format(
      "{} device allocations and {} frees outside one-time work took {} of host time, {} of it "
      "with no GPU work running (trace): each cudaMalloc goes to the driver{}.{}",
      loop_allocs,
      loop_frees,
      Ms(host_ns),
      Ms(idle_ns),
      loop_frees > 0 ? " and each cudaFree synchronizes the device" : "",
      leak);
  f.advice =
      "Allocate the buffers once, outside the loop, and reuse them; or use the stream-ordered "
      "allocator (cudaMallocAsync / cudaFreeAsync with a memory pool), which neither "
      "synchronizes nor returns memory to the driver each time. Free what each iteration "
      "allocates. Only the time these calls hold the host while the GPU has nothing to run can "
      "come back.";
  f.columns = {{"Duration (ns)", report::ColumnUnit::kDurationNs},
               {"Start (ns)", report::ColumnUnit::kStartNs},
               {"PID"},
               {"TID"},
               {"API Name"},
               {"GPU idle during (ns)", report::ColumnUnit::kDurationNs}};
  auto longest_first = [](const AllocCall& a, const AllocCall& b) {
    return std::make_tuple(-a.duration_ns, a.start_ns, a.name, a.pid, a.tid) <
           std::make_tuple(-b.duration_ns, b.start_ns, b.name, b.pid, b.tid);
  };
  f.subject = std::string(StripVersionSuffix(
      std::min_element(loop_calls.begin(), loop_calls.end(), longest_first)->name));
  SetTopRows(
      f,
      loop_calls,
      longest_first,
      [&](const AllocCall& c) {
        return report::FindingRow{{std::to_string(c.duration_ns),
                                   std::to_string(c.start_ns),
                                   IdCell(c.pid),
                                   IdCell(c.tid),
                                   std::string(c.name),
                                   std::to_string(idle_during(c))}};
      },
      in.options.finding_rows);
  return f;
}

}  // namespace gpuperf::analysis
