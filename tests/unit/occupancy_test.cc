// Theoretical occupancy: hand-computed cases with the rules of NVIDIA's occupancy calculator
// (cuda_occupancy.h), the per-kernel attachment, and corpus traces that record launch attributes.
#include "analysis/kernel/occupancy.h"

#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "analysis_builder.h"
#include "corpus.h"
#include "model/sm_limits.h"

namespace {

namespace model = gpuperf::model;
namespace report = gpuperf::report;
using gpuperf::analysis::ComputeOccupancy;

report::KernelOccupancy Occupancy(int major,
                                  int minor,
                                  std::int64_t threads,
                                  std::int32_t registers,
                                  std::int64_t shared_memory) {
  const model::SmLimits* limits = model::FindSmLimits(major, minor);
  REQUIRE(limits != nullptr);
  return ComputeOccupancy(*limits, threads, registers, shared_memory);
}

void Check(const report::KernelOccupancy& o,
           int blocks,
           int warps,
           double theoretical,
           const std::string& limiter) {
  CHECK(o.active_blocks_per_sm == blocks);
  CHECK(o.active_warps_per_sm == warps);
  CHECK(o.theoretical == Approx(theoretical));
  CHECK(o.limiter == limiter);
}

model::Device MakeDevice(int major, int minor) {
  model::Device device;
  device.id = 0;
  device.name = "test GPU";
  device.compute_major = major;
  device.compute_minor = minor;
  return device;
}

void Launch(gpuperf::testing::TraceBuilder& b,
            const std::string& name,
            std::int64_t start,
            int threads,
            int registers,
            int shared_memory) {
  model::GpuActivity& a = b.Kernel(name, start, start + 100);
  a.grid = {1024, 1, 1};
  a.block = {threads, 1, 1};
  a.registers_per_thread = registers;
  a.shared_memory_bytes = shared_memory;
}

const report::KernelRow* Row(const report::AnalysisReport& r, const std::string& part) {
  auto it = std::find_if(r.kernels.begin(), r.kernels.end(), [&](const report::KernelRow& k) {
    return k.name.find(part) != std::string::npos;
  });
  return it == r.kernels.end() ? nullptr : &*it;
}

}  // namespace

TEST_CASE("occupancy: SM limits per compute capability", "[occupancy]") {
  REQUIRE(model::AllSmLimits().size() == 9);
  const model::SmLimits* a100 = model::FindSmLimits(8, 0);
  REQUIRE(a100 != nullptr);
  // The values nsys 2022.2 wrote for an A100 (TARGET_INFO_GPU of the pipit saxpy export).
  CHECK(a100->max_warps_per_sm == 64);
  CHECK(a100->max_blocks_per_sm == 32);
  CHECK(a100->registers_per_sm == 65536);
  CHECK(a100->shared_memory_per_sm == 167936);
  CHECK(a100->reserved_shared_memory_per_block == 1024);
  const model::SmLimits* h200 = model::FindSmLimits(9, 0);
  REQUIRE(h200 != nullptr);
  CHECK(h200->shared_memory_per_sm == 233472);  // TARGET_INFO_GPU maxShmemPerSm, nvfuser H200
  CHECK(model::FindSmLimits(7, 0)->reserved_shared_memory_per_block == 0);
  CHECK(model::FindSmLimits(7, 5)->max_warps_per_sm == 32);
  CHECK(model::FindSmLimits(8, 6)->max_warps_per_sm == 48);
  CHECK(model::FindSmLimits(6, 0) == nullptr);
  CHECK(model::FindSmLimits(0, 0) == nullptr);
}

