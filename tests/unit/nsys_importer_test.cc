// The nsys importer on tiny hand-built exports: field mapping, schema generations, and damage.
#include "gpuperf/import.h"

#include <catch2/catch.hpp>

#include <string>

#include "nsys_test_db.h"

namespace {

using gpuperf::io::ImportTraceMemory;
using gpuperf::testing::GlobalTid;
using gpuperf::testing::MakeSqliteImage;
namespace model = gpuperf::model;
namespace t = gpuperf::testing;

std::string Sql(std::initializer_list<std::string> parts) {
  std::string sql;
  for (const auto& part : parts)
    sql += part;
  return sql;
}

const long long kPid = 1701896;
const long long kTid = 1701900;

std::string MinimalOldExport() {
  return Sql(
      {t::kStringIdsSql,
       t::kOldMetaSql,
       t::kKernelSql,
       t::kMemcpySql,
       t::kRuntimeSql,
       "INSERT INTO StringIds VALUES (1, 'saxpy(double *, double *, double *, double, int)'),"
       " (2, 'saxpy'), (3, 'cudaLaunchKernel_v7000'), (4, 'cuLaunchKernel'),"
       " (5, 'cudaMemcpy_v3020');",
       "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1000, 1500, 0, 1, 7, 140, " +
           std::to_string(GlobalTid(kPid, 0)) + ", 1, 2, NULL, 16, 2, 1, 1, 512, 1, 1, 48, 1024);",
       // pipit adds a `name TEXT` column of its own: it must be ignored.
       "ALTER TABLE CUPTI_ACTIVITY_KIND_MEMCPY ADD COLUMN name TEXT;",
       "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (100, 400, 0, 1, 7, 120, " +
           std::to_string(GlobalTid(kPid, 0)) + ", 8192, 1, 0, 2, 'pipit');",
       "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES"
       " (900, 1100, 1, " +
           std::to_string(GlobalTid(kPid, kTid)) +
           ", 140, 3, 0, NULL),"
           " (50, 60, 1, " +
           std::to_string(GlobalTid(kPid, kTid)) +
           ", 141, 4, 0, NULL),"
           " (90, 450, 1, " +
           std::to_string(GlobalTid(kPid, kTid)) + ", 120, 5, 0, NULL);",
       "CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT,"
       " localTime TEXT);"
       "INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1687813257637297504, '', '');"});
}

TEST_CASE("nsys importer maps a minimal 2022.2-style export", "[nsys]") {
  std::string image = MakeSqliteImage(MinimalOldExport());
  auto trace = ImportTraceMemory(image, "old.sqlite");
  INFO((trace.ok() ? "" : trace.error().message));
  REQUIRE(trace.ok());
  CHECK(trace->metadata.format == "nsys-sqlite");
  CHECK(trace->metadata.producer == "nsys 2022.2.1.31");
  CHECK(trace->metadata.format_version == "2.9.1");
  CHECK(trace->metadata.time_base_ns == 1687813257637297504);
  CHECK(trace->diagnostics.counts.empty());

  REQUIRE(trace->activities.size() == 2);
  const model::GpuActivity& kernel = trace->activities[0];
  CHECK(kernel.kind == model::ActivityKind::kKernel);
  CHECK(trace->Name(kernel.name) == "saxpy(double *, double *, double *, double, int)");
  CHECK(kernel.start_ns == 1000);
  CHECK(kernel.duration_ns() == 500);
  CHECK(kernel.stream == 7);
  CHECK(kernel.context == 1);
  CHECK(kernel.correlation == 140);
  CHECK(kernel.pid == kPid);
  CHECK(kernel.grid == model::Dim3{2, 1, 1});
  CHECK(kernel.block == model::Dim3{512, 1, 1});
  CHECK(kernel.registers_per_thread == 16);
  CHECK(kernel.shared_memory_bytes == 48 + 1024);
  CHECK(kernel.graph_id == model::kNoId);  // no graphId column before 2025.5

  const model::GpuActivity& copy = trace->activities[1];
  CHECK(copy.kind == model::ActivityKind::kMemcpy);
  CHECK(copy.copy_kind == model::CopyKind::kHtoD);
  CHECK(copy.src_kind == model::MemoryKind::kPageable);
  CHECK(copy.dst_kind == model::MemoryKind::kDevice);
  CHECK(copy.bytes == 8192);

  REQUIRE(trace->api_calls.size() == 3);
  CHECK(trace->Name(trace->api_calls[0].name) == "cudaLaunchKernel_v7000");  // as recorded
  CHECK(trace->api_calls[0].kind == model::ApiKind::kRuntime);
  CHECK(trace->api_calls[0].pid == kPid);
  CHECK(trace->api_calls[0].tid == kTid);
  CHECK(trace->api_calls[0].correlation == 140);
  CHECK(trace->Name(trace->api_calls[1].name) == "cuLaunchKernel");
  CHECK(trace->api_calls[1].kind == model::ApiKind::kDriver);
  CHECK(trace->api_calls[2].kind == model::ApiKind::kRuntime);
}

TEST_CASE("nsys importer reads the newer META_DATA_EXPORT table and optional columns", "[nsys]") {
  std::string sql = Sql({t::kStringIdsSql,
                         t::kNewMetaSql,
                         t::kKernelSql,
                         "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN greenContextId INTEGER;"
                         "ALTER TABLE CUPTI_ACTIVITY_KIND_KERNEL ADD COLUMN graphId INTEGER;"
                         "INSERT INTO StringIds VALUES (0, 'k');"
                         "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (10, 20, 1, 1, 13, 5, NULL,"
                         " 0, 0, NULL, 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 77);"});
  auto trace = ImportTraceMemory(MakeSqliteImage(sql), "new.sqlite");
  REQUIRE(trace.ok());
  CHECK(trace->metadata.producer == "nsys 2025.5.1.121");
  CHECK(trace->metadata.format_version == "3.24.0");
  CHECK(trace->metadata.properties.at("nsys.metadata_table") == "META_DATA_EXPORT");
  CHECK(trace->metadata.time_base_ns == 0);  // no session start table
  REQUIRE(trace->activities.size() == 1);
  CHECK(trace->activities[0].graph_id == 77);
  CHECK(trace->activities[0].device == 1);
  CHECK(trace->activities[0].pid == model::kNoId);  // NULL globalPid tolerated
}

TEST_CASE("nsys importer accepts an export whose event tables are all missing", "[nsys]") {
  // nsys drops empty tables: no KERNEL, MEMCPY, MEMSET, SYNCHRONIZATION or NVTX_EVENTS here.
  std::string sql = Sql({t::kStringIdsSql,
                         t::kNewMetaSql,
                         t::kRuntimeSql,
                         "INSERT INTO StringIds VALUES (30, 'cuCtxSetCurrent');"
                         "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (5, 9, 1, 7, 3, 30, 0, "
                         "NULL);"});
  auto trace = ImportTraceMemory(MakeSqliteImage(sql), "gemm.sqlite");
  REQUIRE(trace.ok());
  CHECK(trace->activities.empty());
  CHECK(trace->ranges.empty());
  CHECK(trace->syncs.empty());
  REQUIRE(trace->api_calls.size() == 1);
  CHECK(trace->api_calls[0].kind == model::ApiKind::kDriver);
  CHECK(trace->api_calls[0].tid == 7);
}

TEST_CASE("nsys importer names NVTX ranges from text or StringIds and counts the rest", "[nsys]") {
  const std::string tid = std::to_string(GlobalTid(kPid, kTid));
  std::string sql = Sql({t::kStringIdsSql,
                         t::kOldMetaSql,
                         t::kNvtxSql,
                         "INSERT INTO StringIds VALUES (59, 'MPI_Init');"
                         "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, textId,"
                         " domainId) VALUES"
                         " (10, 20, 59, 'saxpy', " +
                             tid +
                             ", NULL, 0),"  // text range
                             " (30, 90, 59, NULL, " +
                             tid +
                             ", 59, 1),"  // textId range, domain 1
                             " (40, 50, 60, 'startend', " +
                             tid +
                             ", NULL, 0),"  // start/end range
                             " (5, NULL, 75, 'MPI', " +
                             tid +
                             ", NULL, 1),"  // domain create, after use
                             " (6, NULL, 34, 'mark', " +
                             tid +
                             ", NULL, 0),"  // marker
                             " (7, NULL, 39, 'MPI Rank 0', " +
                             tid +
                             ", NULL, 0),"  // thread name
                             " (8, NULL, 59, 'open', " +
                             tid +
                             ", NULL, 0),"  // push without pop
                             " (70, 60, 59, 'inverted', " +
                             tid + ", NULL, 0);"});
  auto trace = ImportTraceMemory(MakeSqliteImage(sql), "nvtx.sqlite");
  REQUIRE(trace.ok());
  REQUIRE(trace->ranges.size() == 3);
  CHECK(trace->Name(trace->ranges[0].name) == "saxpy");
  CHECK(trace->Name(trace->ranges[0].domain) == "");
  CHECK(trace->Name(trace->ranges[1].name) == "MPI_Init");
  CHECK(trace->Name(trace->ranges[1].domain) == "MPI");
  CHECK(trace->ranges[1].start_ns == 30);
  CHECK(trace->ranges[1].end_ns == 90);
  CHECK(trace->ranges[1].pid == kPid);
  CHECK(trace->ranges[1].tid == kTid);
  CHECK(trace->Name(trace->ranges[2].name) == "startend");
  CHECK(trace->ranges[2].kind == model::RangeKind::kNvtx);
  const model::Diagnostics& counts = trace->diagnostics;
  CHECK(counts.Get(model::Diagnostic::kNsysNvtxMarkerSkipped) == 1);
  CHECK(counts.Get(model::Diagnostic::kNsysNvtxOtherEventSkipped) == 1);
  CHECK(counts.Get(model::Diagnostic::kNsysNvtxUnterminatedRange) == 1);
  CHECK(counts.Get(model::Diagnostic::kNsysNvtxEndBeforeStart) == 1);
  CHECK(counts.counts.size() == 4);
}

TEST_CASE("nsys importer skips and counts malformed rows", "[nsys]") {
  std::string sql = Sql({t::kStringIdsSql,
                         t::kOldMetaSql,
                         t::kKernelSql,
                         t::kMemcpySql,
                         "INSERT INTO StringIds VALUES (1, 'k');"
                         "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, demangledName) VALUES"
                         " (100, 50, 1), (NULL, 50, 1), (-5, 50, 1), (10, 20, 999),"
                         " (10, 30, 'text-id');"
                         "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, demangledName, gridX,"
                         " blockX) VALUES (1, 2, 1, 3000000000, -4);"
                         // A TEXT byte count, an unknown copy kind and a UVM copy kind.
                         "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, bytes, copyKind,"
                         " srcKind) VALUES (1, 2, 'many', 42, 99), (3, 4, 64, 11, 1);"});
  auto trace = ImportTraceMemory(MakeSqliteImage(sql), "bad.sqlite");
  REQUIRE(trace.ok());
  const model::Diagnostics& counts = trace->diagnostics;
  CHECK(counts.Get(model::Diagnostic::kNsysKernelEndBeforeStart) == 1);
  CHECK(counts.Get(model::Diagnostic::kNsysKernelNullTime) == 1);
  CHECK(counts.Get(model::Diagnostic::kNsysKernelNegativeTime) == 1);
  CHECK(counts.Get(model::Diagnostic::kNsysStringIdMissing) == 1);
  CHECK(counts.Get(model::Diagnostic::kNsysKernelNullName) == 1);
  CHECK(counts.Get(model::Diagnostic::kNsysKernelLaunchDimOutOfRange) == 2);
  REQUIRE(trace->activities.size() == 5);
  CHECK(trace->Name(trace->activities[0].name) == "<unknown string 999>");
  CHECK(trace->activities[2].grid == model::Dim3{0x7FFFFFFF, 0, 0});
  CHECK(trace->activities[2].block == model::Dim3{0, 0, 0});
  CHECK(trace->activities[3].bytes == 0);
  CHECK(trace->activities[3].copy_kind == model::CopyKind::kUnknown);
  CHECK(trace->activities[3].src_kind == model::MemoryKind::kUnknown);
  CHECK(trace->activities[4].copy_kind == model::CopyKind::kHtoD);
  CHECK(trace->activities[4].src_kind == model::MemoryKind::kPinned);
}

}  // namespace

