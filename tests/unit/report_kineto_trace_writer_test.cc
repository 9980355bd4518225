// The Kineto trace writer (report/kineto_trace_writer.h) over a recording's Trace: the launch
// arrows Perfetto draws, valid UTF-8, what the side tables of a recording add, the gzip file
// through the durable writer, and the range kinds and time base of any trace.
#include "gpuperf/import.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "io/spool/spool_model.h"
#include "report/kineto_trace_writer.h"
#include "spool_test_support.h"
#include "util/durable_file.h"
#include "util/gzip_text.h"

namespace {

using namespace gpuperf;
using testing::EverythingSpool;
using testing::TraceLines;

const report::KinetoTraceOptions kOptions{"run-001/testhost.4242.json", 13000};

std::string RecordingJson(const io::SpoolContents& contents) {
  return report::ToKinetoJson(io::SpoolsToTrace({contents}), kOptions);
}

// The events of `document` with category `cat`.
std::vector<nlohmann::json> EventsOf(const nlohmann::json& document, const std::string& cat) {
  std::vector<nlohmann::json> out;
  for (const nlohmann::json& e : document["traceEvents"]) {
    if (e.value("cat", "") == cat)
      out.push_back(e);
  }
  return out;
}

}  // namespace

TEST_CASE("the Kineto trace of a recording draws launch-to-GPU arrows and is valid UTF-8",
          "[kineto_writer]") {
  io::SpoolContents contents = EverythingSpool();
  // A kernel name that is not UTF-8 (CUPTI hands names through as bytes).
  contents.strings[contents.events[1].name] = "bad\xff\xfename";
  const std::string json = RecordingJson(contents);
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
  // One arrow per launch with GPU work: three kernels, the copy (by its runtime id), two memsets;
  // the graph launch's memset node shares the id of its kernel node and adds no second arrow.
  REQUIRE(flows.size() == 6);
  for (const std::int64_t id : {11, 12, 13, 15, 16, 21}) {
    INFO(id);
    REQUIRE(flows.count(id) == 1);
    const auto& [start, finish] = flows.at(id);
    CHECK(start["pid"] == testing::kSpoolPid);  // on the launching thread
    CHECK(start["tid"] == testing::kSpoolTid);
    CHECK(finish["pid"] == 0);  // on the GPU row: pid = device, tid = stream
    CHECK(finish["bp"] == "e");
    CHECK(start["cat"] == "ac2g");
  }
  CHECK(flows.at(11).first["ts"].get<double>() == Approx(1.0));   // the call at +1 µs
  CHECK(flows.at(11).second["ts"].get<double>() == Approx(5.0));  // its kernel at +5 µs
  CHECK(flows.at(21).second["tid"] == 8);
  CHECK(flows.at(16).second["ts"].get<double>() == Approx(39.5));  // the first node, not the memset
  // Still one trace for gpuperf: the arrows are counted as ignored flow events, nothing else.
  auto imported = io::ImportTraceMemory(json, "arrows.json");
  REQUIRE(imported.ok());
  CHECK(imported->diagnostics.counts.at(model::Diagnostic::kKinetoIgnoredFlow) == 12);
}

TEST_CASE("a recording's side tables reach its Kineto trace", "[kineto_writer]") {
  io::SpoolContents contents = EverythingSpool();
  contents.footer.dropped_records = 3;
  const nlohmann::json document = nlohmann::json::parse(RecordingJson(contents));
  // The graph node id only where the recording has one; the graph id on every node.
  int graph_events = 0;
  for (const std::string cat : {"kernel", "gpu_memset", "gpu_memcpy"}) {
    for (const nlohmann::json& e : EventsOf(document, cat)) {
      INFO(e.dump());
      const bool node = e["args"]["correlation"] == 16;
      CHECK(e["args"].contains("graph id") == node);
      CHECK(e["args"].contains("graph node id") == (node && cat == "kernel"));
      if (node) {
        ++graph_events;
        CHECK(e["args"]["graph id"] == 3);
        if (cat == "kernel")
          CHECK(e["args"]["graph node id"] == 77);
      }
    }
  }
  CHECK(graph_events == 2);
  const auto memory = EventsOf(document, "cpu_instant_event");
  REQUIRE(memory.size() == 2);
  for (const nlohmann::json& m : memory) {
    CHECK(m["args"]["Addr"] == 0x7f0000000000);
    CHECK(m["args"]["Device Type"] == 1);
  }
  CHECK(memory[0]["args"]["Total Allocated"] == (1 << 20));
  CHECK(memory[1]["args"]["Bytes"] == -(1 << 20));
  CHECK(memory[1]["args"]["Total Allocated"] == 0);
  const auto overhead = EventsOf(document, "overhead");
  REQUIRE(overhead.size() == 1);
  CHECK(overhead[0]["name"] == "CUPTI buffer flush");
  CHECK(overhead[0]["pid"] == -1);
  CHECK(overhead[0]["dur"].get<double>() == Approx(0.3));
  const auto sync = EventsOf(document, "cuda_sync");
  REQUIRE(sync.size() == 1);
  CHECK(sync[0]["args"]["context"] == 1);
  CHECK(sync[0]["args"]["cuda_sync_kind"] == "Context Sync");
  CHECK(document["gpuperf"] == nlohmann::json::parse(
                                   R"({"pid": 4242, "host": "testhost", "complete": true,
                                       "dropped_records": 3})"));
  CHECK(document["cupti_version"] == 130000);
  CHECK(document["cuda_runtime_version"] == 13000);
  CHECK(document["cuda_driver_version"] == 13000);
  CHECK(document["deviceProperties"][0]["uuid"] == "GPU-10111213-1415-1617-1819-1a1b1c1d1e1f");
}

