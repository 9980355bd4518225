// The nsys importer on the recording's facts: GPUs, processes, syncs, memsets, memory events.
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

TEST_CASE("nsys importer reads TARGET_INFO_GPU and PROCESSES", "[nsys]") {
  std::string sql = std::string(t::kStringIdsSql) + t::kNewMetaSql +
                    "CREATE TABLE TARGET_INFO_GPU (vmId INTEGER, id INTEGER, name TEXT,"
                    " l2CacheSize INTEGER, totalMemory INTEGER, memoryBandwidth INTEGER,"
                    " clockRate INTEGER, smCount INTEGER, maxShmemPerSm INTEGER,"
                    " maxRegistersPerSm INTEGER, threadsPerWarp INTEGER, maxWarpsPerSm INTEGER,"
                    " maxThreadsPerBlock INTEGER, computeMajor INTEGER, computeMinor INTEGER);"
                    // Listed out of id order, as the 4-GPU cloverleaf export does.
                    "INSERT INTO TARGET_INFO_GPU VALUES"
                    " (0, 3, 'NVIDIA A100-SXM4-80GB', 41943040, 85051572224, 2039040000000,"
                    "  1410000000, 108, 167936, 65536, 32, 64, 1024, 8, 0),"
                    " (0, 0, 'NVIDIA H200', 62914560, 150006595584, 4916736000000, 1980000000,"
                    "  132, 233472, 65536, 32, 64, 1024, 9, 0),"
                    " (0, 0, 'duplicate', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
                    "  NULL, NULL, NULL);"
                    "CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);"
                    "INSERT INTO PROCESSES VALUES (" +
                    std::to_string(GlobalTid(4242, 0)) + ", 4242, 'saxpy'), (" +
                    std::to_string(GlobalTid(77, 0)) + ", NULL, NULL), (NULL, NULL, 'ghost');";
  auto trace = ImportTraceMemory(MakeSqliteImage(sql), "gpu.sqlite");
  REQUIRE(trace.ok());
  REQUIRE(trace->devices.size() == 2);
  const model::Device& h200 = trace->devices[0];
  CHECK(h200.id == 0);
  CHECK(h200.name == "NVIDIA H200");
  CHECK(h200.peak_bandwidth_bytes_per_s == 4.916736e12);
  CHECK(h200.sm_clock_hz == 1.98e9);
  CHECK(h200.sm_count == 132);
  CHECK(h200.memory_bytes == 150006595584);
  CHECK(h200.l2_bytes == 62914560);
  CHECK(h200.compute_major == 9);
  CHECK(h200.compute_minor == 0);
  CHECK(h200.max_threads_per_sm == 2048);  // 64 warps * 32 threads
  CHECK(h200.max_threads_per_block == 1024);
  CHECK(h200.registers_per_sm == 65536);
  CHECK(h200.shared_memory_per_sm == 233472);
  CHECK(h200.warp_size == 32);
  CHECK(trace->devices[1].id == 3);
  CHECK(trace->devices[1].compute_major == 8);
  CHECK(trace->diagnostics.Get(gpuperf::model::Diagnostic::kNsysGpuDuplicateId) == 1);

  REQUIRE(trace->processes.size() == 2);
  CHECK(trace->processes[0].pid == 4242);
  CHECK(trace->processes[0].name == "saxpy");
  CHECK(trace->processes[1].pid == 77);  // decoded from globalPid when pid is NULL
  CHECK(trace->diagnostics.Get(gpuperf::model::Diagnostic::kNsysProcessNullPid) == 1);
}

