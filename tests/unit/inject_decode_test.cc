// The recorder's decode path without a GPU: synthesized CUPTI records in a byte buffer, walked
// by cuptiActivityGetNextRecord through the production DecodeBuffer, written by the production
// SpoolSink, read back, mapped to the Trace, written in the Kineto dialect and imported by
// gpuperf's own reader.
#include "gpuperf/import.h"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "inject/activity_decoder.h"
#include "inject/buffer_pool.h"
#include "inject/spool_sink.h"
#include "io/spool/spool_model.h"
#include "io/spool/spool_reader.h"
#include "record/run_figures.h"
#include "report/kineto_trace_writer.h"

namespace {

using namespace gpuperf;

constexpr std::uint64_t kT0 = 1'759'300'074'000'000'000;  // a Kineto base, so ts are small

class RecordBuffer {
 public:
  template <typename T>
  T& Add(CUpti_ActivityKind kind) {
    const std::size_t offset = bytes_.size();
    bytes_.resize(offset + sizeof(T), 0);
    T* record = reinterpret_cast<T*>(bytes_.data() + offset);
    record->kind = kind;
    return *record;
  }
  std::uint8_t* data() { return reinterpret_cast<std::uint8_t*>(bytes_.data()); }
  std::size_t size() const { return bytes_.size(); }

