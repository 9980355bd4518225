// The Kineto importer on small inline traces: one test per variant of docs/formats.md, "Kineto".
#include "io/kineto/kineto_importer.h"

#include "gpuperf/import.h"
#include "gpuperf/trace.h"

#include <catch2/catch.hpp>

#include <string>

#include "io/input.h"

namespace gpuperf::io {
namespace {

using model::kNoId;

model::Trace Import(const std::string& json) {
  auto trace = ImportTraceMemory(json, "t.json");
  INFO(json);
  if (!trace.ok())
    FAIL(trace.error().message);
  return std::move(trace).value();
}

std::string ErrorOf(const std::string& json) {
  auto trace = ImportTraceMemory(json, "t.json");
  return trace.ok() ? "no error" : trace.error().message;
}

std::int64_t Count(const model::Trace& trace, const std::string& what) {
  auto diagnostic = gpuperf::model::FindDiagnostic(what);  // a catalogue name
  REQUIRE(diagnostic);
  return trace.diagnostics.Get(*diagnostic);
}

std::string Events(const std::string& events) {
  return R"({"traceEvents": [)" + events + "]}";
}

constexpr const char* kKernel =
    R"({"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 100.5, "dur": 20,
        "args": {"device": 1, "stream": 9, "context": 1, "correlation": 42, "External id": 5,
                 "registers per thread": 96, "shared memory": 12288, "grid": [640, 2, 1],
                 "block": [128, 1, 1], "est. achieved occupancy %": 0}})";
constexpr const char* kLaunch =
    R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 311, "tid": 312,
        "ts": 99, "dur": 3, "args": {"cbid": 211, "correlation": 42, "External id": 5}})";

TEST_CASE("Kineto kernel and launch map to GpuActivity and ApiCall", "[kineto]") {
  model::Trace trace = Import(Events(std::string(kKernel) + "," + kLaunch));
  REQUIRE(trace.activities.size() == 1);
  const model::GpuActivity& k = trace.activities[0];
  CHECK(k.kind == model::ActivityKind::kKernel);
  CHECK(trace.Name(k.name) == "gemm");
  CHECK(k.start_ns == 100500);
  CHECK(k.end_ns == 120500);
  CHECK(k.device == 1);  // args.device wins over pid
  CHECK(k.stream == 9);  // args.stream wins over tid
  CHECK(k.context == 1);
  CHECK(k.correlation == 42);
  CHECK(k.grid == model::Dim3{640, 2, 1});
  CHECK(k.block == model::Dim3{128, 1, 1});
  CHECK(k.registers_per_thread == 96);
  CHECK(k.shared_memory_bytes == 12288);
  REQUIRE(trace.api_calls.size() == 1);
  const model::ApiCall& call = trace.api_calls[0];
  CHECK(call.kind == model::ApiKind::kRuntime);
  CHECK(trace.Name(call.name) == "cudaLaunchKernel");
  CHECK(call.cbid == 211);
  CHECK(call.correlation == 42);
  CHECK(call.pid == 311);
  CHECK(call.tid == 312);
  CHECK(Count(trace, "kineto.orphan_gpu_activity") == 0);
}

