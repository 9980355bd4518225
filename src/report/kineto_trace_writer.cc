#include "report/kineto_trace_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <limits>
#include <optional>
#include <set>

#include "report/kineto_json_text.h"
#include "report/kineto_trace_events.h"

namespace gpuperf::report {
namespace {

// Kineto's base: now floored to a quarter of an average Gregorian year (docs/formats.md,
// "Kineto", "Timestamps").
constexpr std::int64_t kBaseQuantumNs = 7'889'238'000'000'000;

// The earliest positive absolute time of any record written, floored to Kineto's quantum; 0 for
// a trace without one.
std::int64_t BaseTimeNs(const model::Trace& trace) {
  std::int64_t first = std::numeric_limits<std::int64_t>::max();
  const auto see = [&](model::TimeNs ns) {
    const std::int64_t absolute = ns + trace.metadata.time_base_ns;
    if (absolute > 0)
      first = std::min(first, absolute);
  };
  for (const auto& a : trace.activities)
    see(a.start_ns);
  for (const auto& c : trace.api_calls)
    see(c.start_ns);
  for (const auto& s : trace.syncs)
    see(s.start_ns);
  for (const auto& r : trace.ranges)
    see(r.start_ns);
  for (const auto& m : trace.memory_events)
    see(m.time_ns);
  for (const auto& o : trace.profiler_overheads)
    see(o.start_ns);
  if (first == std::numeric_limits<std::int64_t>::max())
    return 0;
  return first / kBaseQuantumNs * kBaseQuantumNs;
}

// A metadata property that is an integer, as JSON number text; nullopt when absent or not one.
std::optional<std::int64_t> IntegerProperty(const model::Trace& trace, std::string_view key) {
  const auto it = trace.metadata.properties.find(std::string(key));
  if (it == trace.metadata.properties.end())
    return std::nullopt;
  std::int64_t value = 0;
  const std::string& text = it->second;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    return std::nullopt;
  return value;
}

std::string DeviceProperties(const model::Trace& trace) {
  std::string out;
  for (const model::Device& d : trace.devices) {
    if (!out.empty())
      out += ", ";
    out += fmt::format(
        R"J({{"id": {}, "name": "{}",{} "totalGlobalMem": {}, "computeMajor": {}, "computeMinor": {}, "maxThreadsPerBlock": {}, "maxThreadsPerMultiprocessor": {}, "regsPerMultiprocessor": {}, "warpSize": {}, "sharedMemPerMultiprocessor": {}, "numSms": {}}})J",
        d.id,
        EscapeJsonUtf8(d.name),
        d.uuid.empty() ? "" : fmt::format(R"J( "uuid": "{}",)J", EscapeJsonUtf8(d.uuid)),
        d.memory_bytes,
        d.compute_major,
        d.compute_minor,
        d.max_threads_per_block,
        d.max_threads_per_sm,
        d.registers_per_sm,
        d.warp_size,
        d.shared_memory_per_sm,
        d.sm_count);
  }
  return "[" + out + "]";
}

std::string DistributedInfo(const model::TraceMetadata& m) {
  std::string out;
  const auto add = [&out](const std::string& member) { out += (out.empty() ? "" : ", ") + member; };
  if (m.rank)
    add(fmt::format(R"J("rank": {})J", *m.rank));
  if (m.world_size)
    add(fmt::format(R"J("world_size": {})J", *m.world_size));
  if (!m.distributed_backend.empty())
    add(fmt::format(R"J("backend": "{}")J", EscapeJsonUtf8(m.distributed_backend)));
  return "{" + out + "}";
}

// gpuperf's own header object: the process and whether its recording is whole (properties of a
// recording, gpuperf/trace.h).
std::string GpuperfHeader(const model::Trace& trace) {
  std::string out;
  if (!trace.processes.empty()) {
    out = fmt::format(R"J("pid": {}, "host": "{}")J",
                      trace.processes.front().pid,
                      EscapeJsonUtf8(trace.processes.front().host));
  }
  const auto complete =
      trace.metadata.properties.find(std::string(model::kRecordingCompleteProperty));
  if (complete != trace.metadata.properties.end())
    out += fmt::format(R"J({}"complete": {})J",
                       out.empty() ? "" : ", ",
                       complete->second == "true" ? "true" : "false");
  if (const auto dropped = IntegerProperty(trace, model::kDroppedRecordsProperty))
    out += fmt::format(R"J({}"dropped_records": {})J", out.empty() ? "" : ", ", *dropped);
  return "{" + out + "}";
}

std::string Header(const model::Trace& trace,
                   const KinetoTraceOptions& options,
                   std::int64_t base_ns) {
  // The versions when known, so that an importer does not read 0 as one.
  std::string versions;
  const auto add_version = [&versions](std::string_view key, std::optional<std::int64_t> value) {
    if (value && *value > 0)
      versions += fmt::format(R"J( "{}": {},)J", key, *value);
  };
  add_version("cupti_version", IntegerProperty(trace, "cupti_version"));
  add_version("cuda_runtime_version", IntegerProperty(trace, "cuda_runtime_version"));
  add_version("cuda_driver_version",
              options.driver_api_version > 0
                  ? std::optional<std::int64_t>(options.driver_api_version)
                  : IntegerProperty(trace, "cuda_driver_version"));
  return fmt::format(
      R"J({{"schemaVersion": 1, "deviceProperties": {},{} "distributedInfo": {}, "baseTimeNanoseconds": {}, "displayTimeUnit": "ms", "traceName": "{}", "gpuperf": {}, "traceEvents": [)J",
      DeviceProperties(trace),
      versions,
      DistributedInfo(trace.metadata),
      base_ns,
      EscapeJsonUtf8(options.trace_name),
      GpuperfHeader(trace));
}

// Perfetto's row names of the GPU rows: "GPU 0", "stream 7 ".
void AddStreamNames(const model::Trace& trace, KinetoEventList& events) {
  std::set<std::pair<std::int32_t, std::int64_t>> streams;
  for (const model::GpuActivity& a : trace.activities)
    streams.emplace(a.device, a.stream);
  for (const auto& [device, stream] : streams) {
    events.Add(fmt::format(
        R"J("ph": "M", "name": "process_name", "pid": {}, "tid": 0, "ts": 0, "args": {{"name": "GPU {}"}})J",
        device,
        device));
    events.Add(fmt::format(
        R"J("ph": "M", "name": "thread_name", "pid": {}, "tid": {}, "ts": 0, "args": {{"name": "stream {} "}})J",
        device,
        stream,
        stream));
  }
}

}  // namespace

std::string ToKinetoJson(const model::Trace& trace, const KinetoTraceOptions& options) {
  const std::int64_t base_ns = BaseTimeNs(trace);
  std::string out = Header(trace, options, base_ns);
  KinetoEventList events(out, base_ns);
  AddKinetoGpuEvents(trace, events);
  AddKinetoApiEvents(trace, events);
  AddKinetoSyncEvents(trace, events);
  AddKinetoRangeEvents(trace, events);
  AddKinetoHostInstants(trace, events);
  AddKinetoFlowEvents(trace, events);
  AddStreamNames(trace, events);
  out += "\n]}\n";
  return out;
}

}  // namespace gpuperf::report