TEST_CASE("nsys importer reads syncs, memsets and GPU memory usage events", "[nsys]") {
  const std::string gpid = std::to_string(GlobalTid(900, 0));
  std::string sql =
      std::string(t::kStringIdsSql) + t::kNewMetaSql +
      "CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER, end INTEGER,"
      " deviceId INTEGER, contextId INTEGER, greenContextId INTEGER, streamId INTEGER,"
      " correlationId INTEGER, globalPid INTEGER, syncType INTEGER, eventId INTEGER);"
      "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES"
      " (10, 40, 0, 1, 0, 7, 55, " +
      gpid + ", 3, 0), (50, 60, 0, 1, 0, 7, 56, " + gpid +
      ", 9, 0);"
      "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER, end INTEGER, deviceId INTEGER,"
      " contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER,"
      " value INTEGER, bytes INTEGER, graphNodeId INTEGER, memKind INTEGER);"
      "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (70, 80, 0, 1, 7, 57, " +
      gpid +
      ", 0, 4096, NULL, 2);"
      "CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (start INTEGER, globalPid INTEGER,"
      " deviceId INTEGER, contextId INTEGER, address INTEGER, pc INTEGER, bytes INTEGER,"
      " memKind INTEGER, memoryOperationType INTEGER, name TEXT, correlationId INTEGER);"
      "INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS VALUES"
      " (5, " +
      gpid +
      ", 0, 1, 4096, 0, 1048576, 2, 0, NULL, 1),"
      " (95, " +
      gpid +
      ", 0, 1, 4096, 0, 1048576, 2, 1, NULL, 2),"
      " (99, " +
      gpid + ", 0, 1, 4096, 0, 1048576, 2, 7, NULL, 3);";
  auto trace = ImportTraceMemory(MakeSqliteImage(sql), "sync.sqlite");
  REQUIRE(trace.ok());
  REQUIRE(trace->syncs.size() == 2);
  CHECK(trace->syncs[0].kind == model::SyncKind::kStream);
  CHECK(trace->syncs[0].start_ns == 10);
  CHECK(trace->syncs[0].end_ns == 40);
  CHECK(trace->syncs[0].device == 0);
  CHECK(trace->syncs[0].stream == 7);
  CHECK(trace->syncs[0].correlation == 55);
  CHECK(trace->syncs[0].pid == 900);
  CHECK(trace->syncs[1].kind == model::SyncKind::kUnknown);
  CHECK(trace->diagnostics.Get(gpuperf::model::Diagnostic::kNsysSyncUnknownType) == 1);

  REQUIRE(trace->activities.size() == 1);
  CHECK(trace->activities[0].kind == model::ActivityKind::kMemset);
  CHECK(trace->activities[0].bytes == 4096);
  CHECK(trace->activities[0].src_kind == model::MemoryKind::kDevice);
  CHECK(trace->activities[0].correlation == 57);

  REQUIRE(trace->memory_events.size() == 2);
  CHECK(trace->memory_events[0].op == model::MemoryOp::kAllocate);
  CHECK(trace->memory_events[0].time_ns == 5);
  CHECK(trace->memory_events[0].bytes == 1048576);
  CHECK(trace->memory_events[0].pid == 900);
  CHECK(trace->memory_events[1].op == model::MemoryOp::kFree);
  CHECK(trace->diagnostics.Get(gpuperf::model::Diagnostic::kNsysMemoryEventMalformed) == 1);
}

TEST_CASE("nsys importer resolves sparse and huge StringIds ids", "[nsys]") {
  // Ids far beyond the row count must not size a vector by the largest id.
  std::string sql = std::string(t::kStringIdsSql) + t::kNewMetaSql + t::kKernelSql +
                    "INSERT INTO StringIds VALUES (9000000000000000000, 'far'), (3, 'near');"
                    "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, demangledName) VALUES"
                    " (1, 2, 9000000000000000000), (3, 4, 3), (5, 6, 4);";
  auto trace = ImportTraceMemory(MakeSqliteImage(sql), "sparse.sqlite");
  REQUIRE(trace.ok());
  REQUIRE(trace->activities.size() == 3);
  CHECK(trace->Name(trace->activities[0].name) == "far");
  CHECK(trace->Name(trace->activities[1].name) == "near");
  CHECK(trace->Name(trace->activities[2].name) == "<unknown string 4>");
}

}  // namespace