TEST_CASE("occupancy: cc 8.0 hand-computed cases", "[occupancy]") {
  // 8 warps/block; warps 64/8 = 8 blocks; registers 32*32 = 1024/warp, 16384/1024 = 16 warps per
  // sub-partition = 64 warps = 8 blocks: a tie, reported as the warp limit. 100%.
  Check(Occupancy(8, 0, 256, 32, 0), 8, 64, 1.0, "warps");
  // 128 regs: 4096/warp, 4 warps per sub-partition = 16 warps = 2 blocks = 25%.
  Check(Occupancy(8, 0, 256, 128, 0), 2, 16, 0.25, "registers");
  // 48 KiB + 1 KiB reserved = 50176 B; 167936 / 50176 = 3 blocks x 4 warps = 12 warps.
  Check(Occupancy(8, 0, 128, 32, 48 * 1024), 3, 12, 12.0 / 64, "shared_memory");
  // 1024 threads = 32 warps: 2 blocks by warps; 64 regs: 2048/warp, 8 warps/sub-partition =
  // 32 warps = 1 block = 50%.
  Check(Occupancy(8, 0, 1024, 32, 0), 2, 64, 1.0, "warps");
  Check(Occupancy(8, 0, 1024, 64, 0), 1, 32, 0.5, "registers");
  // 32 threads: 1 warp/block, 32 blocks max = 32 warps = 50%.
  Check(Occupancy(8, 0, 32, 16, 0), 32, 32, 0.5, "max_blocks");
  // Rounding: 100 threads = 4 warps; 40 regs = 1280/warp (a multiple of 256), 16384/1280 = 12
  // warps per sub-partition = 48 warps = 12 blocks (without sub-partitions it would be 51 / 4).
  Check(Occupancy(8, 0, 100, 40, 0), 12, 48, 0.75, "registers");
  // 33 regs: 1056 -> 1280 per warp, same as 40.
  Check(Occupancy(8, 0, 100, 33, 0), 12, 48, 0.75, "registers");
  // Shared memory rounds to 128 B after the reserved KiB: 1000 + 1024 = 2024 -> 2048 B;
  // 167936 / 2048 = 82 blocks: not a limit.
  CHECK(Occupancy(8, 0, 256, 32, 1000).limiter == "warps");
}

TEST_CASE("occupancy: launches that cannot run", "[occupancy]") {
  Check(Occupancy(8, 0, 2048, 32, 0), 0, 0, 0, "block_size");
  // 1024 threads x 128 regs = 131072 registers > 65536 per block.
  Check(Occupancy(8, 0, 1024, 128, 0), 0, 0, 0, "registers");
  Check(Occupancy(8, 0, 128, 256, 0), 0, 0, 0, "registers");          // > 255 per thread
  Check(Occupancy(8, 0, 128, 32, 167936), 0, 0, 0, "shared_memory");  // + 1 KiB reserved
}

TEST_CASE("occupancy: cc 9.0, 7.0, 7.5 and 8.6 cases", "[occupancy]") {
  // H100: 100 KiB + 1 KiB = 103424 B; 233472 / 103424 = 2 blocks x 4 warps = 8 of 64.
  Check(Occupancy(9, 0, 128, 64, 100 * 1024), 2, 8, 0.125, "shared_memory");
  // 384 threads = 12 warps, 168 regs = 5376/warp, 16384/5376 = 3 warps per sub-partition = 12.
  Check(Occupancy(9, 0, 384, 168, 213180), 1, 12, 0.1875, "registers");
  // V100: no reserved shared memory; 98304 / 32768 = 3 blocks x 4 warps.
  Check(Occupancy(7, 0, 128, 32, 32 * 1024), 3, 12, 0.1875, "shared_memory");
  // V100: 64 regs = 2048/warp, 8 warps per sub-partition = 32 warps = 4 blocks of 8 warps.
  Check(Occupancy(7, 0, 256, 64, 0), 4, 32, 0.5, "registers");
  // Turing: 32 warps max, one block of 1024 threads fills it.
  Check(Occupancy(7, 5, 1024, 32, 0), 1, 32, 1.0, "warps");
  // GA10x: 48 warps max, one block of 32 warps: 2/3.
  Check(Occupancy(8, 6, 1024, 32, 0), 1, 32, 32.0 / 48, "warps");
}