TEST_CASE("Kineto memcpy and memset kinds come from the event names", "[kineto]") {
  model::Trace trace = Import(Events(
      R"j({"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0,
          "tid": 7, "ts": 1, "dur": 2, "args": {"bytes": 4096, "correlation": 1}},
         {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoH (Device -> Pinned)", "pid": 0,
          "tid": 7, "ts": 5, "dur": 2, "args": {"bytes": 8}},
         {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 7,
          "ts": 9, "dur": 1, "args": {"bytes": 512}})j"));
  REQUIRE(trace.activities.size() == 3);
  CHECK(trace.activities[0].kind == model::ActivityKind::kMemcpy);
  CHECK(trace.activities[0].copy_kind == model::CopyKind::kHtoD);
  CHECK(trace.activities[0].src_kind == model::MemoryKind::kPageable);
  CHECK(trace.activities[0].dst_kind == model::MemoryKind::kDevice);
  CHECK(trace.activities[0].bytes == 4096);
  CHECK(trace.activities[1].copy_kind == model::CopyKind::kDtoH);
  CHECK(trace.activities[1].dst_kind == model::MemoryKind::kPinned);
  CHECK(trace.activities[2].kind == model::ActivityKind::kMemset);
  CHECK(trace.activities[2].src_kind == model::MemoryKind::kDevice);
  CHECK(trace.activities[2].bytes == 512);
  // Variant 7: no launch event for any of them; two carry no correlation at all.
  CHECK(Count(trace, "kineto.orphan_gpu_activity") == 1);
  CHECK(Count(trace, "kineto.gpu_activity_without_correlation") == 2);
}

TEST_CASE("Kineto cuda_sync, annotations, cpu_op and driver calls", "[kineto]") {
  model::Trace trace = Import(Events(
      R"({"ph": "X", "cat": "cuda_sync", "name": "Stream Sync", "pid": 0, "tid": 7, "ts": 1,
          "dur": 5, "args": {"cuda_sync_kind": "Stream Sync", "stream": 7, "correlation": 3,
          "device": 0}},
         {"ph": "X", "cat": "cuda_sync", "name": "Event Sync", "pid": 2, "tid": "stream 4",
          "ts": 1, "dur": 5},
         {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 10, "tid": 11,
          "ts": 0, "dur": 100},
         {"ph": "X", "cat": "user_annotation", "name": "forward", "pid": 10, "tid": 11, "ts": 1,
          "dur": 50},
         {"ph": "X", "cat": "user_annotation", "name": "nccl:all_reduce", "pid": 10, "tid": 11,
          "ts": 1, "dur": 2, "args": {"Input Dims": [[45310188]], "Input type": ["float"]}},
         {"ph": "X", "cat": "gpu_user_annotation", "name": "forward", "pid": 0, "tid": 7,
          "ts": 2, "dur": 40, "args": {"device": 0, "stream": 7}},
         {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 10, "tid": 11, "ts": 3,
          "dur": 4, "args": {"External id": 77, "Input Dims": [[2, 3], [3, 4]],
          "Input type": ["float", "float"]}},
         {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernelEx", "pid": 10, "tid": 11,
          "ts": 4, "dur": 1, "args": {"cbid": 652, "correlation": 9}})"));
  REQUIRE(trace.syncs.size() == 2);
  CHECK(trace.syncs[0].kind == model::SyncKind::kStream);
  CHECK(trace.syncs[0].device == 0);
  CHECK(trace.syncs[0].stream == 7);
  CHECK(trace.syncs[0].correlation == 3);
  CHECK(trace.syncs[1].kind == model::SyncKind::kEvent);  // from the name
  CHECK(trace.syncs[1].device == 2);
  CHECK(trace.syncs[1].stream == 4);  // "stream 4"
  REQUIRE(trace.ranges.size() == 4);
  CHECK(trace.ranges[0].kind == model::RangeKind::kProfilerStep);
  CHECK(trace.ranges[1].kind == model::RangeKind::kUserAnnotation);
  CHECK(trace.ranges[1].pid == 10);
  CHECK(trace.ranges[3].kind == model::RangeKind::kGpuUserAnnotation);
  CHECK(trace.ranges[3].device == 0);
  CHECK(trace.ranges[3].stream == 7);
  // A collective's marker keeps its message shape beside the range (Trace::range_shapes).
  CHECK_FALSE(trace.range_shapes.Find(1));
  REQUIRE(trace.range_shapes.Find(2));
  CHECK(trace.Name(static_cast<model::NameId>(*trace.range_shapes.Find(2) >> 32)) ==
        "[[45310188]]");
  CHECK(trace.Name(static_cast<model::NameId>(*trace.range_shapes.Find(2) & 0xffffffffu)) ==
        R"(["float"])");
  REQUIRE(trace.host_ops.size() == 1);
  CHECK(trace.Name(trace.host_ops[0].input_dims) == "[[2,3],[3,4]]");
  CHECK(trace.Name(trace.host_ops[0].input_types) == R"(["float","float"])");
  REQUIRE(trace.api_calls.size() == 1);
  CHECK(trace.api_calls[0].kind == model::ApiKind::kDriver);
  CHECK(trace.api_calls[0].cbid == 652);
}

