// The spool as a trace format (src/io/spool): the importer chosen by the magic bytes, and the
// agreement of the two ways a recording reaches the model. `gpuperf baseline` analyses a run
// through SpoolsToTrace, while the user analyses the Kineto trace written from the same spool:
// until the Kineto writer works from the Trace itself, this test keeps the two mappings equal.
#include "gpuperf/import.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "io/spool/spool_model.h"
#include "io/spool/spool_reader.h"
#include "record/kineto_writer.h"
#include "spool/spool_writer.h"

namespace {

using namespace gpuperf;

constexpr std::int64_t kT0 = 1'759'300'074'000'000'000;  // a Kineto base: small "ts" values
constexpr std::int64_t kPid = 4242;
constexpr std::int64_t kTid = 4243;

class SpoolBuilder {
 public:
  SpoolBuilder() {
    std::memcpy(contents_.header.magic, spool::kMagic, sizeof(spool::kMagic));
    contents_.header.event_size = sizeof(spool::Event);
    contents_.header.pid = kPid;
    contents_.header.start_time_ns = kT0;
    std::strncpy(contents_.header.host, "testhost", sizeof(contents_.header.host) - 1);
    contents_.has_footer = true;
  }

  std::uint32_t String(const std::string& text) {
    const auto id = static_cast<std::uint32_t>(contents_.strings.size() + 1);
    contents_.strings[id] = text;
    return id;
  }

  spool::Event& Add(spool::EventKind kind, std::int64_t start, std::int64_t end) {
    spool::Event e;
    e.kind = kind;
    e.start_ns = kT0 + start;
    e.end_ns = kT0 + end;
    e.pid = kPid;
    e.tid = kTid;
    contents_.events.push_back(e);
    return contents_.events.back();
  }

  spool::Event& Gpu(spool::EventKind kind,
                    std::int64_t start,
                    std::int64_t end,
                    std::int64_t corr) {
    spool::Event& e = Add(kind, start, end);
    e.device = 0;
    e.context = 1;
    e.stream = 7;
    e.correlation = corr;
    e.pid = -1;
    e.tid = -1;
    return e;
  }

  io::SpoolContents& contents() { return contents_; }

