// nsys cuda-sync-memcpy, cuda-async-memcpy and cuda-sync-memset, joined on correlation.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <tuple>

#include "analysis/core/names.h"
#include "analysis/findings/findings.h"
#include "util/units_format.h"

namespace gpuperf::analysis {
namespace {

constexpr std::int64_t kSmallCopyBytes = 64000;  // nsys: small HtoD copies do not block long

// A device-to-host copy: the host waits for data it then reads (IdleAttribution::CausedBy).
bool WaitsForData(const model::GpuActivity& a) {
  return a.kind == model::ActivityKind::kMemcpy && a.copy_kind == model::CopyKind::kDtoH;
}

struct MatchedRow {
  const model::GpuActivity* activity;
  std::string_view api_name;  // the trace's interned name
  std::size_t call = 0;       // index into trace.api_calls
};

// nsys order: longest first; ties by start, then API name (then ids, for a total order).
bool NsysOrder(const MatchedRow& x, const MatchedRow& y) {
  const model::GpuActivity& a = *x.activity;
  const model::GpuActivity& b = *y.activity;
  return std::make_tuple(-a.duration_ns(), a.start_ns, x.api_name, a.pid, a.device, a.stream) <
         std::make_tuple(-b.duration_ns(), b.start_ns, y.api_name, b.pid, b.device, b.stream);
}

// The rows' order: the calls that held the host longest first (what the finding is sized by; a
// copy of a few bytes can block for milliseconds), then nsys's.
struct BlockedOrder {
  const model::Trace& trace;
  bool operator()(const MatchedRow& x, const MatchedRow& y) const {
    std::int64_t bx = trace.api_calls[x.call].duration_ns();
    std::int64_t by = trace.api_calls[y.call].duration_ns();
    if (bx != by)
      return bx > by;
    return NsysOrder(x, y);
  }
};

struct Matches {
  std::vector<MatchedRow> rows;
  std::int64_t count = 0;  // distinct activities
  std::int64_t time_ns = 0;
  std::vector<util::Interval> waits;  // the primary call of each activity: the host blocked
  // Of those, the device-to-host copies: the host waits for data it then reads (CausedBy).
  std::vector<util::Interval> data_waits;
  // Matches whose primary call (or, without one, the activity) starts before the steady-state
  // window: counted here, not above (all of them are above when none is inside).
  LeftOut left_out;
  bool all_before = false;
};

// Every (activity, API record) where the activity passes `keep` and the record's name `api`, in
// the steady-state window when `windowed`.
Matches MatchFrom(const RuleInput& in,
                  model::ActivityKind kind,
                  const std::function<bool(const model::GpuActivity&)>& keep,
                  bool (*api)(std::string_view),
                  bool windowed) {
  Matches m;
  for (const model::GpuActivity& a : in.trace.activities) {
    if (a.kind != kind || !keep(a))
      continue;
    if (windowed) {
      std::int64_t call = in.index.PrimaryCall(a.correlation, a.pid);
      const model::ApiCall* c =
          call >= 0 ? &in.trace.api_calls[static_cast<std::size_t>(call)] : nullptr;
      if (BeforeWindow(in, c ? c->start_ns : a.start_ns)) {
        if (c && api(in.trace.Name(c->name))) {
          ++m.left_out.count;
          m.left_out.blocked_ns += c->duration_ns();
        }
        continue;
      }
    }
    bool any = false;
    in.index.ForEachCall(a.correlation, a.pid, [&](std::size_t call) {
      std::string_view name = in.trace.Name(in.trace.api_calls[call].name);
      if (api(name)) {
        m.rows.push_back({&a, name, call});
        any = true;
      }
    });
    if (any) {
      ++m.count;
      m.time_ns += a.duration_ns();
      if (std::int64_t call = in.index.PrimaryCall(a.correlation, a.pid); call >= 0) {
        const model::ApiCall& c = in.trace.api_calls[static_cast<std::size_t>(call)];
        (WaitsForData(a) ? m.data_waits : m.waits).push_back({c.start_ns, c.end_ns});
      }
    }
  }
  return m;
}

// MatchFrom in the window; when nothing matches there but some did before it, all of them.
Matches Match(const RuleInput& in,
              model::ActivityKind kind,
              const std::function<bool(const model::GpuActivity&)>& keep,
              bool (*api)(std::string_view)) {
  Matches m = MatchFrom(in, kind, keep, api, true);
  if (m.count == 0 && m.left_out.count > 0) {
    LeftOut before = m.left_out;
    m = MatchFrom(in, kind, keep, api, false);
    m.left_out = before;
    m.all_before = true;
  }
  return m;
}

report::FindingRow Row(const RuleInput& in, const MatchedRow& r, bool memset) {
  const model::GpuActivity& a = *r.activity;
  report::FindingRow row;
  row.cells = {std::to_string(a.duration_ns()), std::to_string(a.start_ns)};
  row.cells.emplace_back(model::ToString(a.src_kind));
  if (!memset)
    row.cells.emplace_back(model::ToString(a.dst_kind));
  row.cells.push_back(std::to_string(a.bytes));
  for (std::int64_t id : {a.pid, std::int64_t{a.device}, a.context, a.stream}) {
    row.cells.push_back(IdCell(id));
  }
  row.cells.emplace_back(r.api_name);
  const model::ApiCall& call = in.trace.api_calls[r.call];
  row.cells.push_back(std::to_string(call.duration_ns()));
  row.cells.push_back(CausedCell(in, call.start_ns, call.end_ns, WaitsForData(a)));
  return row;
}

report::Finding Make(const RuleInput& in, Matches& m, bool memset) {
  report::Finding f;
  f.source = "trace";
  f.severity = report::Severity::kWarning;
  f.count = m.count;
  f.time_ns = m.time_ns;
  f.columns = {{"Duration (ns)", report::ColumnUnit::kDurationNs},
               {"Start (ns)", report::ColumnUnit::kStartNs}};
  if (memset) {
    f.columns.push_back({"Memory Kind"});
  } else {
    f.columns.insert(f.columns.end(), {{"Src Kind"}, {"Dst Kind"}});
  }
  f.columns.insert(f.columns.end(),
                   {{"Bytes", report::ColumnUnit::kBytes},
                    {"PID"},
                    {"Device ID"},
                    {"Context ID"},
                    {"Stream ID"},
                    {"API Name"},
                    {"Host blocked (ns)", report::ColumnUnit::kDurationNs}});
  SetWaitCost(f, in, m.waits, m.data_waits);
  const BlockedOrder order{in.trace};
  if (!m.rows.empty())
    f.subject = StripVersionSuffix(std::min_element(m.rows.begin(), m.rows.end(), order)->api_name);
  SetTopRows(
      f,
      m.rows,
      order,
      [&](const MatchedRow& r) { return Row(in, r, memset); },
      in.options.finding_rows);
  return f;
}

}  // namespace

std::optional<report::Finding> SyncMemcpyRule(const RuleInput& in) {
  auto blocking = [](const model::GpuActivity& a) {
    // A copy whose size the trace does not record (ROCm Kineto: no bytes) is not known to be
    // small: counted (hta amd_trace: two hipMemcpyWithStream calls blocking 95.8 us).
    bool small_htod =
        a.bytes > 0 && a.bytes <= kSmallCopyBytes && a.copy_kind == model::CopyKind::kHtoD;
    // nsys also skips srcDeviceId == dstDeviceId; the model has no device ids, so a DtoD copy
    // stands for it (a device-to-device cudaMemcpy does not block the host).
    return !small_htod && a.copy_kind != model::CopyKind::kDtoD;
  };
  Matches m = Match(in, model::ActivityKind::kMemcpy, blocking, IsSyncMemcpyApi);
  if (m.count == 0)
    return std::nullopt;
  report::Finding f = Make(in, m, false);
  f.id = report::finding_id::kSyncMemcpy;
  f.title = "Synchronous memcpy";
  f.summary = fmt::format(
      "{} synchronous copies ({} of copy time) were issued by calls that block the host thread "
      "until the copy completes ({} blocked){}; host-to-device copies of 64 KB or less are not "
      "counted.",
      m.count,
      Ms(m.time_ns),
      Ms(f.host_blocked_ns.value_or(0)),
      IdleCausedText(f));
  f.summary += BeforeWindowText(m.left_out, m.all_before);
  f.advice =
      "Use cudaMemcpyAsync with pinned host memory where the host does not need the data at "
      "once. Only the GPU idle the copies cause can come back.";
  return f;
}

// The blocking synchronization right after a copy call on its thread, inside the operator that
// holds both (PyTorch's aten::copy_ to the device waits for its copy): pinning with
// .to(non_blocking=True) removes it with the copy, so the copies' own waits alone understate the
// change (pytorch-kineto 2021-06: 1.19 ms alone, 16.6 ms with the syncs). The operators' names,
// for the sentence. One search per synchronization call and per host op: no index of all ops.
struct SyncsBeside {
  std::vector<util::Interval> waits;
  std::vector<std::string> operators;
};

// A sync this soon after the copy call's return is that copy operator's own wait.
constexpr std::int64_t kSyncAfterCopyNs = 100'000;

SyncsBeside SyncsAfterCopies(const RuleInput& in, const std::vector<std::size_t>& copy_calls) {
  struct Pair {
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    model::TimeNs copy_start = 0;
    model::TimeNs copy_end = 0;
    const model::ApiCall* sync = nullptr;
    model::TimeNs op_length = std::numeric_limits<model::TimeNs>::max();
    const model::HostOp* op = nullptr;
  };
  std::vector<Pair> pairs;
  for (std::size_t i : copy_calls) {
    const model::ApiCall& c = in.trace.api_calls[i];
    pairs.push_back({c.pid, c.tid, c.start_ns, c.end_ns});
  }
  auto key = [](const Pair& p) { return std::tie(p.pid, p.tid, p.copy_start); };
  std::sort(
      pairs.begin(), pairs.end(), [&](const Pair& a, const Pair& b) { return key(a) < key(b); });
  // The copies of a thread from `start` on.
  auto first_from = [&](std::int64_t pid, std::int64_t tid, model::TimeNs start) {
    return std::lower_bound(
        pairs.begin(), pairs.end(), std::tie(pid, tid, start), [&](const Pair& p, const auto& k) {
          return key(p) < k;
        });
  };
  CachedNamePredicate is_sync(in.trace, IsBlockingSyncApi);
  for (const model::ApiCall& call : in.trace.api_calls) {
    if (!is_sync(call.name) || BeforeWindow(in, call.start_ns))
      continue;
    auto it = first_from(call.pid, call.tid, call.start_ns);
    if (it == pairs.begin())
      continue;
    Pair& p = *(it - 1);
    if (p.pid == call.pid && p.tid == call.tid && !p.sync && call.start_ns >= p.copy_end &&
        call.start_ns - p.copy_end <= kSyncAfterCopyNs)
      p.sync = &call;
  }
  // The innermost host op holding a copy and its sync: only the paired copies are searched, and
  // only ops that overlap their span and are at least as long as the shortest pair (an op shorter
  // than a copy and its sync holds neither: most operators, owlv2's 3.7 M instructions).
  std::erase_if(pairs, [](const Pair& p) { return p.sync == nullptr; });
  model::TimeNs from = std::numeric_limits<model::TimeNs>::max();
  model::TimeNs to = std::numeric_limits<model::TimeNs>::min();
  model::TimeNs shortest = std::numeric_limits<model::TimeNs>::max();
  for (const Pair& p : pairs) {
    from = std::min(from, p.copy_start);
    to = std::max(to, p.sync->end_ns);
    shortest = std::min(shortest, p.sync->end_ns - p.copy_start);
  }
  for (const model::HostOp& op : in.trace.host_ops) {
    if (op.end_ns < from || op.start_ns > to || op.end_ns - op.start_ns < shortest)
      continue;
    for (auto it = first_from(op.pid, op.tid, op.start_ns);
         it != pairs.end() && it->pid == op.pid && it->tid == op.tid && it->copy_start < op.end_ns;
         ++it) {
      if (it->sync->end_ns <= op.end_ns && op.end_ns - op.start_ns < it->op_length) {
        it->op_length = op.end_ns - op.start_ns;
        it->op = &op;
      }
    }
  }
  std::set<std::string> names;
  SyncsBeside out;
  for (const Pair& p : pairs) {
    if (!p.sync || !p.op)
      continue;
    out.waits.push_back({p.sync->start_ns, p.sync->end_ns});
    names.insert(std::string(in.trace.Name(p.op->name)));
  }
  out.operators.assign(names.begin(), names.end());
  std::sort(out.waits.begin(),
            out.waits.end(),
            [](const util::Interval& a, const util::Interval& b) { return a.start < b.start; });
  return out;
}

std::optional<report::Finding> PageableAsyncMemcpyRule(const RuleInput& in) {
  auto pageable = [](const model::GpuActivity& a) {
    return a.src_kind == model::MemoryKind::kPageable || a.dst_kind == model::MemoryKind::kPageable;
  };
  Matches m = Match(in, model::ActivityKind::kMemcpy, pageable, IsAsyncMemcpyApi);
  if (m.count == 0)
    return std::nullopt;
  report::Finding f = Make(in, m, false);
  f.id = report::finding_id::kPageableAsyncMemcpy;
  f.title = "Async memcpy with pageable memory";
  // A copy to pageable memory returns only once it is done, and it runs only after the work
  // queued before it on its stream: the host waits for that work, whatever the staging costs
  // (hta trace_diff/control: 60 copies of 8 B to 7.8 kB blocked the host 75.7 ms for 107 us of
  // copying).
  const std::size_t to_host = m.data_waits.size();
  const std::size_t calls = to_host + m.waits.size();
  std::string why =
      to_host == calls
          ? "copy to pageable host memory, so each call returns only once its copy is done, and "
            "the copy runs only after the work queued before it on its stream"
      : to_host > 0
          ? fmt::format(
                "have a pageable host side, which makes the runtime stage them "
                "synchronously ({} of the calls copy to the host: those also wait for the "
                "work queued before them on their stream)",
                to_host)
          : "have a pageable host side, which makes the runtime stage them synchronously";
  f.summary = fmt::format(
      "{} asynchronous copies {}: an implicit synchronization that blocked the host for {}{} (the "
      "copies themselves took {} on the GPU).",
      m.count,
      why,
      Ms(f.host_blocked_ns.value_or(0)),
      IdleCausedText(f),
      Ms(m.time_ns));
  if (in.idle && f.gpu_idle_caused_ns) {
    // Only copies toward the device: after a device-to-host copy the host reads the data, and its
    // sync waits for all the work queued before it (owlv2: 25 such syncs, 359 ms, wait for the
    // forward pass), which non_blocking does not remove.
    std::vector<std::size_t> copy_calls;
    for (const MatchedRow& row : m.rows) {
      if (!WaitsForData(*row.activity))
        copy_calls.push_back(row.call);
    }
    SyncsBeside syncs = SyncsAfterCopies(in, copy_calls);
    if (!syncs.waits.empty()) {
      const std::size_t count = syncs.waits.size();
      std::vector<util::Interval> both = m.waits;
      both.insert(both.end(), syncs.waits.begin(), syncs.waits.end());
      const std::int64_t together = in.idle->CausedBy(std::move(both), m.data_waits);
      if (together > *f.gpu_idle_caused_ns) {
        f.advice_gpu_idle_ns = together;  // the Bound line quotes it with its speedup
        std::string names;
        for (const std::string& name : syncs.operators)
          names += (names.empty() ? "" : ", ") + name;
        f.summary += fmt::format(
            " {} synchronization{} inside the same operators ({}) wait{} for these copies too: "
            "pinning with .to(non_blocking=True) removes {} as well, which gives back at most "
            "{}, {} of the steady-state window (run forward, trace).",
            count,
            count == 1 ? "" : "s",
            names,
            count == 1 ? "s" : "",
            count == 1 ? "that sync" : "those syncs",
            Ms(together),
            util::FormatPercent(
                100.0 * static_cast<double>(together) /
                static_cast<double>(std::max<std::int64_t>(1, in.idle->steady_window_ns))));
      }
    }
  }
  f.summary += BeforeWindowText(m.left_out, m.all_before);
  f.advice =
      "Pin the host buffers (cudaHostAlloc or cudaHostRegister, tensor.pin_memory() and "
      ".to(non_blocking=True)) so the copies stop blocking the host; a device-to-host copy the "
      "host reads at once still waits for the GPU work before it.";
  return f;
}

std::optional<report::Finding> SyncMemsetRule(const RuleInput& in) {
  auto host_visible = [](const model::GpuActivity& a) {
    return a.src_kind == model::MemoryKind::kPinned || a.src_kind == model::MemoryKind::kManaged;
  };
  Matches m = Match(in, model::ActivityKind::kMemset, host_visible, IsSyncMemsetApi);
  if (m.count == 0)
    return std::nullopt;
  report::Finding f = Make(in, m, true);
  f.id = report::finding_id::kSyncMemset;
  f.title = "Synchronous memset";
  f.summary =
      fmt::format("{} synchronous memsets ({}) on pinned or managed memory block the host thread.",
                  m.count,
                  Ms(m.time_ns));
  f.summary += BeforeWindowText(m.left_out, m.all_before);
  f.advice = "Use cudaMemsetAsync.";
  return f;
}

}  // namespace gpuperf::analysis
