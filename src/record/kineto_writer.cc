#include "record/kineto_writer.h"

#include <fmt/format.h>

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <set>
#include <unordered_map>

#include "io/spool/spool_model.h"
#include "model/measured_ceilings.h"
#include "util/durable_file.h"
#include "util/utf8.h"

namespace gpuperf::record {
namespace {

using spool::Event;
using spool::EventKind;

// Kineto's base: now floored to a quarter of an average Gregorian year (docs/formats.md,
// "Kineto", "Timestamps").
constexpr std::int64_t kBaseQuantumNs = 7'889'238'000'000'000;

// `text` as the inside of a JSON string: valid UTF-8 (an invalid byte becomes U+FFFD, so that
// every JSON reader takes the document), quotes, backslashes and control characters escaped.
std::string Escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      const util::CodePoint point = util::DecodeUtf8(text.substr(i));
      if (point.length == 0) {
        out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER
      } else {
        out.append(text.substr(i, point.length));
        i += point.length - 1;
      }
      continue;
    }
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned char>(c));
        } else {
          out += c;
        }
    }
  }
  return out;
}

class JsonOut {
 public:
  JsonOut(std::string& out, std::int64_t base_ns) : out_(out), base_ns_(base_ns) {}
  // "ts": relative µs with three decimals; negative clamped to 0 as Kineto does.
  std::string Ts(std::int64_t ns) const {
    const std::int64_t relative = std::max<std::int64_t>(ns - base_ns_, 0);
    return fmt::format("{}.{:03}", relative / 1000, relative % 1000);
  }
  std::string Dur(std::int64_t ns) const {
    ns = std::max<std::int64_t>(ns, 0);
    return fmt::format("{}.{:03}", ns / 1000, ns % 1000);
  }
  void Event(std::string_view body) {
    out_ += first_ ? "\n  {" : ",\n  {";
    out_ += body;
    out_ += '}';
    first_ = false;
  }

 private:
  std::string& out_;
  std::int64_t base_ns_;
  bool first_ = true;
};

std::string Dims(const std::int32_t* v) {
  return fmt::format("[{}, {}, {}]", v[0], v[1], v[2]);
}

void WriteGpuEvent(const io::SpoolContents& p, const Event& e, JsonOut& json) {
  const std::string head = fmt::format(R"J("ph": "X", "pid": {}, "tid": {}, "ts": {}, "dur": {})J",
                                       e.device,
                                       e.stream,
                                       json.Ts(e.start_ns),
                                       json.Dur(e.end_ns - e.start_ns));
  const std::string common =
      fmt::format(R"J("device": {}, "context": {}, "stream": {})J", e.device, e.context, e.stream);
  if (e.kind == EventKind::kKernel) {
    json.Event(fmt::format(
        R"J("cat": "kernel", "name": "{}", {}, "args": {{{}, "correlation": {}, "registers per thread": {}, "shared memory": {}, "grid": {}, "block": {}{}}})J",
        Escape(spool::Demangle(p.String(e.name))),
        head,
        common,
        e.correlation,
        e.registers,
        e.shared_bytes,
        Dims(e.grid),
        Dims(e.block),
        e.graph_id >= 0
            ? fmt::format(R"J(, "graph id": {}, "graph node id": {})J", e.graph_id, e.correlation2)
            : ""));
  } else if (e.kind == EventKind::kMemcpy) {
    const double duration_ns =
        static_cast<double>(std::max<std::int64_t>(e.end_ns - e.start_ns, 1));
    json.Event(fmt::format(
        R"J("cat": "gpu_memcpy", "name": "{}", {}, "args": {{{}, "correlation": {}, "bytes": {}, "memory bandwidth (GB/s)": {:.6g}}})J",
        io::MemcpyName(e.a, e.b, e.c),
        head,
        common,
        io::MemcpyCorrelation(e),
        e.bytes,
        static_cast<double>(e.bytes) / duration_ns));
  } else {
    json.Event(fmt::format(
        R"J("cat": "gpu_memset", "name": "{}", {}, "args": {{{}, "correlation": {}, "bytes": {}}})J",
        io::MemsetName(e.b),
        head,
        common,
        e.correlation,
        e.bytes));
  }
}

void WriteApiEvent(const io::SpoolContents& p, const Event& e, JsonOut& json) {
  // CUPTI names carry a version suffix ("cudaLaunchKernel_v7000"); Kineto writes the bare name.
  const std::string_view name = io::ApiName(p.String(e.name));
  json.Event(fmt::format(
      R"J("ph": "X", "cat": "{}", "name": "{}", "pid": {}, "tid": {}, "ts": {}, "dur": {}, "args": {{"cbid": {}, "correlation": {}}})J",
      e.kind == EventKind::kDriverApi ? "cuda_driver" : "cuda_runtime",
      Escape(name),
      e.pid >= 0 ? e.pid : p.header.pid,
      e.tid,
      json.Ts(e.start_ns),
      json.Dur(e.end_ns - e.start_ns),
      e.code,
      e.correlation));
}

