// The Kineto importer on the shared corpus of real traces ($GPUPERF_CORPUS/kineto).
//
// Expected counts were computed independently with Python's json module (timestamps as
// Decimal), by a throwaway script run once from $GPUPERF_CORPUS/kineto:
//   python3 count2.py <file>   # per file: X events by lower-cased cat; kernel/gpu_memcpy/
//   gpu_memset (and 2021 Kernel/Memcpy/Memset) = GPU activities; cuda_runtime/runtime/
//   cuda_driver = API calls; orphans = GPU activities whose args.correlation is not the
//   correlation of any API call; kernels per correlation = Counter(args.correlation).
#include "gpuperf/import.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>

#include "corpus.h"

namespace gpuperf::io {
namespace {

std::int64_t Count(const model::Trace& trace, const std::string& what) {
  auto diagnostic = gpuperf::model::FindDiagnostic(what);  // a catalogue name
  REQUIRE(diagnostic);
  return trace.diagnostics.Get(*diagnostic);
}

std::size_t CountKind(const model::Trace& trace, model::ActivityKind kind) {
  return static_cast<std::size_t>(std::count_if(
      trace.activities.begin(), trace.activities.end(), [&](const model::GpuActivity& a) {
        return a.kind == kind;
      }));
}

std::optional<model::Trace> Load(const std::string& relative) {
  auto path = gpuperf::testing::CorpusFile(relative);
  if (!path)
    return std::nullopt;
  auto trace = ImportTraceFile(*path);
  if (!trace.ok())
    FAIL(trace.error().message);
  return std::move(trace).value();
}

bool IsExecutionTrace(const std::filesystem::path& path) {
  std::string name = path.filename().string();
  return path.parent_path().filename() == "execution_trace" && name.ends_with("_et.json.gz");
}

TEST_CASE("Kineto corpus: every file imports, Execution Traces are refused", "[kineto][corpus]") {
  auto root = gpuperf::testing::CorpusFile("kineto");
  if (!root)
    return;
  int imported = 0;
  int refused = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(*root)) {
    if (!entry.is_regular_file())
      continue;
    INFO(entry.path().string());
    auto trace = ImportTraceFile(entry.path().string());
    if (IsExecutionTrace(entry.path())) {
      REQUIRE_FALSE(trace.ok());
      CHECK(trace.error().message.find("Execution Trace") != std::string::npos);
      CHECK(trace.error().message.rfind(entry.path().string(), 0) == 0);
      ++refused;
      continue;
    }
    if (!trace.ok())
      FAIL(trace.error().message);
    CHECK(trace->metadata.format == "kineto");
    CHECK(trace->metadata.framework_profiler);  // stamped by the importer's trait
    ++imported;
  }
  CHECK(refused == 1);
  CHECK(imported >= 40);  // 48 files when this was written; new ones only add
}

TEST_CASE("Kineto corpus: TraceLens H100 BERT counts", "[kineto][corpus]") {
  auto trace = Load("kineto/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz");
  if (!trace)
    return;
  CHECK(CountKind(*trace, model::ActivityKind::kKernel) == 60);
  CHECK(CountKind(*trace, model::ActivityKind::kMemcpy) == 1);
  CHECK(trace->api_calls.size() == 132);
  CHECK(trace->host_ops.size() == 479);
  CHECK(trace->memory_events.size() == 236);
  CHECK(trace->devices.size() == 1);
  CHECK(Count(*trace, "kineto.orphan_gpu_activity") == 0);
}

TEST_CASE("Kineto corpus: HTA trace_diff/test CUDA graphs share one correlation",
          "[kineto][corpus]") {
  auto trace = Load("kineto/hta/trace_diff/test/test.json.gz");
  if (!trace)
    return;
  CHECK(CountKind(*trace, model::ActivityKind::kKernel) == 9876);
  CHECK(CountKind(*trace, model::ActivityKind::kMemcpy) == 4856);
  CHECK(CountKind(*trace, model::ActivityKind::kMemset) == 900);
  std::map<std::int64_t, int> per_correlation;
  for (const auto& a : trace->activities) {
    if (a.kind == model::ActivityKind::kKernel)
      ++per_correlation[a.correlation];
  }
  int most = 0;
  for (const auto& [correlation, n] : per_correlation)
    most = std::max(most, n);
  CHECK(most == 429);  // one cudaGraphLaunch -> 429 kernels (502 with memcpy / memset)
  CHECK(Count(*trace, "kineto.orphan_gpu_activity") == 614);
  CHECK(trace->metadata.rank == 1);
  CHECK(trace->metadata.world_size == 2);
  CHECK(trace->devices.size() == 2);
}

TEST_CASE("Kineto corpus: 2021-01 bare array with string tids", "[kineto][corpus]") {
  auto trace = Load("kineto/pytorch-kineto/2021-01/worker0.pt.trace.json.gz");
  if (!trace)
    return;
  CHECK(CountKind(*trace, model::ActivityKind::kKernel) == 9538);
  CHECK(trace->activities.size() == 9927);
  CHECK(trace->api_calls.size() == 10800);
  CHECK(trace->host_ops.size() == 42438);
  CHECK(Count(*trace, "kineto.zero_duration_gpu_activity") == 309);
  CHECK(Count(*trace, "kineto.orphan_gpu_activity") == 765);
  // "tid": "4093687616" (a string) becomes the integer.
  CHECK(trace->host_ops.front().tid == 4093687616);
  CHECK(trace->activities.front().stream == 7);  // "tid": "stream 7", args.stream 7
}

TEST_CASE("Kineto corpus: ns-resolution timestamps are exact", "[kineto][corpus]") {
  auto trace = Load("kineto/hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz");
  if (!trace)
    return;
  CHECK(CountKind(*trace, model::ActivityKind::kKernel) == 4350);
  model::TimeNs first = INT64_MAX;
  for (const auto& a : trace->activities) {
    if (a.kind == model::ActivityKind::kKernel)
      first = std::min(first, a.start_ns);
  }
  CHECK(first == 1712195495505582988);  // "ts": 1712195495505582.988
  CHECK(trace->metadata.time_base_ns == 0);
  CHECK(trace->devices.size() == 8);
}

TEST_CASE("Kineto corpus: memory instants, syncs, computeProperties", "[kineto][corpus]") {
  if (auto trace = Load("kineto/switchtransformers/trace.json")) {
    CHECK(trace->memory_events.size() == 1070);
    CHECK(CountKind(*trace, model::ActivityKind::kKernel) == 484);
  }
  if (auto trace = Load("kineto/hta/critical_path/cuda_event_sync/event_sync_trace.json.gz")) {
    CHECK(trace->syncs.size() == 4);
    CHECK(trace->api_calls.size() == 12);
  }
  if (auto trace = Load("kineto/pytorch-kineto/gpu_metrics_input.json")) {
    REQUIRE(trace->devices.size() == 4);
    CHECK(trace->devices[0].name == "Tesla V100-DGXS-32GB");
    CHECK(trace->devices[0].sm_count == 80);
    CHECK(trace->devices[0].memory_bytes == 34084028416);
  }
  if (auto trace = Load("kineto/tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz")) {
    CHECK(CountKind(*trace, model::ActivityKind::kKernel) == 1465);
    CHECK(Count(*trace, "kineto.orphan_gpu_activity") == 509);
    CHECK(trace->memory_events.size() == 2450);
  }
}

}  // namespace
}  // namespace gpuperf::io
