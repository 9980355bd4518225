// The nsys importer on the real exports in $GPUPERF_CORPUS/nsys. Expected numbers come from the
// corpus README, the nsys-stats gold files, or the sqlite3 query cited beside each check.
#include "gpuperf/import.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "corpus.h"

namespace {

namespace model = gpuperf::model;
using gpuperf::io::ImportTraceFile;

std::int64_t CountKind(const model::Trace& trace, model::ActivityKind kind) {
  return std::count_if(trace.activities.begin(),
                       trace.activities.end(),
                       [&](const model::GpuActivity& a) { return a.kind == kind; });
}

std::int64_t CountDriverCalls(const model::Trace& trace) {
  return std::count_if(trace.api_calls.begin(), trace.api_calls.end(), [](const model::ApiCall& c) {
    return c.kind == model::ApiKind::kDriver;
  });
}

model::Trace Import(const std::string& path) {
  auto trace = ImportTraceFile(path);
  INFO((trace.ok() ? path : trace.error().message));
  REQUIRE(trace.ok());
  return std::move(trace).value();
}

TEST_CASE("nsys corpus: every export under nsys/ imports", "[nsys][corpus]") {
  const char* root = std::getenv("GPUPERF_CORPUS");
  if (root == nullptr || *root == '\0') {
    WARN("SKIPPED: GPUPERF_CORPUS is unset, nsys corpus not checked");
    return;
  }
  int imported = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(std::filesystem::path(root) / "nsys")) {
    if (entry.path().extension() != ".sqlite")
      continue;
    model::Trace trace = Import(entry.path().string());
    CHECK(trace.metadata.format == "nsys-sqlite");
    CHECK_FALSE(trace.metadata.framework_profiler);
    CHECK_FALSE(trace.metadata.producer.empty());
    CHECK(trace.devices.size() >= 1);
    CHECK(trace.metadata.time_base_ns > 0);
    ++imported;
  }
  CHECK(imported == 4);  // README: four SQLite exports
}

TEST_CASE("nsys corpus: pipit saxpy (nsys 2022.2, schema 2.9)", "[nsys][corpus]") {
  auto path = gpuperf::testing::CorpusFile("nsys/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite");
  if (!path)
    return;
  model::Trace trace = Import(*path);
  CHECK(trace.metadata.producer == "nsys 2022.2.1.31");
  CHECK(trace.metadata.format_version == "2.9.1");
  // SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME
  CHECK(trace.metadata.time_base_ns == 1687813257637297504);
  CHECK(CountKind(trace, model::ActivityKind::kKernel) == 5);
  CHECK(CountKind(trace, model::ActivityKind::kMemcpy) == 15);
  CHECK(CountKind(trace, model::ActivityKind::kMemset) == 0);
  CHECK(trace.api_calls.size() == 95);
  // SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59 AND end IS NOT NULL  -> 22
  // (the other 2 rows: one NvtxThread (39), one DomainCreate (75) naming domain 1 "MPI").
  CHECK(trace.ranges.size() == 22);
  CHECK(trace.diagnostics.Get(gpuperf::model::Diagnostic::kNsysNvtxOtherEventSkipped) == 1);
  // gold gpukernsum.csv: 5 instances, total 88573480 ns, min 17700808, max 17733416.
  std::int64_t total = 0, min = INT64_MAX, max = 0;
  for (const auto& a : trace.activities) {
    if (a.kind != model::ActivityKind::kKernel)
      continue;
    CHECK(trace.Name(a.name) == "saxpy(double *, double *, double *, double, int)");
    CHECK(a.grid == model::Dim3{2, 1, 1});
    CHECK(a.block == model::Dim3{512, 1, 1});
    total += a.duration_ns();
    min = std::min(min, a.duration_ns());
    max = std::max(max, a.duration_ns());
  }
  CHECK(total == 88573480);
  CHECK(min == 17700808);
  CHECK(max == 17733416);
  // gold nvtxsum.csv: "MPI:MPI_Send" 10 instances; ranges without a domain: "saxpy" 5.
  std::int64_t mpi_send = 0;
  for (const auto& r : trace.ranges) {
    mpi_send += trace.Name(r.domain) == "MPI" && trace.Name(r.name) == "MPI_Send";
  }
  CHECK(mpi_send == 10);
  REQUIRE(trace.devices.size() == 1);
  CHECK(trace.devices[0].name == "NVIDIA A100-SXM4-40GB");
  CHECK(trace.devices[0].peak_bandwidth_bytes_per_s == 1.5552e12);
}