TEST_CASE("Kineto [memory] instants and process names", "[kineto]") {
  model::Trace trace = Import(Events(
      R"({"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 10,
          "tid": 11, "ts": 5, "args": {"Total Reserved": 2097152, "Total Allocated": 1024,
          "Bytes": 1024, "Addr": 140208236134400, "Device Id": 0, "Device Type": 1}},
         {"ph": "i", "s": "t", "name": "[memory]", "pid": 10, "tid": 11, "ts": 6.5,
          "args": {"Total Allocated": 0, "Bytes": -1024, "Addr": 18446744073709551615,
          "Device Id": -1}},
         {"ph": "i", "s": "g", "name": "Iteration Start: PyTorch Profiler", "pid": "Traces",
          "tid": "", "ts": 1},
         {"name": "process_name", "ph": "M", "ts": 0, "pid": 0, "tid": 0,
          "args": {"name": "python"}},
         {"name": "process_name", "ph": "M", "ts": 0, "pid": 0, "tid": 0,
          "args": {"name": "again"}},
         {"name": "thread_name", "ph": "M", "ts": 0, "pid": 10, "tid": 11,
          "args": {"name": "thread 11"}},
         {"name": "process_name", "ph": "M", "ts": 0, "pid": "Spans", "tid": 0,
          "args": {"name": "Spans"}})"));
  REQUIRE(trace.memory_events.size() == 2);
  CHECK(trace.memory_events[0].op == model::MemoryOp::kAllocate);
  CHECK(trace.memory_events[0].bytes == 1024);
  CHECK(trace.memory_events[0].device == 0);
  CHECK(trace.memory_events[0].total_allocated == 1024);
  CHECK(trace.memory_events[0].time_ns == 5000);
  CHECK(trace.memory_events[1].op == model::MemoryOp::kFree);
  CHECK(trace.memory_events[1].bytes == 1024);
  CHECK(trace.memory_events[1].device == -1);
  CHECK(trace.memory_events[1].time_ns == 6500);
  REQUIRE(trace.processes.size() == 1);
  CHECK(trace.processes[0].pid == 0);
  CHECK(trace.processes[0].name == "python");
  CHECK(Count(trace, "kineto.ignored.instant") == 1);
  CHECK(Count(trace, "kineto.ignored.metadata") == 2);
}

TEST_CASE("Kineto header keys after the events, devices, distributed info", "[kineto]") {
  model::Trace trace = Import(std::string(R"({"schemaVersion": 1, "traceEvents": [)") + kKernel +
                              R"(], "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3",
      "totalGlobalMem": 84929216512, "computeMajor": 9, "computeMinor": 0,
      "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536,
      "regsPerMultiprocessor": 65536, "warpSize": 32, "sharedMemPerBlock": 49152,
      "sharedMemPerMultiprocessor": 233472, "numSms": 132, "sharedMemPerBlockOptin": 232448}],
      "distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 8, "nccl_version": "2.27.5",
      "pg_config": [{"ranks": [0, 1]}]}, "cupti_version": 22, "cuda_runtime_version": 12040,
      "cuda_driver_version": 12090, "baseTimeNanoseconds": 1759300074000000000,
      "displayTimeUnit": "ms", "traceName": "x.json"})");
  REQUIRE(trace.activities.size() == 1);
  CHECK(trace.metadata.time_base_ns == 1759300074000000000);
  CHECK(trace.metadata.format_version == "schemaVersion 1");
  CHECK(trace.metadata.rank == 3);
  CHECK(trace.metadata.world_size == 8);
  CHECK(trace.metadata.distributed_backend == "nccl");
  CHECK(trace.metadata.properties.at("cupti_version") == "22");
  CHECK(trace.metadata.properties.at("cuda_driver_version") == "12090");
  CHECK(trace.metadata.properties.at("nccl_version") == "2.27.5");
  REQUIRE(trace.devices.size() == 1);
  const model::Device& d = trace.devices[0];
  CHECK(d.name == "NVIDIA H100 80GB HBM3");
  CHECK(d.memory_bytes == 84929216512);
  CHECK(d.compute_major == 9);
  CHECK(d.sm_count == 132);
  CHECK(d.max_threads_per_sm == 2048);
  CHECK(d.registers_per_sm == 65536);
  CHECK(d.shared_memory_per_sm == 233472);
  CHECK(d.warp_size == 32);
}