 private:
  io::SpoolContents contents_;
};

// A process that did a bit of everything the recorder keeps: runtime and driver launches, a
// kernel of each, a pageable copy whose driver correlation differs from the runtime one, a
// memset, a context sync, an NVTX range around it all, an allocation and its release.
io::SpoolContents EverythingSpool() {
  SpoolBuilder b;
  spool::Event& launch = b.Add(spool::EventKind::kRuntimeApi, 1000, 3000);
  launch.name = b.String("cudaLaunchKernel_v7000");
  launch.correlation = 11;
  launch.code = 211;
  spool::Event& kernel = b.Gpu(spool::EventKind::kKernel, 5000, 25000, 11);
  kernel.name = b.String("_Z6streamPfPKfS1_");
  kernel.grid[0] = 256, kernel.grid[1] = 2, kernel.grid[2] = 1;
  kernel.block[0] = 128, kernel.block[1] = 1, kernel.block[2] = 1;
  kernel.registers = 32;
  kernel.shared_bytes = 1536;
  spool::Event& driver_launch = b.Add(spool::EventKind::kDriverApi, 26000, 27000);
  driver_launch.name = b.String("cuLaunchKernel");
  driver_launch.correlation = 21;
  driver_launch.code = 307;
  spool::Event& driver_kernel = b.Gpu(spool::EventKind::kKernel, 28000, 29500, 21);
  driver_kernel.name = b.String("plain_c_kernel");
  driver_kernel.stream = 8;
  driver_kernel.grid[0] = driver_kernel.grid[1] = driver_kernel.grid[2] = 1;
  driver_kernel.block[0] = 32, driver_kernel.block[1] = driver_kernel.block[2] = 1;
  spool::Event& copy_call = b.Add(spool::EventKind::kRuntimeApi, 30000, 40000);
  copy_call.name = b.String("cudaMemcpy_v3020");
  copy_call.correlation = 12;
  copy_call.code = 31;
  spool::Event& copy = b.Gpu(spool::EventKind::kMemcpy, 32000, 36000, 99);
  copy.correlation2 = 12;              // the runtime call's id, which the copy joins
  copy.a = 1, copy.b = 1, copy.c = 3;  // HtoD, pageable -> device
  copy.bytes = 4096;
  spool::Event& set_call = b.Add(spool::EventKind::kRuntimeApi, 36500, 36900);
  set_call.name = b.String("cudaMemsetAsync_v3020");
  set_call.correlation = 13;
  set_call.code = 51;
  spool::Event& set = b.Gpu(spool::EventKind::kMemset, 37000, 37500, 13);
  set.b = 3;  // device memory
  set.bytes = 256;
  spool::Event& host_set_call = b.Add(spool::EventKind::kRuntimeApi, 38000, 38200);
  host_set_call.name = b.String("cudaMemsetAsync_v3020");
  host_set_call.correlation = 15;
  host_set_call.code = 51;
  spool::Event& host_set = b.Gpu(spool::EventKind::kMemset, 38500, 38700, 15);
  host_set.b = 2;  // pinned host memory
  host_set.bytes = 64;
  spool::Event& graph_call = b.Add(spool::EventKind::kRuntimeApi, 39000, 39100);
  graph_call.name = b.String("cudaGraphLaunch_v10000");
  graph_call.correlation = 16;
  graph_call.code = 311;
  spool::Event& node = b.Gpu(spool::EventKind::kKernel, 39500, 40500, 16);
  node.name = b.String("graph_node_kernel");
  node.graph_id = 3;
  node.correlation2 = 77;  // the node id
  node.grid[0] = node.grid[1] = node.grid[2] = 1;
  node.block[0] = 64, node.block[1] = node.block[2] = 1;
  spool::Event& sync = b.Gpu(spool::EventKind::kSync, 41000, 45000, 14);
  sync.a = 4;  // context synchronize
  sync.stream = -1;
  sync.device = -1;  // syncs carry only a context
  spool::Event& start = b.Add(spool::EventKind::kMarker, 900, 900);
  start.a = spool::kMarkerStart;
  start.correlation2 = 5;
  start.name = b.String("phase:stream");
  start.domain = b.String("gpuperf");
  spool::Event& end = b.Add(spool::EventKind::kMarker, 46000, 46000);
  end.a = spool::kMarkerEnd;
  end.correlation2 = 5;
  spool::Event& alloc = b.Gpu(spool::EventKind::kMemory, 500, 500, 0);
  alloc.a = spool::kMemoryAllocate, alloc.b = 3, alloc.bytes = 1 << 20;
  alloc.correlation2 = 0x7f0000000000;
  spool::Event& release = b.Gpu(spool::EventKind::kMemory, 47000, 47000, 0);
  release.a = spool::kMemoryRelease, release.b = 3, release.bytes = 1 << 20;
  release.correlation2 = 0x7f0000000000;
  spool::DeviceInfo device;
  device.compute_major = 9;
  device.sm_count = 132;
  device.memory_bytes = std::int64_t{141} << 30;
  std::strncpy(device.name, "NVIDIA H200", sizeof(device.name) - 1);
  b.contents().devices.push_back(device);
  return b.contents();
}

// One line per record of the kinds both mappings carry, times made absolute, sorted: equal
// vectors mean equal traces for the analysis, and a difference prints as the line that differs.
std::vector<std::string> Lines(const model::Trace& t) {
  const std::int64_t base = t.metadata.time_base_ns;
  std::vector<std::string> lines;
  for (const model::GpuActivity& a : t.activities) {
    lines.push_back(fmt::format(
        "activity {} '{}' {}..{} device {} stream {} correlation {} bytes {} copy {} {}->{} grid "
        "{},{},{} block {},{},{} registers {} shared {} graph {}",
        static_cast<int>(a.kind),
        t.Name(a.name),
        a.start_ns + base,
        a.end_ns + base,
        a.device,
        a.stream,
        a.correlation,
        a.bytes,
        static_cast<int>(a.copy_kind),
        static_cast<int>(a.src_kind),
        static_cast<int>(a.dst_kind),
        a.grid.x,
        a.grid.y,
        a.grid.z,
        a.block.x,
        a.block.y,
        a.block.z,
        a.registers_per_thread,
        a.shared_memory_bytes,
        a.graph_id));
  }
  for (const model::ApiCall& c : t.api_calls) {
    lines.push_back(fmt::format("api {} '{}' {}..{} pid {} tid {} correlation {} cbid {}",
                                static_cast<int>(c.kind),
                                t.Name(c.name),
                                c.start_ns + base,
                                c.end_ns + base,
                                c.pid,
                                c.tid,
                                c.correlation,
                                c.cbid));
  }
  for (const model::SyncEvent& s : t.syncs) {
    lines.push_back(fmt::format("sync {} {}..{} device {} stream {} correlation {}",
                                static_cast<int>(s.kind),
                                s.start_ns + base,
                                s.end_ns + base,
                                s.device,
                                s.stream,
                                s.correlation));
  }
  for (const model::Range& r : t.ranges) {
    lines.push_back(fmt::format("range {} '{}' domain '{}' {}..{} pid {} tid {}",
                                static_cast<int>(r.kind),
                                t.Name(r.name),
                                t.Name(r.domain),
                                r.start_ns + base,
                                r.end_ns + base,
                                r.pid,
                                r.tid));
  }
  for (const model::MemoryEvent& m : t.memory_events) {
    lines.push_back(fmt::format("memory {} at {} device {} bytes {}",
                                static_cast<int>(m.op),
                                m.time_ns + base,
                                m.device,
                                m.bytes));
  }
  for (const model::Device& d : t.devices) {
    lines.push_back(fmt::format("device {} '{}' cc {}.{} sms {} memory {}",
                                d.id,
                                d.name,
                                d.compute_major,
                                d.compute_minor,
                                d.sm_count,
                                d.memory_bytes));
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

// The lines of `a` that `b` lacks.
std::vector<std::string> Missing(const std::vector<std::string>& a,
                                 const std::vector<std::string>& b) {
  std::vector<std::string> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

}  // namespace

TEST_CASE("spool to Trace equals spool to Kineto JSON to import", "[spool]") {
  const io::SpoolContents contents = EverythingSpool();
  const model::Trace direct = io::SpoolsToTrace({contents});
  const std::string json = record::ToKinetoJson(contents, {"run-001/testhost.4242.json", 13000});
  auto imported = io::ImportTraceMemory(json, "testhost.4242.json");
  INFO(json);
  REQUIRE(imported.ok());
  const std::vector<std::string> direct_lines = Lines(direct);
  const std::vector<std::string> imported_lines = Lines(*imported);
  CHECK(direct_lines.size() == 17);
  CHECK(Missing(direct_lines, imported_lines) == std::vector<std::string>{});
  CHECK(Missing(imported_lines, direct_lines) == std::vector<std::string>{});
}

TEST_CASE("a spool file is a trace format: probed by its magic, imported like the others",
          "[spool]") {
  const io::SpoolContents contents = EverythingSpool();
  // The bytes of the file as the injected library writes them: header, then chunks.
  std::string bytes(reinterpret_cast<const char*>(&contents.header), sizeof(contents.header));
  const auto chunk = [&bytes](spool::ChunkType type,
                              const void* prefix,
                              std::size_t prefix_size,
                              const void* data,
                              std::size_t size) {
    spool::ChunkHeader header;
    header.type = static_cast<std::uint32_t>(type);
    header.size = static_cast<std::uint32_t>(prefix_size + size);
    bytes.append(reinterpret_cast<const char*>(&header), sizeof(header));
    bytes.append(static_cast<const char*>(prefix), prefix_size);
    bytes.append(static_cast<const char*>(data), size);
  };
  for (const auto& [id, text] : contents.strings)
    chunk(spool::ChunkType::kString, &id, sizeof(id), text.data(), text.size());
  chunk(spool::ChunkType::kEvents,
        nullptr,
        0,
        contents.events.data(),
        contents.events.size() * sizeof(spool::Event));
  chunk(spool::ChunkType::kDevice, nullptr, 0, &contents.devices[0], sizeof(spool::DeviceInfo));
  chunk(spool::ChunkType::kFooter, nullptr, 0, &contents.footer, sizeof(spool::Footer));

  auto imported = io::ImportTraceMemory(bytes, "testhost.4242.gpuperf");
  REQUIRE(imported.ok());
  CHECK(imported->metadata.format == "gpuperf-recording");
  CHECK(Lines(*imported) == Lines(io::SpoolsToTrace({contents})));

  // Cut short inside the last chunk: the complete chunks are kept, as by the CLI.
  auto cut = io::ImportTraceMemory(std::string_view(bytes).substr(0, bytes.size() - 3), "cut");
  REQUIRE(cut.ok());
  CHECK(cut->activities.size() == 6);

  std::string foreign = bytes;
  foreign[0] = 'X';  // not a spool any more: no importer takes it
  CHECK_FALSE(io::ImportTraceMemory(foreign, "foreign").ok());
}

TEST_CASE("the Kineto trace of a spool draws launch-to-GPU arrows and is valid UTF-8", "[spool]") {
  io::SpoolContents contents = EverythingSpool();
  // A kernel name that is not UTF-8 (CUPTI hands names through as bytes).
  contents.strings[contents.events[1].name] = "bad\xff\xfename";
  const std::string json = record::ToKinetoJson(contents, {"run-001/testhost.4242.json", 13000});
  nlohmann::json document;
  REQUIRE_NOTHROW(document = nlohmann::json::parse(json));  // throws on invalid UTF-8
  std::map<std::int64_t, std::pair<nlohmann::json, nlohmann::json>> flows;  // id -> (s, f)
  std::string bad_name;
  for (const nlohmann::json& e : document["traceEvents"]) {
    if (e["ph"] == "s")
      flows[e["id"].get<std::int64_t>()].first = e;
    else if (e["ph"] == "f")
      flows[e["id"].get<std::int64_t>()].second = e;
    else if (e.value("cat", "") == "kernel" && e["args"]["correlation"] == 11)
      bad_name = e["name"];
  }
  CHECK(bad_name == "bad\xEF\xBF\xBD\xEF\xBF\xBDname");  // one U+FFFD per invalid byte
  // One arrow per launch with GPU work: three kernels, the copy (by its runtime id), two memsets.
  REQUIRE(flows.size() == 6);
  for (const std::int64_t id : {11, 12, 13, 15, 16, 21}) {
    INFO(id);
    REQUIRE(flows.count(id) == 1);
    const auto& [start, finish] = flows.at(id);
    CHECK(start["pid"] == kPid);  // on the launching thread
    CHECK(start["tid"] == kTid);
    CHECK(finish["pid"] == 0);  // on the GPU row: pid = device, tid = stream
    CHECK(finish["bp"] == "e");
    CHECK(start["cat"] == "ac2g");
  }
  CHECK(flows.at(11).first["ts"].get<double>() == Approx(1.0));   // the call at +1 µs
  CHECK(flows.at(11).second["ts"].get<double>() == Approx(5.0));  // its kernel at +5 µs
  CHECK(flows.at(21).second["tid"] == 8);
  // Still one trace for gpuperf: the arrows are counted as ignored flow events, nothing else.
  auto imported = io::ImportTraceMemory(json, "arrows.json");
  REQUIRE(imported.ok());
  CHECK(imported->diagnostics.counts.at(model::Diagnostic::kKinetoIgnoredFlow) == 12);
}

TEST_CASE("a gzip Kineto trace is written whole through the durable writer", "[spool]") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("gpuperf-kineto-gz-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const io::SpoolContents contents = EverythingSpool();
  const std::string path = (dir / "testhost.4242.json.gz").string();
  REQUIRE(record::WriteKinetoTrace(contents, {"testhost.4242.json.gz", 13000}, path, true).ok());
  auto imported = io::ImportTraceFile(path);
  REQUIRE(imported.ok());
  CHECK(Lines(*imported) ==
        Lines(io::ImportTraceMemory(
                  record::ToKinetoJson(contents, {"testhost.4242.json.gz", 13000}), "plain.json")
                  .value()));
  // A new file only: an existing one is never overwritten.
  CHECK_FALSE(record::WriteKinetoTrace(contents, {"again", 13000}, path, true).ok());
  std::filesystem::remove_all(dir);
}