TEST_CASE("nsys corpus: pipit cloverleaf (nsys 2024.5, 4 GPUs)", "[nsys][corpus]") {
  auto path = gpuperf::testing::CorpusFile("nsys/pipit/perlmutter-cloverleaf-cuda.sqlite");
  if (!path)
    return;
  model::Trace trace = Import(*path);
  CHECK(trace.metadata.format_version == "3.13.2");
  CHECK(trace.metadata.properties.at("nsys.metadata_table") == "META_DATA_EXPORT");
  CHECK(CountKind(trace, model::ActivityKind::kKernel) == 1312);
  CHECK(CountKind(trace, model::ActivityKind::kMemcpy) == 279);
  CHECK(trace.api_calls.size() == 3048);
  // SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId
  //   WHERE s.value LIKE 'cu%' AND s.value NOT LIKE 'cuda%'  -> 1
  CHECK(CountDriverCalls(trace) == 1);
  CHECK(trace.syncs.size() == 1312);  // all syncType 1 (event sync)
  CHECK(trace.ranges.empty());        // no NVTX_EVENTS table
  REQUIRE(trace.devices.size() == 4);
  for (int i = 0; i < 4; ++i) {
    CHECK(trace.devices[i].id == i);
    CHECK(trace.devices[i].name == "NVIDIA A100-SXM4-80GB");
    CHECK(trace.devices[i].peak_bandwidth_bytes_per_s == 2.03904e12);
    CHECK(trace.devices[i].max_threads_per_sm == 2048);
  }
  // SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL  -> 294404540
  std::int64_t kernel_ns = 0;
  for (const auto& a : trace.activities) {
    if (a.kind == model::ActivityKind::kKernel)
      kernel_ns += a.duration_ns();
  }
  CHECK(kernel_ns == 294404540);
  CHECK(trace.processes.size() == 1770);  // SELECT count(*) FROM PROCESSES
  // Nothing skipped or repaired. The host records: SELECT count(*) FROM OSRT_API, FROM
  // COMPOSITE_EVENTS; every sample has a stackDepth-0 frame.
  CHECK(trace.diagnostics.counts.empty());
  CHECK(trace.os_calls.size() == 1831);
  CHECK(trace.cpu_samples.size() == 1531);
  // SELECT sum(end - start) FROM OSRT_API JOIN StringIds ON id = nameId WHERE value = 'write'
  std::int64_t write_ns = 0;
  for (const model::OsCall& c : trace.os_calls) {
    if (trace.Name(c.name) == "write")
      write_ns += c.end_ns - c.start_ns;
  }
  CHECK(write_ns == 19377264);
}

TEST_CASE("nsys corpus: nvfuser H200 (nsys 2024.6)", "[nsys][corpus]") {
  auto path = gpuperf::testing::CorpusFile("nsys/nvfuser-h200/report1.sqlite");
  if (!path)
    return;
  model::Trace trace = Import(*path);
  CHECK(trace.metadata.producer == "nsys 2024.6.2.25");
  CHECK(CountKind(trace, model::ActivityKind::kKernel) == 19);
  CHECK(CountKind(trace, model::ActivityKind::kMemcpy) == 1);
  CHECK(CountKind(trace, model::ActivityKind::kMemset) == 1);
  CHECK(trace.api_calls.size() == 968);
  CHECK(CountDriverCalls(trace) == 885);  // same query as for cloverleaf
  CHECK(trace.ranges.size() == 652);      // all 652 rows are eventType 59 with an end
  REQUIRE(trace.syncs.size() == 1);
  CHECK(trace.syncs[0].kind == model::SyncKind::kStreamWaitEvent);
  // SELECT bytes, memKind FROM CUPTI_ACTIVITY_KIND_MEMSET  -> 4|2
  for (const auto& a : trace.activities) {
    if (a.kind != model::ActivityKind::kMemset)
      continue;
    CHECK(a.bytes == 4);
    CHECK(a.src_kind == model::MemoryKind::kDevice);
  }
  REQUIRE(trace.devices.size() == 1);
  CHECK(trace.devices[0].name == "NVIDIA H200");
  CHECK(trace.devices[0].peak_bandwidth_bytes_per_s == 4.916736e12);
  CHECK(trace.devices[0].sm_clock_hz == 1.98e9);
  CHECK(trace.devices[0].sm_count == 132);
  CHECK(trace.diagnostics.counts.empty());
}

TEST_CASE("nsys corpus: lighttransport gemm has runtime rows but no GPU work", "[nsys][corpus]") {
  auto path = gpuperf::testing::CorpusFile("nsys/lighttransport-gemm/profile.sqlite");
  if (!path)
    return;
  model::Trace trace = Import(*path);
  CHECK(trace.metadata.format_version == "3.17.2");
  CHECK(trace.activities.empty());
  REQUIRE(trace.api_calls.size() == 3);
  CHECK(CountDriverCalls(trace) == 3);  // cuCtxSetCurrent, cuStreamCreate, cuInit
  REQUIRE(trace.devices.size() == 1);
  CHECK(trace.devices[0].name == "NVIDIA GeForce RTX 5060 Ti");
  CHECK(trace.devices[0].compute_major == 12);
}

}  // namespace

// Throughput, not a correctness check: hidden ([.]), run by hand:
//   GPUPERF_NSYS_BENCH=/tmp/big.sqlite gpuperf_unit_tests "[.nsys_bench]" -s
// Rows = records imported plus rows counted as skipped.
TEST_CASE("nsys import throughput", "[.nsys_bench]") {
  const char* file = std::getenv("GPUPERF_NSYS_BENCH");
  if (file == nullptr) {
    WARN("SKIPPED: set GPUPERF_NSYS_BENCH to an nsys SQLite export");
    return;
  }
  auto begin = std::chrono::steady_clock::now();
  model::Trace trace = Import(file);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  std::int64_t rows = static_cast<std::int64_t>(
      trace.activities.size() + trace.api_calls.size() + trace.syncs.size() + trace.ranges.size() +
      trace.processes.size() + trace.devices.size() + trace.memory_events.size());
  for (const auto& [what, n] : trace.diagnostics.counts)
    rows += n;
  WARN(file << ": " << rows << " rows in " << seconds << " s = " << rows / seconds << " rows/s");
  CHECK(rows > 0);
}