// The launch -> GPU work arrows Perfetto and chrome://tracing draw: a flow start ("s") on the API
// call and its end ("f", bound to the enclosing slice) on the first kernel, copy or memset with
// its correlation id, as Kineto writes them ("ac2g").
class Flows {
 public:
  void AddLaunch(const Event& e, std::int64_t pid) {
    // A runtime call and the driver call inside it have different correlation ids; should one
    // id appear twice, the runtime call (the one the program made) wins.
    auto [it, added] = launches_.try_emplace(e.correlation, Launch{pid, e.tid, e.start_ns});
    if (!added && e.kind == EventKind::kRuntimeApi)
      it->second = Launch{pid, e.tid, e.start_ns};
  }

  void Write(const std::vector<std::pair<std::int64_t, const Event*>>& gpu, JsonOut& json) const {
    std::set<std::int64_t> done;
    for (const auto& [correlation, e] : gpu) {
      const auto launch = launches_.find(correlation);
      if (launch == launches_.end() || !done.insert(correlation).second)
        continue;
      json.Event(fmt::format(
          R"J("ph": "s", "id": {}, "pid": {}, "tid": {}, "ts": {}, "cat": "ac2g", "name": "ac2g")J",
          correlation,
          launch->second.pid,
          launch->second.tid,
          json.Ts(launch->second.start_ns)));
      json.Event(fmt::format(
          R"J("ph": "f", "id": {}, "pid": {}, "tid": {}, "ts": {}, "cat": "ac2g", "name": "ac2g", "bp": "e")J",
          correlation,
          e->device,
          e->stream,
          json.Ts(e->start_ns)));
    }
  }

 private:
  struct Launch {
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    std::int64_t start_ns = 0;
  };
  std::unordered_map<std::int64_t, Launch> launches_;
};

void WriteSyncEvent(const Event& e, std::int32_t device, JsonOut& json) {
  json.Event(fmt::format(
      R"J("ph": "X", "cat": "cuda_sync", "name": "{}", "pid": {}, "tid": {}, "ts": {}, "dur": {}, "args": {{"cuda_sync_kind": "{}", "device": {}, "context": {}, "stream": {}, "correlation": {}}})J",
      io::SyncName(e.a),
      device,
      e.stream,
      json.Ts(e.start_ns),
      json.Dur(e.end_ns - e.start_ns),
      io::SyncName(e.a),
      device,
      e.context,
      e.stream,
      e.correlation));
}

void WriteHostEvents(const io::SpoolContents& p, JsonOut& json) {
  for (const io::NvtxRange& range : io::PairNvtxRanges(p).ranges) {
    const Event& s = *range.start;
    json.Event(fmt::format(
        R"J("ph": "X", "cat": "user_annotation", "name": "{}", "pid": {}, "tid": {}, "ts": {}, "dur": {}, "args": {{"nvtx domain": "{}"}})J",
        Escape(p.String(s.name)),
        s.pid >= 0 ? s.pid : p.header.pid,
        s.tid,
        json.Ts(s.start_ns),
        json.Dur(range.end->start_ns - s.start_ns),
        Escape(p.String(s.domain))));
  }
  std::unordered_map<std::int32_t, std::int64_t> allocated;  // per device, for "Total Allocated"
  for (const Event& e : p.events) {
    if (e.kind == EventKind::kMemory) {
      const std::int64_t signed_bytes = e.a == spool::kMemoryRelease ? -e.bytes : e.bytes;
      const std::int64_t total = allocated[e.device] += signed_bytes;
      json.Event(fmt::format(
          R"J("ph": "i", "s": "t", "cat": "cpu_instant_event", "name": "[memory]", "pid": {}, "tid": 0, "ts": {}, "args": {{"Bytes": {}, "Total Allocated": {}, "Addr": {}, "Device Id": {}, "Device Type": {}}})J",
          p.header.pid,
          json.Ts(e.start_ns),
          signed_bytes,
          total,
          static_cast<std::uint64_t>(e.correlation2),
          e.device,
          e.device < 0 ? 0 : 1));  // Kineto's device types: 0 CPU (host memory), 1 CUDA
    } else if (e.kind == EventKind::kOverhead) {
      json.Event(fmt::format(
          R"J("ph": "X", "cat": "overhead", "name": "{}", "pid": -1, "tid": 0, "ts": {}, "dur": {})J",
          Escape(p.String(e.name)),
          json.Ts(e.start_ns),
          json.Dur(e.end_ns - e.start_ns)));
    }
  }
}

// ` "uuid": "GPU-...",` when CUPTI gave the device's UUID (all zero: it did not).
std::string Uuid(const spool::DeviceInfo& d) {
  if (std::all_of(std::begin(d.uuid), std::end(d.uuid), [](std::uint8_t b) { return b == 0; }))
    return "";
  return fmt::format(R"J( "uuid": "{}",)J", model::FormatGpuUuid(d.uuid));
}

