// nsys cuda-sync-api, extended to sync records (Kineto cuda_sync) that have no matching call.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_set>
#include <utility>

#include "analysis/core/names.h"
#include "analysis/core/profiler_options.h"
#include "analysis/findings/findings.h"
#include "analysis/timeline/sync_drain.h"
#include "util/counted.h"

namespace gpuperf::analysis {
namespace {

struct SyncRow {
  std::int64_t duration_ns, start_ns, pid, tid;
  std::string_view name;  // points into the trace's strings or SyncRecordNames
};

// "sync record: stream" etc., one stable string per kind for the rows to point at.
class SyncRecordNames {
 public:
  std::string_view operator()(model::SyncKind kind) {
    auto [it, inserted] = names_.try_emplace(kind);
    if (inserted)
      it->second = fmt::format("sync record: {}", model::ToString(kind));
    return it->second;
  }

 private:
  std::map<model::SyncKind, std::string> names_;
};

// "1 device or stream synchronization", "3 device or stream synchronizations".
std::string SyncCountText(std::int64_t count) {
  return fmt::format("{} device or stream synchronization{}", count, count == 1 ? "" : "s");
}

}  // namespace

std::optional<report::Finding> SyncApiRule(const RuleInput& in) {
  const model::Trace& trace = in.trace;
  std::vector<SyncRow> rows;
  std::unordered_set<std::int64_t> call_correlations;
  std::int64_t count = 0;
  std::int64_t time_ns = 0;
  std::vector<util::Interval> waits;
  ThreadWaits thread_waits;
  SyncRecordNames record_names;
  CachedNamePredicate is_sync(trace, IsDeviceOrStreamSyncApi);
  for (std::size_t i = 0; i < trace.api_calls.size(); ++i) {
    const model::ApiCall& call = trace.api_calls[i];
    if (!is_sync(call.name))
      continue;
    rows.push_back({call.duration_ns(), call.start_ns, call.pid, call.tid, trace.Name(call.name)});
    if (call.correlation != model::kNoId)
      call_correlations.insert(call.correlation);
    if (in.index.IsPrimary(i)) {
      ++count;
      time_ns += call.duration_ns();
      waits.push_back({call.start_ns, call.end_ns});
      thread_waits[{call.pid, call.tid}].push_back(waits.back());
    }
  }
  for (const model::SyncEvent& s : trace.syncs) {
    if (!IsDeviceOrStreamSyncRecord(s.kind) || call_correlations.contains(s.correlation))
      continue;
    std::int64_t duration = s.end_ns - s.start_ns;
    rows.push_back({duration, s.start_ns, s.pid, s.tid, record_names(s.kind)});
    ++count;
    time_ns += duration;
    waits.push_back({s.start_ns, s.end_ns});
    thread_waits[{s.pid, s.tid}].push_back(waits.back());
  }
  if (count == 0)
    return std::nullopt;
  // The steady-state window's waits; those before it are said apart (all of them, when none is
  // inside: then they are the finding).
  const LeftOut left_out = LeftOutBefore(in, waits);
  const bool all_before = left_out.count == count;
  if (left_out.count > 0 && !all_before) {
    std::erase_if(rows, [&](const SyncRow& r) { return BeforeWindow(in, r.start_ns); });
    std::erase_if(waits, [&](const util::Interval& w) { return BeforeWindow(in, w.start); });
    // The loop drain keeps only the last of them per thread, which starts the window's first
    // cycle, and no earlier than the window: a cycle is not counted before it (k2106's first
    // cycle began 133 ms before the window).
    for (auto& [thread, list] : thread_waits) {
      std::int64_t last_end = std::numeric_limits<std::int64_t>::min();
      for (const util::Interval& w : list) {
        if (BeforeWindow(in, w.start))
          last_end = std::max(last_end, w.end);
      }
      std::erase_if(list, [&](const util::Interval& w) { return BeforeWindow(in, w.start); });
      if (last_end != std::numeric_limits<std::int64_t>::min()) {
        std::int64_t at = std::max(last_end, in.steady_start_ns);
        list.push_back({at, at});
      }
    }
    count -= left_out.count;
    time_ns -= left_out.blocked_ns;
  }
  report::Finding f;
  f.id = report::finding_id::kSyncApi;
  f.title = "Host-blocking synchronization";
  f.severity = report::Severity::kWarning;
  f.source = "trace";
  f.count = count;
  f.time_ns = time_ns;
  f.columns = {{"Duration (ns)", report::ColumnUnit::kDurationNs},
               {"Start (ns)", report::ColumnUnit::kStartNs},
               {"PID"},
               {"TID"},
               {"API Name"}};
  const std::string before_window = BeforeWindowText(left_out, all_before);
  SetWaitCost(f, in, std::move(waits));
  // In a loop of waits the cycle model replaces the overlap credit (it holds the round trips
  // too).
  DrainCost drain;
  if (in.idle)
    drain = CostliestLoopDrain(trace, in.index, *in.idle, thread_waits);
  if (drain.loop_cycles > 0)
    f.gpu_idle_later_ns.reset();  // the cycle model is the whole cost
  if (drain.loop_cycles > 0 && drain.cycles == 0) {
    f.gpu_idle_caused_ns = 0;
    f.summary = fmt::format(
        "{} held host threads for {} in total; in this loop of "
        "{} cycles between them no cycle would be shorter without them (the host's time or the "
        "GPU's sets each), so removing them gives nothing back (trace).",
        SyncCountText(count),
        Ms(time_ns),
        drain.loop_cycles);
  } else if (drain.loop_cycles > 0) {
    f.gpu_idle_caused_ns = drain.idle_ns;
    // The cycle model's cost is the loop's, not a sum over its rows.
    f.columns.back() = {"GPU idle removing it alone gives back (ns)",
                        report::ColumnUnit::kDurationNs};
    // Refill: in most cycles the host needs less than the GPU and would stay ahead.
    bool refill = 2 * drain.refill_cycles > drain.cycles;
    f.summary = fmt::format(
        "{} held host threads for {} in total. {}: over the {} "
        "from one wait's end to the next that {} time back ({} in all, {} to {} each; "
        "{} of them with the host faster than the GPU), the host needs {} outside the waits and "
        "the GPU {} of work, and without the waits each cycle takes at least the longer of the "
        "two (after the last wait, the host's part and then the GPU work still running), {} in "
        "all, {} less; of that only the GPU idle the waits caused counts, before any "
        "synchronous copy or free in the cycle ({}){}: they cost {} of GPU idle time (trace), and "
        "only that can come back. The rows give what removing each wait alone "
        "would give back, at most its length: the idle it overlaps, the round trip after it and "
        "the later idle it delays until the next wait (run forward); not its share of the "
        "loop's cost, so they do not sum to it.",
        SyncCountText(count),
        Ms(time_ns),
        refill
            ? "Each empties the launch queue, and the GPU then idles between kernels while "
              "the host refills it; without the waits the host would stay ahead"
            : "In this host-bound loop each wait delays the next cycle's launches by at most its "
              "length",
        util::Counted(drain.cycles, "cycle", "cycles"),
        drain.cycles == 1 ? "gives" : "give",
        Ms(drain.cycle_ns),
        Ms(drain.cycle_min_ns),
        Ms(drain.cycle_max_ns),
        drain.refill_cycles,
        Ms(drain.host_ns),
        Ms(drain.gpu_ns),
        Ms(drain.floor_ns),
        Ms(drain.cycle_ns - drain.floor_ns),
        refill ? "round trips and refills" : "at most each wait's length and the idle of its cycle",
        drain.first_wait_ns > 0
            ? fmt::format("; with the first wait, which no cycle holds, {} more ({})",
                          Ms(drain.first_wait_ns),
                          refill ? "the idle while the host still waited"
                                 : "its length: without it every later cycle starts sooner")
            : std::string(),
        Ms(drain.idle_ns));
    // The cycles' host part is profiled host time: said where the cost is material, not beside
    // a wait that costs nothing either way.
    if (std::string overhead =
            static_cast<double>(drain.idle_ns) >=
                    kMaterialFraction * static_cast<double>(in.idle->steady_window_ns)
                ? ProfilerOverheadText(
                      trace,
                      HostOpsCarryShapes(trace),
                      fmt::format("the host's {} outside the waits that these cycles rest on",
                                  Ms(drain.host_ns)))
                : std::string();
        !overhead.empty())
      f.summary += " " + overhead;
  } else {
    f.summary = fmt::format("{} held host threads for {} in total{}.",
                            SyncCountText(count),
                            Ms(time_ns),
                            IdleCausedText(f));
  }
  f.summary += before_window;
  f.advice =
      "Synchronize only where the host needs GPU results; prefer events and "
      "cudaStreamWaitEvent for ordering between streams. Only the GPU idle a wait causes can "
      "come back: while the GPU is busy during a wait, removing it gains nothing.";
  auto longest_first = [](const SyncRow& a, const SyncRow& b) {
    return std::make_tuple(-a.duration_ns, a.start_ns, a.name, a.pid, a.tid) <
           std::make_tuple(-b.duration_ns, b.start_ns, b.name, b.pid, b.tid);
  };
  if (!rows.empty())
    f.subject = StripVersionSuffix(std::min_element(rows.begin(), rows.end(), longest_first)->name);
  SetTopRows(
      f,
      rows,
      longest_first,
      [&](const SyncRow& r) {
        return report::FindingRow{{std::to_string(r.duration_ns),
                                   std::to_string(r.start_ns),
                                   IdCell(r.pid),
                                   IdCell(r.tid),
                                   std::string(r.name),
                                   CausedCell(in, r.start_ns, r.start_ns + r.duration_ns)}};
      },
      in.options.finding_rows);
  return f;
}

}  // namespace gpuperf::analysis
