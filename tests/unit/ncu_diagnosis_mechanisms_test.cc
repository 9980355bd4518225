// The Nsight Compute mechanisms of a standalone CSV on hand-built traces: compute roofs at the SM
// clock the counters record, cache traffic without on-chip reuse and its lever, no larger grid
// for a grid of many waves, the bound the diagnosis quotes next to the Amdahl limit, and an SM
// count the input does not record. Every figure is computed by hand below.
#include "gpuperf/analyze.h"

#include <catch2/catch.hpp>

#include <string>

#include "analysis/core/names.h"
#include "analysis/kernel/cache_reuse.h"
#include "analysis_builder.h"

using Catch::Detail::Approx;
using gpuperf::analysis::Analyze;
using gpuperf::testing::TraceBuilder;
namespace analysis = gpuperf::analysis;
namespace model = gpuperf::model;
namespace report = gpuperf::report;

namespace {

constexpr std::int64_t kS = 1'000'000'000;

using gpuperf::testing::Contains;

// What a `ncu --csv --metrics` file gives: device 0 with a compute capability (8.0: four A100
// candidates, 108 SMs, 19.5 TFLOP/s FP32 at the 1410 MHz boost clock) and no name or SM count.
// "gemm_naive" runs 1 s on a grid of `blocks` blocks at 705 MHz (half the boost clock): 2e12 FP32
// FLOPs (1e12 FFMA), 1e11 DRAM bytes, `l1_bytes` through L1/TEX. "tail" runs 0.25 s without
// counters, so the GEMM holds f = 0.8 of the window.
TraceBuilder NcuGemm(double l1_bytes, std::int32_t blocks) {
  TraceBuilder b;
  model::Device d;
  d.compute_major = 8;
  d.compute_minor = 0;
  b.trace.devices.push_back(d);
  b.Kernel("void gemm_naive<float>(float *, float *, float *, int, int, int)", 0, kS).grid = {
      blocks, 1, 1};
  b.Kernel("tail", kS, kS + kS / 4);
  model::KernelCounters c;
  c.activity = 0;
  c.metrics = {{"smsp__cycles_elapsed.avg.per_second", 705e6},
               {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 0},
               {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", 0},
               {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 1e12},
               {"dram__bytes.sum", 1e11},
               {"lts__t_bytes.sum", 2e11},
               {"l1tex__t_bytes.sum", l1_bytes}};
  b.trace.counters.push_back(c);
  return b;
}

const report::KernelRow& Gemm(const report::AnalysisReport& r) {
  for (const report::KernelRow& row : r.kernels) {
    if (Contains(row.name, "gemm_naive"))
      return row;
  }
  FAIL("no gemm row");
  return r.kernels.front();
}

}  // namespace

TEST_CASE("ncu clock: compute roofs scaled to the SM clock the counters record",
          "[ncu][roofline][ceilings]") {
  report::AnalysisReport r = Analyze(NcuGemm(4e11, 1'000'000).trace);
  const report::KernelRoofline& roof = *Gemm(r).roofline;
  // 2 TFLOP/s against 19.5 TFLOP/s x 705 / 1410 = 9.75 TFLOP/s: 20.5%, not the 10.3% of the
  // boost-clock peak. DRAM 100 GB/s over 1555-2039 GB/s: unscaled.
  REQUIRE(roof.sm_clock_hz);
  CHECK(*roof.sm_clock_hz == Approx(705e6));
  REQUIRE(roof.compute_fraction_range);
  CHECK(roof.compute_fraction_range->first == Approx(2e12 / 9.75e12));
  CHECK(roof.memory_fraction_range->second == Approx(1e11 / 1555e9));
  CHECK(*roof.floor_ns == std::llround(2e12 / 9.75e12 * 1e9));
  CHECK(Contains(roof.ceiling_source,
                 "compute peaks scaled to the 705 MHz SM clock the counters ran at "
                 "(smsp__cycles_elapsed.avg.per_second)"));
  CHECK(Contains(Gemm(r).classification.reason,
                 "compute roof scaled to the measured 705 MHz SM clock (counters)"));
  // Where the ceilings are listed: the candidates' clock and the one they are scaled to.
  REQUIRE(r.ceilings.size() == 1);
  CHECK(r.ceilings[0].entry.empty());
  CHECK(Contains(r.ceilings[0].clocks, "1.41 GHz boost clock"));
  CHECK(Contains(r.ceilings[0].clocks, "0.705 GHz (smsp__cycles_elapsed.avg.per_second)"));

  // Counters joined to another trace's timeline (analyze --counters): the durations are that
  // trace's, at a clock the counters do not tell, so the peaks stay at the boost clock.
  TraceBuilder joined = NcuGemm(4e11, 1'000'000);
  joined.trace.diagnostics.Count(model::Diagnostic::kCountersNcuLaunches, 1);
  report::AnalysisReport j = Analyze(joined.trace);
  CHECK_FALSE(Gemm(j).roofline->sm_clock_hz);
  CHECK(Gemm(j).roofline->compute_fraction_range->first == Approx(2e12 / 19.5e12));
  CHECK_FALSE(Contains(Gemm(j).classification.reason, "scaled"));
}

TEST_CASE(
    "no on-chip reuse: L1 traffic many times DRAM under 1 FLOP/byte is cache-bound, gets "
    "tiling",
    "[ncu][diagnosis]") {
  // 5e12 L1 bytes: 50x the DRAM bytes at 2e12 / 5e12 = 0.4 FLOP per L1 byte. Under both roofs
  // (the roofline says "latency"), but the cache hierarchy carries the traffic: cache-bound.
  report::AnalysisReport r = Analyze(NcuGemm(5e12, 1'000'000).trace);
  const report::KernelRow& gemm = Gemm(r);
  CHECK(gemm.roofline->bound == gpuperf::report::KernelBound::kLatency);
  CHECK(gemm.classification.bound == gpuperf::report::KernelBound::kCache);
  // The table and the chart show the roofline's bound refined by the class.
  CHECK(gemm.roofline->shown_bound == gpuperf::report::KernelBound::kCache);
  CHECK(Contains(gemm.classification.reason,
                 "L1/TEX traffic 50x the DRAM bytes at 0.4 FLOP per L1/TEX byte "
                 "(l1tex__t_bytes.sum, counters): cache/LSU traffic without on-chip reuse"));
  const report::Diagnosis& d = r.diagnosis;
  CHECK(d.bottleneck == gpuperf::report::Bottleneck::kCacheBound);
  // The traffic is measured; that the cache path limits the kernel is not, without a cache unit
  // seen near its peak or the warps' stalls: a hypothesis that names what would confirm it.
  CHECK(gemm.classification.evidence == gpuperf::report::EvidenceTier::kInferred);
  CHECK(Contains(gemm.classification.reason, "whether the cache path is at its limit"));
  CHECK(d.status == report::DiagnosisStatus::kHypothesis);
  CHECK(Contains(d.missing_evidence, "l1tex__throughput"));
  CHECK(Contains(d.missing_evidence, "WarpStateStats"));
  CHECK(Contains(d.next_experiment, "Give the dominant kernel on-chip reuse"));
  CHECK(Contains(d.next_experiment, "shared memory"));
  CHECK(Contains(d.next_experiment, "library GEMM"));  // a GEMM by name
  CHECK_FALSE(Contains(d.next_experiment, "larger grid"));
  CHECK(Contains(d.falsified_by, "l1tex__t_bytes.sum"));
  // The advice ends at a library GEMM on tensor cores, so the bound is at the TF32 tensor roof:
  // the FP32 roof at the counters' clock, 9.75 TFLOP/s, times the datasheet's TF32 / FP32 ratio
  // (156 / 19.5 = 8 on every cc 8.0 candidate) gives 2e12 / 78e12 = 0.0256 s. Without on-chip
  // reuse the naive kernel's DRAM bytes are no floor for a tiled GEMM: the FLOPs alone, 39x
  // locally, and at f = 0.8, 1 / (0.2 + 0.8 / 39) = 4.53x. At the FP32 floor alone: 4.875x.
  const double tensor_local = 1.0 / (2e12 / 78e12);
  REQUIRE(d.bound_speedup);
  CHECK(*d.bound_speedup == Approx(1.0 / (0.2 + 0.8 / tensor_local)).epsilon(1e-6));
  CHECK(Contains(d.next_experiment,
                 "the kernel at the TF32 tensor roof (39.00x faster locally, its FLOPs alone"));
  CHECK(Contains(d.next_experiment, "4.88x at its FP32 floor on CUDA cores"));
  CHECK(Contains(d.next_experiment, "at most 4.53x faster (Amdahl; 5.00x only if the kernel"));

  // A cache unit Speed of Light shows near its peak makes the class a finding.
  TraceBuilder busy = NcuGemm(5e12, 1'000'000);
  auto& metrics = busy.trace.counters[0].metrics;
  metrics["sm__throughput.avg.pct_of_peak_sustained_elapsed"] = 20;
  metrics["gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"] = 72;
  metrics["l1tex__throughput.avg.pct_of_peak_sustained_active"] = 72;
  report::AnalysisReport b = Analyze(busy.trace);
  CHECK(Gemm(b).classification.bound == gpuperf::report::KernelBound::kCache);
  CHECK(Gemm(b).classification.evidence == gpuperf::report::EvidenceTier::kMeasured);
  CHECK(Contains(Gemm(b).classification.reason, "the busiest cache unit runs at 72% of its peak"));
  CHECK(b.diagnosis.status == report::DiagnosisStatus::kFinding);

  // The same rule by itself: a DRAM-bound kernel, or one without FLOPs, has other answers.
  report::KernelRoofline roof = *gemm.roofline;
  REQUIRE(analysis::NoOnChipReuse(roof));
  CHECK(analysis::NoOnChipReuse(roof)->level == "L1/TEX");
  roof.bound = gpuperf::report::KernelBound::kMemory;
  CHECK_FALSE(analysis::NoOnChipReuse(roof));
  roof.bound = gpuperf::report::KernelBound::kLatency;
  roof.flops = 0;
  CHECK_FALSE(analysis::NoOnChipReuse(roof));
  // Without L1 counters L2 speaks: 2e12 L2 bytes, 20x DRAM at 0.5 FLOP/byte.
  roof = *gemm.roofline;
  roof.l1_bytes.reset();
  roof.l2_bytes = 4e12;
  REQUIRE(analysis::NoOnChipReuse(roof));
  CHECK(analysis::NoOnChipReuse(roof)->level == "L2");
  CHECK(analysis::NoOnChipReuse(roof)->flops_per_byte == Approx(0.5));
}

TEST_CASE("latency: no larger grid for a grid of many waves, and reuse only below 1 FLOP/byte",
          "[ncu][diagnosis]") {
  // 4e11 L1 bytes: 4x DRAM at 5 FLOP/byte, so reuse is there and the stall advice stands.
  report::AnalysisReport many = Analyze(NcuGemm(4e11, 1'000'000).trace);
  CHECK_FALSE(analysis::NoOnChipReuse(*Gemm(many).roofline));
  CHECK(many.diagnosis.bottleneck == gpuperf::report::Bottleneck::kLatencyBound);
  CHECK(Gemm(many).classification.bound ==
        gpuperf::report::KernelBound::kLatency);  // reuse there: not the cache
  // 1e6 blocks over 108 SMs (every cc 8.0 candidate) x 32 resident blocks: at least 289 waves.
  CHECK(Contains(many.diagnosis.next_experiment, "at least 289 waves"));
  CHECK_FALSE(Contains(many.diagnosis.next_experiment, "larger grid,"));
  // 200 blocks: under one wave even at one block per SM, so more blocks may help.
  report::AnalysisReport few = Analyze(NcuGemm(4e11, 200).trace);
  CHECK(Contains(few.diagnosis.next_experiment, "(larger grid, fewer registers)"));
  // With the SM count and the launch shape known, a full-occupancy grid of many waves is not
  // short of parallelism: the reason says the limit is per thread.
  auto shaped = [](std::int32_t blocks) {
    TraceBuilder b = NcuGemm(4e11, blocks);
    b.trace.devices.front().sm_count = 108;
    model::GpuActivity& k = b.trace.activities.front();
    k.block = {256, 1, 1};
    k.registers_per_thread = 32;
    return Analyze(b.trace);
  };
  report::AnalysisReport full = shaped(1'000'000);
  INFO(Gemm(full).classification.reason);
  CHECK(Contains(Gemm(full).classification.reason,
                 "at 100% theoretical occupancy on 1157 waves it has threads to spare"));
  CHECK_FALSE(Contains(Gemm(shaped(200)).classification.reason, "threads to spare"));
}

TEST_CASE("devices: an SM count the input does not record reads unknown, not 0", "[ncu]") {
  report::AnalysisReport r = Analyze(NcuGemm(4e11, 200).trace);
  CHECK(Contains(r.diagnosis.scope, "0: unnamed (cc 8.0, SM count unknown)"));
  REQUIRE(r.source.devices.size() == 1);
  CHECK(r.source.devices[0] == "0:  (cc 8.0, SM count unknown)");
  model::Device h100;
  h100.name = "H100";
  h100.compute_major = 9;
  h100.sm_count = 132;
  CHECK(analysis::DeviceText(h100, "unnamed") == "0: H100 (cc 9.0, 132 SMs)");
  CHECK(analysis::DeviceText(model::Device{}, "unnamed") ==
        "0: unnamed (cc unknown, SM count unknown)");
}
