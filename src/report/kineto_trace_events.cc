#include "report/kineto_trace_events.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <unordered_map>

namespace gpuperf::report {
namespace {

using model::kNoId;

// Absolute time of a trace timestamp.
struct Clock {
  explicit Clock(const model::Trace& trace) : base_ns(trace.metadata.time_base_ns) {}
  std::int64_t operator()(model::TimeNs ns) const { return ns + base_ns; }
  std::int64_t base_ns;
};

std::string Dims(const model::Dim3& d) {
  return fmt::format("[{}, {}, {}]", d.x, d.y, d.z);
}

// Kineto's spelling of a CUPTI synchronization type (libkineto's syncTypeString), which the
// Kineto importer reads back.
std::string_view SyncName(model::SyncKind kind) {
  switch (kind) {
    case model::SyncKind::kEvent:
      return "Event Sync";
    case model::SyncKind::kStreamWaitEvent:
      return "Stream Wait Event";
    case model::SyncKind::kStream:
      return "Stream Sync";
    case model::SyncKind::kContext:
      return "Context Sync";
    case model::SyncKind::kUnknown:
      break;
  }
  return "Unknown Sync";
}

// The kind-specific args of a GPU activity, after device, context, stream and correlation.
std::string ActivityArgs(const model::Trace& trace, std::size_t index) {
  const model::GpuActivity& a = trace.activities[index];
  std::string args;
  if (a.kind == model::ActivityKind::kKernel) {
    args = fmt::format(
        R"J(, "registers per thread": {}, "shared memory": {}, "grid": {}, "block": {})J",
        a.registers_per_thread,
        a.shared_memory_bytes,
        Dims(a.grid),
        Dims(a.block));
  } else {
    args = fmt::format(R"J(, "bytes": {})J", a.bytes);
    if (a.kind == model::ActivityKind::kMemcpy) {
      const double duration_ns = static_cast<double>(std::max<std::int64_t>(a.duration_ns(), 1));
      args += fmt::format(R"J(, "memory bandwidth (GB/s)": {:.6g})J",
                          static_cast<double>(a.bytes) / duration_ns);
    }
  }
  if (a.graph_id != kNoId) {
    args += fmt::format(R"J(, "graph id": {})J", a.graph_id);
    if (const auto node = trace.graph_node_ids.Find(index))
      args += fmt::format(R"J(, "graph node id": {})J", *node);
  }
  return args;
}

}  // namespace

void AddKinetoGpuEvents(const model::Trace& trace, KinetoEventList& events) {
  const Clock clock(trace);
  for (std::size_t i = 0; i < trace.activities.size(); ++i) {
    const model::GpuActivity& a = trace.activities[i];
    events.Add(fmt::format(
        R"J("ph": "X", "cat": "{}", "name": "{}", "pid": {}, "tid": {}, "ts": {}, "dur": {}, "args": {{"device": {}, "context": {}, "stream": {}, "correlation": {}{}}})J",
        KinetoCategory(a.kind),
        EscapeJsonUtf8(trace.Name(a.name)),
        a.device,
        a.stream,
        events.Ts(clock(a.start_ns)),
        KinetoEventList::Dur(a.duration_ns()),
        a.device,
        a.context,
        a.stream,
        a.correlation,
        ActivityArgs(trace, i)));
  }
}

void AddKinetoApiEvents(const model::Trace& trace, KinetoEventList& events) {
  const Clock clock(trace);
  for (const model::ApiCall& c : trace.api_calls) {
    events.Add(fmt::format(
        R"J("ph": "X", "cat": "{}", "name": "{}", "pid": {}, "tid": {}, "ts": {}, "dur": {}, "args": {{"cbid": {}, "correlation": {}}})J",
        c.kind == model::ApiKind::kDriver ? "cuda_driver" : "cuda_runtime",
        EscapeJsonUtf8(trace.Name(c.name)),
        c.pid,
        c.tid,
        events.Ts(clock(c.start_ns)),
        KinetoEventList::Dur(c.duration_ns()),
        c.cbid,
        c.correlation));
  }
}

void AddKinetoSyncEvents(const model::Trace& trace, KinetoEventList& events) {
  const Clock clock(trace);
  for (const model::SyncEvent& s : trace.syncs) {
    events.Add(fmt::format(
        R"J("ph": "X", "cat": "cuda_sync", "name": "{}", "pid": {}, "tid": {}, "ts": {}, "dur": {}, "args": {{"cuda_sync_kind": "{}", "device": {}, "context": {}, "stream": {}, "correlation": {}}})J",
        SyncName(s.kind),
        std::max(s.device, 0),
        s.stream,
        events.Ts(clock(s.start_ns)),
        KinetoEventList::Dur(s.end_ns - s.start_ns),
        SyncName(s.kind),
        s.device,
        s.context,
        s.stream,
        s.correlation));
  }
}

void AddKinetoRangeEvents(const model::Trace& trace, KinetoEventList& events) {
  const Clock clock(trace);
  for (const model::Range& r : trace.ranges) {
    const bool on_gpu = r.kind == model::RangeKind::kGpuUserAnnotation;
    std::string args;
    if (r.kind == model::RangeKind::kNvtx)
      args = fmt::format(R"J(, "args": {{"nvtx domain": "{}"}})J",
                         EscapeJsonUtf8(trace.Name(r.domain)));
    else if (on_gpu)
      args = fmt::format(R"J(, "args": {{"device": {}, "stream": {}}})J", r.device, r.stream);
    events.Add(fmt::format(
        R"J("ph": "X", "cat": "{}", "name": "{}", "pid": {}, "tid": {}, "ts": {}, "dur": {}{})J",
        on_gpu ? "gpu_user_annotation" : "user_annotation",
        EscapeJsonUtf8(trace.Name(r.name)),
        on_gpu ? std::int64_t{r.device} : r.pid,
        on_gpu ? r.stream : r.tid,
        events.Ts(clock(r.start_ns)),
        KinetoEventList::Dur(r.end_ns - r.start_ns),
        args));
  }
}

void AddKinetoHostInstants(const model::Trace& trace, KinetoEventList& events) {
  const Clock clock(trace);
  for (std::size_t i = 0; i < trace.memory_events.size(); ++i) {
    const model::MemoryEvent& m = trace.memory_events[i];
    std::string args =
        fmt::format(R"J("Bytes": {})J", m.op == model::MemoryOp::kFree ? -m.bytes : m.bytes);
    if (m.total_allocated != kNoId)
      args += fmt::format(R"J(, "Total Allocated": {})J", m.total_allocated);
    if (const auto address = trace.memory_addresses.Find(i))
      args += fmt::format(R"J(, "Addr": {})J", *address);
    events.Add(fmt::format(
        R"J("ph": "i", "s": "t", "cat": "cpu_instant_event", "name": "[memory]", "pid": {}, "tid": 0, "ts": {}, "args": {{{}, "Device Id": {}, "Device Type": {}}})J",
        m.pid,
        events.Ts(clock(m.time_ns)),
        args,
        m.device,
        m.device < 0 ? 0 : 1));  // Kineto's device types: 0 CPU (host memory), 1 CUDA
  }
  for (const model::ProfilerOverhead& o : trace.profiler_overheads) {
    events.Add(fmt::format(
        R"J("ph": "X", "cat": "overhead", "name": "{}", "pid": -1, "tid": 0, "ts": {}, "dur": {})J",
        EscapeJsonUtf8(trace.Name(o.name)),
        events.Ts(clock(o.start_ns)),
        KinetoEventList::Dur(o.end_ns - o.start_ns)));
  }
}

void AddKinetoFlowEvents(const model::Trace& trace, KinetoEventList& events) {
  const Clock clock(trace);
  std::unordered_map<std::int64_t, const model::ApiCall*> launches;  // correlation -> call
  for (const model::ApiCall& c : trace.api_calls) {
    if (c.correlation == kNoId)
      continue;
    auto [it, added] = launches.try_emplace(c.correlation, &c);
    if (!added && c.kind == model::ApiKind::kRuntime)
      it->second = &c;
  }
  std::set<std::int64_t> done;
  for (const model::GpuActivity& a : trace.activities) {
    const auto launch = launches.find(a.correlation);
    if (launch == launches.end() || !done.insert(a.correlation).second)
      continue;
    const model::ApiCall& call = *launch->second;
    events.Add(fmt::format(
        R"J("ph": "s", "id": {}, "pid": {}, "tid": {}, "ts": {}, "cat": "ac2g", "name": "ac2g")J",
        a.correlation,
        call.pid,
        call.tid,
        events.Ts(clock(call.start_ns))));
    events.Add(fmt::format(
        R"J("ph": "f", "id": {}, "pid": {}, "tid": {}, "ts": {}, "cat": "ac2g", "name": "ac2g", "bp": "e")J",
        a.correlation,
        a.device,
        a.stream,
        events.Ts(clock(a.start_ns))));
  }
}

}  // namespace gpuperf::report