TEST_CASE("Kineto 2021: computeProperties, old category names, string tids", "[kineto]") {
  model::Trace trace = Import(
      R"j({"schemaVersion": 1, "computeProperties": [{"id": 0, "name": "Tesla V100-DGXS-32GB",
          "major": 7, "minor": 0, "multiProcessorCount": 80,
          "maxThreadsPerMultiProcessor": 2048}],
        "traceEvents": [
         {"ph": "X", "cat": "Operator", "name": "aten::conv2d", "pid": 67844, "tid": "4093687616",
          "ts": 10, "dur": 9, "args": {"Input dims": [[32, 3, 224, 224]], "external id": 8,
          "Call stack": "train.py(12): step;train.py(40): <module>"}},
         {"ph": "X", "cat": "Runtime", "name": "cudaLaunchKernel", "pid": 67844,
          "tid": "4093687616", "ts": 11, "dur": 2, "args": {"correlation": 60032}},
         {"ph": "X", "cat": "Kernel", "name": "wgrad", "pid": 0, "tid": "stream 7", "ts": 20,
          "dur": 0, "args": {"correlation": 60032}},
         {"ph": "X", "cat": "Memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0,
          "tid": "stream 7", "ts": 30, "dur": 1, "args": {"bytes": 4}},
         {"ph": "X", "cat": "Memset", "name": "Memset (Device)", "pid": 0, "tid": "stream 7",
          "ts": 32, "dur": 1},
         {"ph": "s", "id": 60032, "pid": 67844, "tid": 4093687616, "ts": 11, "cat": "async",
          "name": "launch"}]})j");
  REQUIRE(trace.devices.size() == 1);
  // with_stack of 2021: a "Call stack" arg on the ops, no python_function events.
  CHECK(trace.metadata.properties["with_stack"] == "1");
  CHECK(trace.devices[0].compute_major == 7);
  CHECK(trace.devices[0].sm_count == 80);
  CHECK(trace.devices[0].max_threads_per_sm == 2048);
  REQUIRE(trace.host_ops.size() == 1);
  CHECK(trace.host_ops[0].tid == 4093687616);
  CHECK(trace.Name(trace.host_ops[0].input_dims) == "[[32,3,224,224]]");
  REQUIRE(trace.api_calls.size() == 1);
  CHECK(trace.api_calls[0].tid == 4093687616);
  REQUIRE(trace.activities.size() == 3);
  CHECK(trace.activities[0].stream == 7);
  CHECK(trace.activities[0].device == 0);
  CHECK(trace.activities[1].kind == model::ActivityKind::kMemcpy);
  CHECK(trace.activities[2].kind == model::ActivityKind::kMemset);
  CHECK(Count(trace, "kineto.zero_duration_gpu_activity") == 1);
  CHECK(Count(trace, "kineto.ignored.flow") == 1);
}