TEST_CASE("nsys importer reads OS runtime calls and CPU samples by their innermost frame",
          "[nsys]") {
  const std::string tid = std::to_string(GlobalTid(kPid, kTid));
  std::string sql =
      MinimalOldExport() +
      "INSERT INTO StringIds VALUES (10, 'write'), (11, 'ioctl'), (12, 'main_loop(int)'),"
      " (13, '/usr/bin/app'), (14, '0x7f0000001234'), (15, '/usr/lib64/libcuda.so.1'),"
      " (16, '[vdso]');"
      "CREATE TABLE OSRT_API (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER,"
      " nameId INTEGER, returnValue INTEGER, nestingLevel INTEGER, callchainId INTEGER);"
      "INSERT INTO OSRT_API VALUES (100, 900, 27, " +
      tid + ", 10, 0, 0, 0), (1000, 1900, 27, " + tid + ", 11, 0, 0, 0), (NULL, 5, 27, " + tid +
      ", 10, 0, 0, 0), (50, 40, 27, " + tid +
      ", 10, 0, 0, 0);"
      "CREATE TABLE COMPOSITE_EVENTS (id INTEGER, start INTEGER, cpu INTEGER, threadState "
      "INTEGER, globalTid INTEGER, cpuCycles INTEGER);"
      "INSERT INTO COMPOSITE_EVENTS VALUES (1, 500, 0, 1, " +
      tid + ", 0), (2, 600, 0, 1, " + tid + ", 0), (3, 700, 0, 1, " + tid +
      ", 0), (4, NULL, 0, 1, " + tid + ", 0), (5, 800, 0, 1, " + tid +
      ", 0);"
      "CREATE TABLE SAMPLING_CALLCHAINS (id INTEGER, symbol INTEGER, module INTEGER, kernelMode "
      "INTEGER, thumbCode INTEGER, unresolved INTEGER, specialEntry INTEGER, originalIP INTEGER,"
      " unwindMethod INTEGER, stackDepth INTEGER);"
      "INSERT INTO SAMPLING_CALLCHAINS VALUES (1, 12, 13, NULL, NULL, NULL, NULL, 0, 7, 0),"
      " (1, 14, 15, NULL, NULL, 1, NULL, 0, 7, 1), (2, 14, 15, NULL, NULL, 1, NULL, 0, 7, 0),"
      " (5, 14, 16, NULL, NULL, 1, NULL, 0, 7, 0);";
  auto trace = ImportTraceMemory(MakeSqliteImage(sql), "host.sqlite");
  REQUIRE(trace.ok());
  REQUIRE(trace->os_calls.size() == 2);
  CHECK(trace->Name(trace->os_calls[0].name) == "write");
  CHECK(trace->os_calls[0].start_ns == 100);
  CHECK(trace->os_calls[0].end_ns == 900);
  CHECK(trace->os_calls[0].pid == kPid);
  CHECK(trace->os_calls[0].tid == kTid);
  CHECK(trace->Name(trace->os_calls[1].name) == "ioctl");
  CHECK(trace->diagnostics.Get(model::Diagnostic::kNsysOsrtNullTime) == 1);
  CHECK(trace->diagnostics.Get(model::Diagnostic::kNsysOsrtEndBeforeStart) == 1);
  REQUIRE(trace->cpu_samples.size() == 4);
  // The innermost frame (stackDepth 0) names a sample; an unresolved one by its module's file.
  CHECK(trace->Name(trace->cpu_samples[0].function) == "main_loop(int)");
  CHECK(trace->Name(trace->cpu_samples[1].function) == "[libcuda.so.1]");
  CHECK(trace->Name(trace->cpu_samples[2].function) == "[no call chain]");
  CHECK(trace->cpu_samples[2].time_ns == 700);
  CHECK(trace->cpu_samples[2].tid == kTid);
  CHECK(trace->Name(trace->cpu_samples[3].function) == "[vdso]");  // bracketed by nsys already
  CHECK(trace->diagnostics.Get(model::Diagnostic::kNsysCpuSampleNoCallchain) == 1);
  CHECK(trace->diagnostics.Get(model::Diagnostic::kNsysCpuSampleNullTime) == 1);
}