TEST_CASE("occupancy: attached per kernel from launch attributes", "[occupancy]") {
  gpuperf::testing::TraceBuilder b;
  b.trace.devices.push_back(MakeDevice(8, 0));
  // Disagreeing instances: the most common configuration wins.
  Launch(b, "mixed", 0, 256, 128, 0);
  Launch(b, "mixed", 1000, 256, 128, 0);
  Launch(b, "mixed", 2000, 256, 32, 0);
  // No registers recorded: no occupancy.
  Launch(b, "no_registers", 3000, 256, 0, 0);
  // No block recorded.
  Launch(b, "no_block", 4000, 0, 32, 0);
  report::AnalysisReport r = gpuperf::analysis::Analyze(b.trace);
  const report::KernelRow* mixed = Row(r, "mixed");
  REQUIRE(mixed != nullptr);
  REQUIRE(mixed->occupancy);
  CHECK(mixed->occupancy->registers_per_thread == 128);
  CHECK(mixed->occupancy->instances == 2);
  CHECK(mixed->occupancy->instances_with_attributes == 3);
  CHECK(mixed->occupancy->compute_capability == "8.0");
  CHECK(mixed->occupancy->theoretical == Approx(0.25));
  CHECK(mixed->occupancy->limiter == "registers");
  CHECK(mixed->occupancy->evidence == gpuperf::report::EvidenceTier::kModeled);
  CHECK_FALSE(Row(r, "no_registers")->occupancy);
  CHECK_FALSE(Row(r, "no_block")->occupancy);
}

TEST_CASE("occupancy: achieved from counters, weighted by duration", "[occupancy]") {
  gpuperf::testing::TraceBuilder b;
  b.trace.devices.push_back(MakeDevice(9, 0));
  Launch(b, "measured", 0, 256, 64, 0);     // 100 ns
  Launch(b, "measured", 1000, 256, 64, 0);  // made 300 ns below
  Launch(b, "measured", 2000, 256, 64, 0);  // no counters: not averaged in
  Launch(b, "unmeasured", 3000, 256, 64, 0);
  b.trace.activities[1].end_ns = 1300;
  const std::string metric = "sm__warps_active.avg.pct_of_peak_sustained_active";
  b.trace.counters.push_back({0, {{metric, 40.0}}});
  b.trace.counters.push_back({1, {{metric, 80.0}}});
  report::AnalysisReport r = gpuperf::analysis::Analyze(b.trace);
  const report::KernelRow* measured = Row(r, "measured");
  REQUIRE(measured->occupancy);
  REQUIRE(measured->occupancy->achieved);
  CHECK(*measured->occupancy->achieved == Approx((100 * 0.4 + 300 * 0.8) / 400));  // 0.7
  CHECK(measured->occupancy->achieved_instances == 2);
  // 64 registers x 256 threads = 16384 of 65536 registers: 4 blocks, 32 of 64 warps.
  CHECK(measured->occupancy->theoretical == Approx(0.5));
  REQUIRE(Row(r, "unmeasured")->occupancy);
  CHECK_FALSE(Row(r, "unmeasured")->occupancy->achieved);
}

TEST_CASE("occupancy: tie between configurations keeps the smallest", "[occupancy]") {
  gpuperf::testing::TraceBuilder b;
  b.trace.devices.push_back(MakeDevice(9, 0));
  Launch(b, "k", 0, 256, 64, 0);
  Launch(b, "k", 1000, 128, 64, 0);
  report::AnalysisReport r = gpuperf::analysis::Analyze(b.trace);
  REQUIRE(r.kernels.size() == 1);
  REQUIRE(r.kernels[0].occupancy);
  CHECK(r.kernels[0].occupancy->threads_per_block == 128);
  CHECK(r.kernels[0].occupancy->instances == 1);
}