TEST_CASE("Kineto bare top-level array (Jan 2021)", "[kineto]") {
  model::Trace trace = Import(std::string("[\n") + kLaunch + ",\n" + kKernel + "\n]");
  CHECK(trace.activities.size() == 1);
  CHECK(trace.api_calls.size() == 1);
  CHECK(trace.metadata.format_version == "JSON array of events (2021)");
  CHECK(Import(R"({"traceEvents": []})").activities.empty());
}

TEST_CASE("Kineto timestamp encodings: int, ns fraction, relative with base", "[kineto]") {
  auto start = [](const std::string& ts, const std::string& dur) {
    model::Trace trace = Import(Events(R"({"ph": "X", "cat": "kernel", "name": "k", "pid": 0,
        "tid": 7, "ts": )" + ts + R"(, "dur": )" +
                                       dur + "}"));
    REQUIRE(trace.activities.size() == 1);
    return std::pair(trace.activities[0].start_ns, trace.activities[0].duration_ns());
  };
  CHECK(start("1694128201426674", "2146") ==
        std::pair<std::int64_t, std::int64_t>(1694128201426674000, 2146000));
  CHECK(start("1712195495519689.047", "3.5") ==
        std::pair<std::int64_t, std::int64_t>(1712195495519689047, 3500));
  CHECK(start("12.3", "30669.0") == std::pair<std::int64_t, std::int64_t>(12300, 30669000));
  CHECK(start("-1.25", "1e1") == std::pair<std::int64_t, std::int64_t>(-1250, 10000));
}

TEST_CASE("Kineto python frames keep their threads through the thread index", "[kineto]") {
  // Runs of one thread, then a return to the first: the index table must not depend on order.
  model::Trace trace = Import(Events(
      R"j({"ph": "X", "cat": "python_function", "name": "a", "pid": 7, "tid": 70, "ts": 1, "dur": 9},
         {"ph": "X", "cat": "python_function", "name": "b", "pid": 7, "tid": 70, "ts": 2, "dur": 1},
         {"ph": "X", "cat": "python_function", "name": "c", "pid": 7, "tid": 71, "ts": 3, "dur": 1},
         {"ph": "X", "cat": "python_function", "name": "d", "pid": 8, "tid": 70, "ts": 4, "dur": 1},
         {"ph": "X", "cat": "python_function", "name": "e", "pid": 7, "tid": 70, "ts": 5, "dur": 1})j"));
  REQUIRE(trace.python_frames.size() == 5);
  CHECK(trace.frame_threads.size() == 3);
  std::vector<std::pair<std::int64_t, std::int64_t>> threads;
  for (const model::PythonFrame& f : trace.python_frames)
    threads.emplace_back(trace.ThreadOf(f).pid, trace.ThreadOf(f).tid);
  CHECK(threads == std::vector<std::pair<std::int64_t, std::int64_t>>{
                       {7, 70}, {7, 70}, {7, 71}, {8, 70}, {7, 70}});
}

TEST_CASE("Kineto classifies by cat, never by pid", "[kineto]") {
  // Variant 6: python frames of unknown threads sit on pid 0 / tid 0, like GPU 0.
  model::Trace trace = Import(Events(
      R"j({"ph": "X", "cat": "python_function", "name": "<built-in method>", "pid": 0, "tid": 0,
          "ts": 1, "dur": 2, "args": {"Python id": 5, "Python parent id": null}},
         {"ph": "X", "cat": "overhead", "name": "Activity Buffer Request", "pid": -1, "tid": 0,
          "ts": 1, "dur": 2},
         {"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": "Spans",
          "tid": "PyTorch Profiler", "ts": 0, "dur": 100, "args": {"Op count": 0}},
         {"ph": "X", "cat": "KERNEL", "name": "k", "pid": 0, "tid": 0, "ts": 1, "dur": 2},
         {"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel", "pid": 5, "tid": 5,
          "ts": 1, "dur": 2, "args": {"correlation": 1}},
         {"ph": "X", "cat": "cuda_profiler_range", "name": "k", "pid": 0, "tid": 0, "ts": 1,
          "dur": 2},
         {"ph": "C", "name": "Queue Length", "pid": 0, "ts": 1, "args": {"stream 7": 2}},
         {"ph": "f", "id": 1, "pid": 0, "tid": 7, "ts": 1, "cat": "ac2g", "name": "ac2g",
          "bp": "e"})j"));
  CHECK(trace.activities.size() == 1);
  CHECK(trace.api_calls.size() == 1);  // AMD hip* calls under cuda_runtime
  CHECK(trace.host_ops.empty());
  REQUIRE(trace.python_frames.size() == 1);  // a host frame, not a GPU activity on device 0
  CHECK(trace.Name(trace.python_frames[0].name) == "<built-in method>");
  CHECK(trace.python_frames[0].end_ns - trace.python_frames[0].start_ns == 2000);
  CHECK(Count(trace, "kineto.ignored.overhead") == 1);
  CHECK(Count(trace, "kineto.ignored.trace_span") == 1);
  CHECK(Count(trace, "kineto.ignored.other_category") == 0);
  // The profiler range overlaps kernel "k": it adds counters (none here), not an activity.
  CHECK(Count(trace, "kineto.profiler_ranges_attached_to_kernel") == 1);
  CHECK(Count(trace, "kineto.ignored.counter") == 1);
  CHECK(Count(trace, "kineto.ignored.flow") == 1);
}

TEST_CASE("Kineto CUDA graph: one correlation, many kernels, none orphaned", "[kineto]") {
  std::string events = R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaGraphLaunch",
      "pid": 1, "tid": 1, "ts": 0, "dur": 5, "args": {"cbid": 311, "correlation": 8}})";
  for (int i = 0; i < 3; ++i) {
    events += R"(, {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": )" +
              std::to_string(10 + i) + R"(, "dur": 1, "args": {"correlation": 8}})";
  }
  model::Trace trace = Import(Events(events));
  CHECK(trace.activities.size() == 3);
  CHECK(Count(trace, "kineto.orphan_gpu_activity") == 0);
}