TEST_CASE("a sync of unknown device sits on GPU 0's row and says -1", "[kineto_writer]") {
  io::SpoolContents contents = EverythingSpool();
  for (spool::Event& e : contents.events) {
    if (e.kind == spool::EventKind::kSync)
      e.context = 9;  // no GPU work on this context: its device is unknown
  }
  const model::Trace trace = io::SpoolsToTrace({contents});
  const nlohmann::json document = nlohmann::json::parse(report::ToKinetoJson(trace, kOptions));
  const auto sync = EventsOf(document, "cuda_sync");
  REQUIRE(sync.size() == 1);
  CHECK(sync[0]["pid"] == 0);
  CHECK(sync[0]["args"]["device"] == -1);
  auto imported = io::ImportTraceMemory(document.dump(), "sync.json");
  REQUIRE(imported.ok());
  REQUIRE(imported->syncs.size() == 1);
  CHECK(imported->syncs[0].device == -1);
  CHECK(imported->syncs[0].context == 9);
}

TEST_CASE("host, profiler-step and GPU ranges keep their kinds, times count from the trace's base",
          "[kineto_writer]") {
  model::Trace trace;
  trace.metadata.time_base_ns = testing::kSpoolT0;  // records relative to it, as Kineto's are
  const auto range = [&trace](model::RangeKind kind, const char* name, std::int64_t start) {
    model::Range r;
    r.kind = kind;
    r.name = trace.strings.Intern(name);
    r.start_ns = start;
    r.end_ns = start + 2500;
    if (kind == model::RangeKind::kGpuUserAnnotation) {
      r.device = 1;  // on the GPU row, pid = device and tid = stream, as Kineto's importer has it
      r.stream = 7;
      r.pid = 1;
      r.tid = 7;
    } else {
      r.pid = 10;
      r.tid = 11;
    }
    trace.ranges.push_back(r);
  };
  range(model::RangeKind::kUserAnnotation, "forward", 1000);
  range(model::RangeKind::kProfilerStep, "ProfilerStep#3", 2000);
  range(model::RangeKind::kGpuUserAnnotation, "forward", 3000);
  const std::string json = report::ToKinetoJson(trace, {"ranges", 0});
  const nlohmann::json document = nlohmann::json::parse(json);
  CHECK(document["baseTimeNanoseconds"].get<std::int64_t>() % 7'889'238'000'000'000 == 0);
  const auto gpu = EventsOf(document, "gpu_user_annotation");
  REQUIRE(gpu.size() == 1);
  CHECK(gpu[0]["pid"] == 1);
  CHECK(gpu[0]["tid"] == 7);
  auto imported = io::ImportTraceMemory(json, "ranges.json");
  REQUIRE(imported.ok());
  CHECK(TraceLines(*imported) == TraceLines(trace));
}

TEST_CASE("a gzip Kineto trace is written whole through the durable writer", "[kineto_writer]") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("gpuperf-kineto-gz-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string json = RecordingJson(EverythingSpool());
  const std::string path = (dir / "testhost.4242.json.gz").string();
  auto compressed = util::GzipText(json);
  REQUIRE(compressed.ok());
  REQUIRE(util::WriteNewFile(path, *compressed).ok());
  auto imported = io::ImportTraceFile(path);
  REQUIRE(imported.ok());
  CHECK(TraceLines(*imported) == TraceLines(io::ImportTraceMemory(json, "plain.json").value()));
  // A new file only: an existing one is never overwritten.
  CHECK_FALSE(util::WriteNewFile(path, *compressed).ok());
  std::filesystem::remove_all(dir);
}