TEST_CASE("occupancy: none without a known compute capability", "[occupancy]") {
  gpuperf::testing::TraceBuilder b;
  Launch(b, "k", 0, 256, 32, 0);
  CHECK_FALSE(gpuperf::analysis::Analyze(b.trace).kernels[0].occupancy);  // no device record
  b.trace.devices.push_back(MakeDevice(0, 0));
  CHECK_FALSE(gpuperf::analysis::Analyze(b.trace).kernels[0].occupancy);  // cc unknown
  b.trace.devices[0] = MakeDevice(6, 1);
  CHECK_FALSE(gpuperf::analysis::Analyze(b.trace).kernels[0].occupancy);  // cc not in the table
}

TEST_CASE("occupancy corpus: nsys exports with launch attributes", "[occupancy][corpus]") {
  auto saxpy = gpuperf::testing::CorpusFile("nsys/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite");
  if (!saxpy)
    return;
  auto trace = gpuperf::io::ImportTraceFile(*saxpy);
  REQUIRE(trace.ok());
  report::AnalysisReport r = gpuperf::analysis::Analyze(trace.value());
  // SELECT blockX, registersPerThread, staticSharedMemory + dynamicSharedMemory ... -> 512|26|0
  // on an A100 (cc 8.0), 5 instances: 16 warps/block, 26 regs -> 1024/warp, 4 blocks = 64 warps.
  const report::KernelRow* row = Row(r, "saxpy");
  REQUIRE(row != nullptr);
  REQUIRE(row->occupancy);
  CHECK(row->occupancy->instances == 5);
  CHECK(row->occupancy->threads_per_block == 512);
  CHECK(row->occupancy->registers_per_thread == 26);
  Check(*row->occupancy, 4, 64, 1.0, "warps");

  auto nvfuser = gpuperf::testing::CorpusFile("nsys/nvfuser-h200/report1.sqlite");
  REQUIRE(nvfuser);
  auto h200 = gpuperf::io::ImportTraceFile(*nvfuser);
  REQUIRE(h200.ok());
  r = gpuperf::analysis::Analyze(h200.value());
  // nvjet: 384 threads, 168 regs, 213180 B dynamic shared memory on cc 9.0.
  row = Row(r, "nvjet_hsh_256x128");
  REQUIRE(row != nullptr);
  REQUIRE(row->occupancy);
  CHECK(row->occupancy->shared_memory_bytes == 213180);
  Check(*row->occupancy, 1, 12, 0.1875, "registers");
  CHECK(std::all_of(r.kernels.begin(), r.kernels.end(), [](const report::KernelRow& k) {
    return k.occupancy.has_value();
  }));
}

TEST_CASE("occupancy corpus: achieved from an Nsight Compute raw page", "[occupancy][corpus]") {
  auto raw = gpuperf::testing::CorpusFile("ncu/self-join-mistic-a100/profile.page_raw.csv");
  if (!raw)
    return;
  auto trace = gpuperf::io::ImportTraceFile(*raw);
  REQUIRE(trace.ok());
  report::AnalysisReport r = gpuperf::analysis::Analyze(trace.value());
  std::int64_t with_achieved = 0;
  for (const report::KernelRow& row : r.kernels) {
    if (!row.occupancy || !row.occupancy->achieved)
      continue;
    ++with_achieved;
    INFO(row.name);
    // Every launch of this file records Achieved Occupancy: all of them are averaged, and what
    // the warps achieved never exceeds what the launch configuration allows.
    CHECK(row.occupancy->achieved_instances == row.duration_ns.count);
    CHECK(*row.occupancy->achieved > 0);
    CHECK(*row.occupancy->achieved <= row.occupancy->theoretical + 1e-9);
  }
  CHECK(with_achieved == 5);
  // distanceCalculationsKernel: the first launches record 86.28% and 85.76% achieved.
  const report::KernelRow* distance = Row(r, "distanceCalculationsKernel");
  REQUIRE(distance);
  CHECK(*distance->occupancy->achieved > 0.80);
  CHECK(*distance->occupancy->achieved < 0.87);
}