TEST_CASE("Kineto counts malformed events and keeps the rest", "[kineto]") {
  model::Trace trace = Import(Events(
      R"({"ph": "X", "cat": "kernel", "name": "no ts", "pid": 0, "tid": 7, "dur": 1},
         {"ph": "X", "cat": "kernel", "name": "no dur", "pid": 0, "tid": 7, "ts": 1},
         {"ph": "X", "cat": "kernel", "name": "bad dur", "pid": 0, "tid": 7, "ts": 1, "dur": "x"},
         {"ph": "X", "cat": "kernel", "name": "neg", "pid": 0, "tid": 7, "ts": 1, "dur": -2},
         {"ph": "X", "cat": "kernel", "name": "bad ts", "pid": 0, "tid": 7, "ts": 1e400, "dur": 1},
         {"ph": "Q", "cat": "kernel", "name": "odd ph", "pid": 0, "tid": 7, "ts": 1, "dur": 1},
         {"cat": "kernel", "name": "no ph", "pid": 0, "tid": 7, "ts": 1, "dur": 1},
         42, "text", null, [1],
         {"ph": "X", "cat": "kernel", "name": "good", "pid": 0, "tid": 7, "ts": 1, "dur": 1,
          "args": null})"));
  REQUIRE(trace.activities.size() == 1);
  CHECK(trace.Name(trace.activities[0].name) == "good");
  CHECK(Count(trace, "kineto.event_without_ts") == 1);
  CHECK(Count(trace, "kineto.event_without_dur") == 1);
  CHECK(Count(trace, "kineto.bad_dur") == 1);
  CHECK(Count(trace, "kineto.negative_dur") == 1);
  CHECK(Count(trace, "kineto.bad_ts") == 1);
  CHECK(Count(trace, "kineto.unknown_ph") == 1);
  CHECK(Count(trace, "kineto.event_without_ph") == 1);
  CHECK(Count(trace, "kineto.non_object_event") == 4);
}

TEST_CASE("Kineto survives integers beyond int64 and empty device lists", "[kineto]") {
  model::Trace trace = Import(
      R"({"schemaVersion": 1, "deviceProperties": [], "distributedInfo": {"backend": "nccl"},
          "traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 0,
          "tid": 1, "ts": 200, "dur": 100, "args": {"Comms Id": 10159970886766084423,
          "External id": 99999999999999999999}}]})");
  REQUIRE(trace.host_ops.size() == 1);
  CHECK(trace.devices.empty());
  CHECK_FALSE(trace.metadata.rank.has_value());
  CHECK(trace.metadata.distributed_backend == "nccl");
}

