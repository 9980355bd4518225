// nsys cuda-sync-api, extended to sync records (Kineto cuda_sync) that have no matching call.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_set>
#include <utility>

#include "analysis/core/names.h"
#include "analysis/findings/findings.h"
#include "analysis/timeline/sync_drain.h"

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

bool DeviceOrStreamSync(model::SyncKind kind) {
  return kind == model::SyncKind::kStream || kind == model::SyncKind::kContext;
}

}  // namespace

std::optional<report::Finding> SyncApiRule(const RuleInput& in) {
  const model::Trace& trace = in.trace;
  std::vector<SyncRow> rows;
  std::unordered_set<std::int64_t> call_correlations;
  std::int64_t count = 0;
  std::int64_t time_ns = 0;
  std::vector<util::Interval> waits;
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<util::Interval>> thread_waits;
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
    if (!DeviceOrStreamSync(s.kind) || call_correlations.contains(s.correlation))
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
  report::Finding f;
  f.id = report::finding_id::kSyncApi;
  f.title = "Host-blocking synchronization";
  f.severity = "warning";
  f.source = "trace";
  f.count = count;
  f.time_ns = time_ns;
  f.columns = {"Duration (ns)", "Start (ns)", "PID", "TID", "API Name"};
  SetWaitCost(f, in, std::move(waits));
  // The host thread whose waits cost the most refill idle (never summed over threads: two
  // threads' cycles can share their idle).
  DrainCost drain;
  if (in.idle && std::any_of(thread_waits.begin(), thread_waits.end(), [](const auto& t) {
        return t.second.size() >= 3;
      })) {
    const std::vector<util::Interval> host_caused = HostCausedIdle(*in.idle);
    for (const auto& [thread, list] : thread_waits) {
      if (DrainCost d = DrainCostOf(*in.idle, host_caused, list); d.idle_ns > drain.idle_ns)
        drain = d;
    }
  }
  if (drain.idle_ns > f.gpu_idle_caused_ns.value_or(0)) {
    f.gpu_idle_caused_ns = drain.idle_ns;
    bool refill = drain.host_ns < drain.gpu_ns;
    f.summary = fmt::format(
        "{} device or stream synchronizations held host threads for {} in total. {}: over {} "
        "cycles from one wait's end to the next (median {}) the host needs {} outside the waits "
        "and the GPU {} of work, so without the waits a cycle takes at least {}; they cost {} of "
        "GPU idle time, {} (trace): only that can come back.",
        count,
        Ms(time_ns),
        refill ? "Each empties the launch queue, and the GPU then idles between kernels while "
                 "the host refills it; without the waits the host would stay ahead"
               : "In this host-bound loop each wait delays the next cycle's launches by its "
                 "length",
        drain.cycles,
        Ms(drain.cycle_ns),
        Ms(drain.host_ns),
        Ms(drain.gpu_ns),
        Ms(std::max(drain.host_ns, drain.gpu_ns)),
        Ms(drain.idle_ns),
        refill ? "round trips and refills"
               : "at most each wait's length and the idle of its cycle");
  } else {
    f.summary =
        fmt::format("{} device or stream synchronizations held host threads for {} in total{}.",
                    count,
                    Ms(time_ns),
                    IdleCausedText(f));
  }
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
