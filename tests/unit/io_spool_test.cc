// The spool as a trace format (src/io/spool): the importer chosen by the magic bytes, what it
// keeps beside the records, and the agreement of the two ways a recording reaches the model.
// `gpuperf baseline` analyses a run through SpoolsToTrace, while the user analyses the Kineto
// trace written from that Trace (report/kineto_trace_writer.h): spool -> Trace must equal
// spool -> Trace -> Kineto JSON -> import.
#include "gpuperf/import.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "io/spool/spool_model.h"
#include "io/spool/spool_reader.h"
#include "report/kineto_trace_writer.h"
#include "spool/spool_writer.h"
#include "spool_test_support.h"

namespace {

using namespace gpuperf;
using testing::EverythingSpool;
using testing::MissingLines;
using testing::TraceLines;

}  // namespace

TEST_CASE("spool to Trace equals spool to Trace to Kineto JSON to import", "[spool]") {
  const model::Trace direct = io::SpoolsToTrace({EverythingSpool()});
  const std::string json = report::ToKinetoJson(direct, {"run-001/testhost.4242.json", 13000});
  auto imported = io::ImportTraceMemory(json, "testhost.4242.json");
  INFO(json);
  REQUIRE(imported.ok());
  const std::vector<std::string> direct_lines = TraceLines(direct);
  const std::vector<std::string> imported_lines = TraceLines(*imported);
  // 7 activities, 6 API calls, a sync, a range, 2 memory events, a device, 2 versions.
  CHECK(direct_lines.size() == 20);
  CHECK(MissingLines(direct_lines, imported_lines) == std::vector<std::string>{});
  CHECK(MissingLines(imported_lines, direct_lines) == std::vector<std::string>{});
}

TEST_CASE("the spool importer keeps what no record has room for beside the records", "[spool]") {
  io::SpoolContents contents = EverythingSpool();
  contents.footer.dropped_records = 3;
  const model::Trace t = io::SpoolsToTrace({contents});
  // Only the graph's kernel has a node id (a memset node has none in the spool).
  REQUIRE(t.graph_node_ids.size() == 1);
  for (std::size_t i = 0; i < t.activities.size(); ++i) {
    INFO(t.Name(t.activities[i].name));
    const std::optional<std::uint64_t> node = t.graph_node_ids.Find(i);
    if (t.Name(t.activities[i].name) == "graph_node_kernel")
      CHECK(node == 77u);
    else
      CHECK_FALSE(node.has_value());
  }
  // Every allocation and release: its address, and the device's total after it.
  REQUIRE(t.memory_events.size() == 2);
  CHECK(t.memory_addresses.Find(0) == 0x7f0000000000u);
  CHECK(t.memory_addresses.Find(1) == 0x7f0000000000u);
  CHECK(t.memory_events[0].total_allocated == (1 << 20));
  CHECK(t.memory_events[1].total_allocated == 0);
  REQUIRE(t.profiler_overheads.size() == 1);
  CHECK(t.Name(t.profiler_overheads[0].name) == "CUPTI buffer flush");
  CHECK(t.profiler_overheads[0].end_ns - t.profiler_overheads[0].start_ns == 300);
  REQUIRE(t.syncs.size() == 1);
  CHECK(t.syncs[0].context == 1);
  CHECK(t.syncs[0].device == 0);  // learned from the kernels of context 1
  CHECK(t.metadata.properties.at("cupti_version") == "130000");
  CHECK(t.metadata.properties.at("cuda_runtime_version") == "13000");
  CHECK(t.metadata.properties.at(std::string(model::kRecordingCompleteProperty)) == "true");
  CHECK(t.metadata.properties.at(std::string(model::kDroppedRecordsProperty)) == "3");

  // A process cut short makes the merged recording incomplete; the drops add up.
  io::SpoolContents cut = EverythingSpool();
  cut.has_footer = false;
  const model::Trace merged = io::SpoolsToTrace({contents, cut});
  CHECK(merged.metadata.properties.at(std::string(model::kRecordingCompleteProperty)) == "false");
  CHECK(merged.metadata.properties.at(std::string(model::kDroppedRecordsProperty)) == "3");
  CHECK(merged.graph_node_ids.size() == 2);
  CHECK(merged.graph_node_ids.Find(t.activities.size() + 5) == 77u);  // the second process's
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
  CHECK(TraceLines(*imported) == TraceLines(io::SpoolsToTrace({contents})));

  // Cut short inside the last chunk: the complete chunks are kept, as by the CLI.
  auto cut = io::ImportTraceMemory(std::string_view(bytes).substr(0, bytes.size() - 3), "cut");
  REQUIRE(cut.ok());
  CHECK(cut->activities.size() == 7);

  std::string foreign = bytes;
  foreign[0] = 'X';  // not a spool any more: no importer takes it
  CHECK_FALSE(io::ImportTraceMemory(foreign, "foreign").ok());
}