TEST_CASE("Kineto structural errors are one line naming the input and the byte", "[kineto]") {
  CHECK(ErrorOf(Events(std::string(kKernel) + ",")) ==
        "t.json: invalid JSON: trailing comma before ']' at byte 362");
  CHECK(ErrorOf(std::string(R"({"traceEvents": [)") + kKernel) ==
        "t.json: invalid JSON: truncated JSON: the document ends inside an array at byte 361");
  CHECK(ErrorOf(R"({"traceEvents": {}})") == "t.json: \"traceEvents\" is not an array at byte 16");
  CHECK(ErrorOf(R"({"traceEvents": [], "x": 1} {})") ==
        "t.json: invalid JSON: unexpected data after the JSON document at byte 28");
  // Not accepted by the probe: the registry's message names what the input is.
  CHECK(ErrorOf("") == "t.json: not a trace gpuperf reads: the file is empty");
  CHECK(ErrorOf(R"({"schema": "1.0.1", "pid": 1, "nodes": []})").find("Execution Trace") !=
        std::string::npos);
  CHECK(ErrorOf(R"({"displayTimeUnit": "ms"})").rfind("t.json: not a trace gpuperf reads", 0) == 0);
}

TEST_CASE("Kineto importer verifies what the probe let through", "[kineto]") {
  // The probe sees "ph" and "ts" in the head; the full read finds no events.
  CHECK(ErrorOf(R"({"ph": 1, "ts": 2})") ==
        "t.json: not a Chrome trace: no \"traceEvents\" array in the top-level object at byte 17");
  CHECK(ErrorOf(R"([1, 2, "ph", "ts"])") ==
        "t.json: not a Chrome trace: the top-level array holds no event objects at byte 0");
  // An Execution Trace never passes the probe; Import() called directly still refuses it.
  auto importer = MakeKinetoImporter();
  std::string et = R"({"schema": "1.0.1", "pid": 1, "nodes": [{"name": "x", "id": 2}]})";
  CHECK_FALSE(importer->Probe(et));
  auto input = Input::FromMemory(et, "et.json");
  REQUIRE(input.ok());
  auto trace = importer->Import(*input);
  REQUIRE_FALSE(trace.ok());
  CHECK(trace.error().message ==
        "et.json: a PyTorch Execution Trace (operator graph with \"nodes\", no timeline), not a "
        "Kineto Chrome trace; record one with torch.profiler at byte 30");
}

TEST_CASE("Kineto probe wants JSON with traceEvents or ph and ts", "[kineto]") {
  auto importer = MakeKinetoImporter();
  CHECK(importer->Probe("\xEF\xBB\xBF  {\"traceEvents\": ["));
  CHECK(importer->Probe(R"([{"ph": "X", "ts": 1)"));
  CHECK_FALSE(importer->Probe(R"({"displayTimeUnit": "ms"})"));
  CHECK_FALSE(importer->Probe("ph,ts\n1,2\n"));
  CHECK_FALSE(importer->Probe(""));
}

}  // namespace
}  // namespace gpuperf::io