std::string DeviceProperties(const io::SpoolContents& p) {
  std::string out;
  for (const spool::DeviceInfo& d : p.devices) {
    if (!out.empty())
      out += ", ";
    out += fmt::format(
        R"J({{"id": {}, "name": "{}",{} "totalGlobalMem": {}, "computeMajor": {}, "computeMinor": {}, "maxThreadsPerBlock": {}, "maxThreadsPerMultiprocessor": {}, "regsPerMultiprocessor": {}, "warpSize": {}, "sharedMemPerMultiprocessor": {}, "numSms": {}}})J",
        d.id,
        Escape(d.name),
        Uuid(d),
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

// `text` as one gzip member (level 6), in memory, so that the file is written like every other
// output: new, every write, the fsync and the close checked.
Result<std::string> GzipText(std::string_view text) {
  if (text.size() > std::numeric_limits<uInt>::max())
    return Error{"gzip: the trace is larger than 4 GiB; write it without --gzip"};
  z_stream stream{};
  if (deflateInit2(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return Error{"gzip: deflateInit2 failed"};
  std::string out(deflateBound(&stream, static_cast<uLong>(text.size())), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  stream.avail_in = static_cast<uInt>(text.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  const int result = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  if (result != Z_STREAM_END)
    return Error{"gzip: deflate failed"};
  return out;
}

}  // namespace

std::string ToKinetoJson(const io::SpoolContents& p, const KinetoWriteOptions& options) {
  std::int64_t first_ns = std::numeric_limits<std::int64_t>::max();
  for (const Event& e : p.events) {
    if (e.start_ns > 0)
      first_ns = std::min(first_ns, e.start_ns);
  }
  if (first_ns == std::numeric_limits<std::int64_t>::max())
    first_ns = p.header.start_time_ns;
  const std::int64_t base_ns = first_ns / kBaseQuantumNs * kBaseQuantumNs;
  std::string out = fmt::format(
      R"J({{"schemaVersion": 1, "deviceProperties": {}, "cupti_version": {},{} "cuda_driver_version": {}, "distributedInfo": {{{}}}, "baseTimeNanoseconds": {}, "displayTimeUnit": "ms", "traceName": "{}", "gpuperf": {{"pid": {}, "host": "{}", "complete": {}, "dropped_records": {}}}, "traceEvents": [)J",
      DeviceProperties(p),
      p.header.cupti_version,
      p.has_footer && p.footer.cuda_runtime_version > 0
          ? fmt::format(R"J( "cuda_runtime_version": {},)J", p.footer.cuda_runtime_version)
          : "",
      options.driver_api_version,
      p.header.rank >= 0 ? fmt::format(R"J("rank": {})J", p.header.rank) : "",
      base_ns,
      Escape(options.trace_name),
      p.header.pid,
      Escape(p.header.host),
      p.has_footer && p.truncated_bytes == 0 ? "true" : "false",
      p.has_footer ? p.footer.dropped_records : 0);
  JsonOut json(out, base_ns);
  std::unordered_map<std::int64_t, std::int32_t> context_device;
  std::set<std::pair<std::int32_t, std::int64_t>> streams;
  Flows flows;
  std::vector<std::pair<std::int64_t, const Event*>> gpu;  // correlation, GPU activity
  for (const Event& e : p.events) {
    if (e.context >= 0 && e.device >= 0)
      context_device.emplace(e.context, e.device);
  }
  for (const Event& e : p.events) {
    switch (e.kind) {
      case EventKind::kKernel:
      case EventKind::kMemcpy:
      case EventKind::kMemset:
        streams.emplace(e.device, e.stream);
        WriteGpuEvent(p, e, json);
        gpu.emplace_back(e.kind == EventKind::kMemcpy ? io::MemcpyCorrelation(e) : e.correlation,
                         &e);
        break;
      case EventKind::kRuntimeApi:
      case EventKind::kDriverApi:
        WriteApiEvent(p, e, json);
        flows.AddLaunch(e, e.pid >= 0 ? e.pid : p.header.pid);
        break;
      case EventKind::kSync: {
        const auto device = context_device.find(e.context);
        WriteSyncEvent(e, device == context_device.end() ? 0 : device->second, json);
        break;
      }
      default:
        break;
    }
  }
  WriteHostEvents(p, json);
  flows.Write(gpu, json);
  for (const auto& [device, stream] : streams) {
    json.Event(fmt::format(
        R"J("ph": "M", "name": "process_name", "pid": {}, "tid": 0, "ts": 0, "args": {{"name": "GPU {}"}})J",
        device,
        device));
    json.Event(fmt::format(
        R"J("ph": "M", "name": "thread_name", "pid": {}, "tid": {}, "ts": 0, "args": {{"name": "stream {} "}})J",
        device,
        stream,
        stream));
  }
  out += "\n]}\n";
  return out;
}

Status WriteKinetoTrace(const io::SpoolContents& process,
                        const KinetoWriteOptions& options,
                        const std::string& path,
                        bool gzip) {
  const std::string text = ToKinetoJson(process, options);
  if (!gzip)
    return util::WriteNewFile(path, text);
  auto compressed = GzipText(text);
  if (!compressed)
    return Error{path + ": " + compressed.error().message};
  return util::WriteNewFile(path, *compressed);
}

}  // namespace gpuperf::record