 private:
  // 8-byte aligned storage: the records are PACKED_ALIGNMENT (aligned(8)).
  std::vector<std::uint64_t> storage_;
  std::vector<char, std::allocator<char>> bytes_;
};

// Fills a buffer the way CUPTI would for: cudaLaunchKernel -> kernel, cudaMemcpy (pageable
// HtoD 4096 B) -> memcpy, cudaDeviceSynchronize -> context sync, an allocation, an NVTX range and
// a CUPTI overhead record. Returned through `keep` so the name pointers stay valid.
void Fill(RecordBuffer& buffer) {
  auto& launch = buffer.Add<CUpti_ActivityAPI>(CUPTI_ACTIVITY_KIND_RUNTIME);
  launch.cbid = CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000;
  launch.start = kT0 + 1000, launch.end = kT0 + 3000;
  launch.processId = 4242, launch.threadId = 4243, launch.correlationId = 11;
  auto& kernel = buffer.Add<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  kernel.start = kT0 + 5000, kernel.end = kT0 + 25000;
  kernel.deviceId = 0, kernel.contextId = 1, kernel.streamId = 7, kernel.correlationId = 11;
  kernel.gridX = 256, kernel.gridY = 1, kernel.gridZ = 1;
  kernel.blockX = 128, kernel.blockY = 1, kernel.blockZ = 1;
  kernel.registersPerThread = 32, kernel.staticSharedMemory = 1024,
  kernel.dynamicSharedMemory = 512;
  kernel.name = "_Z6streamPfPKfS1_";
  auto& copy_call = buffer.Add<CUpti_ActivityAPI>(CUPTI_ACTIVITY_KIND_RUNTIME);
  copy_call.cbid = CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020;
  copy_call.start = kT0 + 30000, copy_call.end = kT0 + 40000;
  copy_call.processId = 4242, copy_call.threadId = 4243, copy_call.correlationId = 12;
  auto& copy = buffer.Add<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY);
  copy.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
  copy.srcKind = CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE,
  copy.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  copy.bytes = 4096, copy.start = kT0 + 32000, copy.end = kT0 + 36000;
  copy.deviceId = 0, copy.contextId = 1, copy.streamId = 7;
  copy.correlationId = 99, copy.runtimeCorrelationId = 12;  // driver id differs from runtime id
  auto& sync = buffer.Add<CUpti_ActivitySynchronization2>(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
  sync.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
  sync.start = kT0 + 41000, sync.end = kT0 + 45000, sync.correlationId = 13, sync.contextId = 1;
  sync.streamId = 0xFFFFFFFFu;
  auto& alloc = buffer.Add<CUpti_ActivityMemory4>(CUPTI_ACTIVITY_KIND_MEMORY2);
  alloc.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
  alloc.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  alloc.bytes = 1 << 20, alloc.timestamp = kT0 + 500, alloc.deviceId = 0,
  alloc.address = 0x7f0000000000;
  auto& start = buffer.Add<CUpti_ActivityMarker2>(CUPTI_ACTIVITY_KIND_MARKER);
  start.flags = CUPTI_ACTIVITY_FLAG_MARKER_START, start.timestamp = kT0 + 900, start.id = 5;
  start.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
  start.objectId.pt.processId = 4242, start.objectId.pt.threadId = 4243;
  start.name = "phase:stream", start.domain = "gpuperf";
  auto& end = buffer.Add<CUpti_ActivityMarker2>(CUPTI_ACTIVITY_KIND_MARKER);
  end.flags = CUPTI_ACTIVITY_FLAG_MARKER_END, end.timestamp = kT0 + 46000, end.id = 5;
  end.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
  auto& overhead = buffer.Add<CUpti_ActivityOverhead3>(CUPTI_ACTIVITY_KIND_OVERHEAD);
  overhead.overheadKind = CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION;
  overhead.start = kT0 + 100, overhead.end = kT0 + 400;
}

// The buffer decoded by the production decoder into what the spool reader would return for a
// process with a footer (pid 4242).
io::SpoolContents DecodeToContents(RecordBuffer& buffer, inject::DecodeStats& stats) {
  inject::StringInterner strings;
  inject::Batch batch;
  REQUIRE(inject::DecodeBuffer(buffer.data(), buffer.size(), strings, batch, stats) ==
          CUPTI_SUCCESS);
  io::SpoolContents contents;
  contents.header.pid = 4242;
  contents.events = batch.events;
  for (const auto& [id, text] : batch.strings)
    contents.strings[id] = text;
  contents.has_footer = true;
  return contents;
}

std::string TempDir(const char* tag) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("gpuperf-" + std::string(tag) + "-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace

TEST_CASE("record sizes match the CUDA 13.0 layouts the decoder is written for", "[inject]") {
  CHECK(sizeof(CUpti_ActivityKernel10) == 216);
  CHECK(sizeof(CUpti_ActivityMemcpy6) == 96);
  CHECK(sizeof(CUpti_ActivityAPI) == 40);
  CHECK(sizeof(CUpti_ActivitySynchronization2) == 56);
  CHECK(sizeof(CUpti_ActivityMemory4) == 128);
  CHECK(sizeof(CUpti_ActivityMarker2) == 56);
  CHECK(sizeof(CUpti_ActivityOverhead3) == 56);
}

TEST_CASE("DecodeBuffer walks synthesized records with cuptiActivityGetNextRecord", "[inject]") {
  RecordBuffer buffer;
  Fill(buffer);
  inject::StringInterner strings;
  inject::Batch batch;
  inject::DecodeStats stats;
  REQUIRE(inject::DecodeBuffer(buffer.data(), buffer.size(), strings, batch, stats) ==
          CUPTI_SUCCESS);
  CHECK(stats.records == 9);
  CHECK(stats.kept == 9);
  CHECK(stats.unknown == 0);
  REQUIRE(batch.events.size() == 9);
  const spool::Event& kernel = batch.events[1];
  CHECK(kernel.kind == spool::EventKind::kKernel);
  CHECK(kernel.correlation == 11);
  CHECK(kernel.grid[0] == 256);
  CHECK(kernel.shared_bytes == 1536);
  const spool::Event& copy = batch.events[3];
  CHECK(copy.bytes == 4096);
  CHECK(io::MemcpyCorrelation(copy) == 12);
  CHECK(inject::CountRecords(buffer.data(), buffer.size()) == 9);
}

TEST_CASE("graph nodes count as graph launches, untimed GPU records are counted, not kept",
          "[inject]") {
  RecordBuffer buffer;
  // Two launches of one graph (correlations 21 and 22), traced node by node.
  auto graph_kernel = [&](std::uint32_t correlation, std::uint64_t node, std::uint64_t at) {
    auto& k = buffer.Add<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    k.start = kT0 + at, k.end = kT0 + at + 1000, k.correlationId = correlation;
    k.graphId = 5, k.graphNodeId = node, k.name = "_Z4stepv";
  };
  graph_kernel(21, 1, 1000);
  graph_kernel(21, 2, 3000);
  graph_kernel(22, 1, 9000);
  auto& memset = buffer.Add<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET);
  memset.start = kT0 + 11000, memset.end = kT0 + 11500, memset.correlationId = 22;
  memset.graphId = 5, memset.bytes = 64;
  // CUPTI ran out of device memory for this kernel's timestamps: start = end = 0.
  auto& untimed = buffer.Add<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  untimed.correlationId = 23, untimed.name = "_Z4stepv";
  // An eager kernel: not a graph launch.
  auto& eager = buffer.Add<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  eager.start = kT0 + 20000, eager.end = kT0 + 21000, eager.correlationId = 30;
  eager.name = "_Z5eagerv";

  inject::DecodeStats stats;
  io::SpoolContents contents = DecodeToContents(buffer, stats);
  CHECK(stats.records == 6);
  CHECK(stats.kept == 5);
  CHECK(stats.incomplete == 1);
  contents.footer.incomplete_records = static_cast<std::uint32_t>(stats.incomplete);
  const record::RunFigures figures = record::ComputeRunFigures({contents});
  CHECK(figures.kernels == 4);
  CHECK(figures.memsets == 1);
  CHECK(figures.graph_launches == 2);
  CHECK(figures.incomplete_records == 1);
  REQUIRE(figures.problems.size() == 1);
  CHECK(figures.problems[0].find("1 CUPTI record(s) without timestamps or incomplete, left out") !=
        std::string::npos);
  CHECK(figures.complete);
}

TEST_CASE("an NVTX end written before its start still pairs, host memory is not device memory",
          "[inject]") {
  RecordBuffer buffer;
  // Per-thread buffers reach the spool out of order: this END comes first.
  auto& end = buffer.Add<CUpti_ActivityMarker2>(CUPTI_ACTIVITY_KIND_MARKER);
  end.flags = CUPTI_ACTIVITY_FLAG_MARKER_END, end.timestamp = kT0 + 9000, end.id = 9;
  end.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
  auto& start = buffer.Add<CUpti_ActivityMarker2>(CUPTI_ACTIVITY_KIND_MARKER);
  start.flags = CUPTI_ACTIVITY_FLAG_MARKER_START, start.timestamp = kT0 + 1000, start.id = 9;
  start.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
  start.objectId.pt.processId = 4242, start.objectId.pt.threadId = 4244;
  start.name = "phase:memcpy", start.domain = "gpuperf";
  // cudaMallocHost: pinned host memory, no stream or context (0xFFFFFFFF).
  auto& pinned = buffer.Add<CUpti_ActivityMemory4>(CUPTI_ACTIVITY_KIND_MEMORY2);
  pinned.memoryOperationType = CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION;
  pinned.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
  pinned.bytes = 64 << 20, pinned.timestamp = kT0 + 2000, pinned.deviceId = 0;
  pinned.streamId = 0xFFFFFFFFu, pinned.contextId = 0xFFFFFFFFu;

  inject::DecodeStats stats;
  const io::SpoolContents contents = DecodeToContents(buffer, stats);

  const spool::Event& memory = contents.events[2];
  CHECK(memory.device == -1);
  CHECK(memory.stream == -1);
  CHECK(memory.context == -1);
  const record::RunFigures figures = record::ComputeRunFigures({contents});
  CHECK(figures.allocations == 0);
  CHECK(figures.peak_device_memory_bytes == 0);

  const model::Trace trace = io::SpoolsToTrace({contents});
  REQUIRE(trace.ranges.size() == 1);
  CHECK(trace.ranges[0].start_ns == static_cast<std::int64_t>(kT0 + 1000));
  CHECK(trace.ranges[0].end_ns == static_cast<std::int64_t>(kT0 + 9000));
  CHECK(trace.strings.Get(trace.ranges[0].name) == "phase:memcpy");
  CHECK(trace.diagnostics.counts.empty());

  const std::string json = report::ToKinetoJson(trace, {"run-001/testhost.4242.json", 13000});
  CHECK(json.find("\"name\": \"phase:memcpy\"") != std::string::npos);
  CHECK(json.find("\"Device Id\": -1, \"Device Type\": 0") != std::string::npos);
}

TEST_CASE("spool round trip: decode, sink, reader, Kineto JSON, gpuperf importer", "[inject]") {
  const std::string dir = TempDir("inject-roundtrip");
  const std::string path = dir + "/" + spool::SpoolFileName("testhost", 4242, 3);
  spool::FileHeader header;
  std::memcpy(header.magic, spool::kMagic, sizeof(header.magic));
  header.event_size = sizeof(spool::Event);
  header.pid = 4242;
  header.rank = 3;
  header.start_time_ns = static_cast<std::int64_t>(kT0);
  {
    inject::SpoolSink sink;
    REQUIRE(sink.Open(path, header));
    inject::StringInterner strings;
    RecordBuffer buffer;
    Fill(buffer);
    auto batch = sink.Acquire();
    inject::DecodeStats stats;
    REQUIRE(inject::DecodeBuffer(buffer.data(), buffer.size(), strings, *batch, stats) ==
            CUPTI_SUCCESS);
    sink.Submit(std::move(batch));
    spool::Footer footer;
    footer.dropped_records = 2;
    footer.cuda_runtime_version = 13000;
    sink.Close(footer);
  }
  auto contents = io::ReadSpoolFile(path);
  REQUIRE(contents.ok());
  CHECK(contents->has_footer);
  CHECK(contents->footer.dropped_records == 2);
  CHECK(contents->footer.events_written == 9);
  CHECK(contents->truncated_bytes == 0);
  REQUIRE(contents->events.size() == 9);

  const record::RunFigures figures = record::ComputeRunFigures({*contents});
  CHECK(figures.kernels == 1);
  CHECK(figures.memcpy_bytes == 4096);
  CHECK(figures.allocations == 1);
  CHECK(figures.peak_device_memory_bytes == (1 << 20));
  CHECK(figures.dropped_records == 2);
  CHECK(figures.cupti_overhead_ns == 300);
  CHECK(figures.complete);

  // A device as the decoder keeps CUpti_ActivityDevice5: its UUID must survive into the trace,
  // where measured ceilings are matched by it.
  spool::DeviceInfo device;
  device.compute_major = 9;
  device.sm_count = 132;
  std::strncpy(device.name, "NVIDIA H200", sizeof(device.name) - 1);
  for (int i = 0; i < 16; ++i)
    device.uuid[i] = static_cast<std::uint8_t>(0x10 + i);
  contents->devices.push_back(device);
  const std::string json = report::ToKinetoJson(io::SpoolsToTrace({*contents}),
                                                {"run-001/testhost.4242.r3.json", 13000});
  auto trace = io::ImportTraceMemory(json, "roundtrip.json");
  INFO(json);
  REQUIRE(trace.ok());
  const model::Trace& t = trace.value();
  REQUIRE(t.devices.size() == 1);
  CHECK(t.devices[0].uuid == "GPU-10111213-1415-1617-1819-1a1b1c1d1e1f");
  CHECK(t.devices[0].name == "NVIDIA H200");
  CHECK(t.metadata.properties.at("cuda_runtime_version") == "13000");
  REQUIRE(t.activities.size() == 2);
  int kernels = 0, copies = 0;
  for (const auto& a : t.activities) {
    if (a.kind == model::ActivityKind::kKernel) {
      ++kernels;
      CHECK(t.Name(a.name) == "stream(float*, float const*, float const*)");
      CHECK(a.correlation == 11);
      CHECK(a.stream == 7);
      CHECK(a.duration_ns() == 20000);
      CHECK(a.grid == model::Dim3{256, 1, 1});
    } else if (a.kind == model::ActivityKind::kMemcpy) {
      ++copies;
      CHECK(a.bytes == 4096);
      CHECK(a.correlation == 12);
      CHECK(a.copy_kind == model::CopyKind::kHtoD);
      CHECK(a.src_kind == model::MemoryKind::kPageable);
    }
  }
  CHECK(kernels == 1);
  CHECK(copies == 1);
  int launches = 0;
  for (const auto& call : t.api_calls) {
    if (t.Name(call.name) == "cudaLaunchKernel") {
      ++launches;
      CHECK(call.correlation == 11);
      CHECK(call.duration_ns() == 2000);
    }
  }
  CHECK(launches == 1);
  CHECK(t.syncs.size() == 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("the buffer pool hands out zeroed, aligned buffers, also when it reuses one",
          "[inject]") {
  inject::BufferPool pool;
  pool.SetBufferSize(1 << 16);
  std::uint8_t* first = pool.Take();
  REQUIRE(first != nullptr);
  CHECK(reinterpret_cast<std::uintptr_t>(first) % 8 == 0);
  CHECK(std::all_of(first, first + (1 << 16), [](std::uint8_t b) { return b == 0; }));
  std::memset(first, 0xAB, 1 << 16);  // CUPTI filled it
  pool.Give(first);
  std::uint8_t* again = pool.Take();
  CHECK(again == first);  // reused
  CHECK(std::all_of(again, again + (1 << 16), [](std::uint8_t b) { return b == 0; }));
  pool.Give(again);
}
