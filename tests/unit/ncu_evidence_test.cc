// Nsight Compute input beyond FLOPs and bytes, on hand-written inputs: the candidate ceilings of
// an unnamed GPU, the Speed-of-Light class, rule rows, Launch Statistics, the checked and
// normalised --counters join, --gpu, and the diagnosis of counters without durations.
#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "analysis/kernel/roofline_candidates.h"
#include "analysis_builder.h"
#include "cli/gpu_option.h"
#include "io/ncu/counter_join.h"
#include "model/ceilings.h"
#include "util/kernel_name_keys.h"

namespace {

namespace model = gpuperf::model;
using Metrics = std::map<std::string, double>;

const std::string kOp = "smsp__sass_thread_inst_executed_op_";

Metrics Fp32(double ffma, double dram_bytes) {
  return {{kOp + "fadd_pred_on.sum", 0},
          {kOp + "fmul_pred_on.sum", 0},
          {kOp + "ffma_pred_on.sum", ffma},
          {"dram__bytes.sum", dram_bytes}};
}

// One kernel of 1 s on device 0, cc 8.0, unnamed (what a standalone ncu CSV gives).
gpuperf::testing::TraceBuilder UnnamedA100(const Metrics& metrics) {
  gpuperf::testing::TraceBuilder b;
  model::Device device;
  device.compute_major = 8;
  b.trace.devices.push_back(device);
  b.Kernel("gemm_v1", 0, 1'000'000'000);
  b.trace.counters.push_back({0, metrics});
  return b;
}

TEST_CASE("unnamed GPU: a bound when every candidate of the compute capability agrees",
          "[ncu][roofline]") {
  // 2 TFLOP/s of FP32 (10.3% of the A100's 19.5 TFLOP/s) and 24 GB/s (1.18% of 2039 GB/s to
  // 1.54% of 1555 GB/s): under 30% of both roofs on all four A100 entries.
  Metrics m = Fp32(1e12, 24e9);
  m["lts__t_bytes.sum"] = 1.2e12;  // 50x the DRAM bytes
  auto b = UnnamedA100(m);
  auto report = gpuperf::analysis::Analyze(b.trace);
  REQUIRE(report.kernels.size() == 1);
  const auto& row = report.kernels[0];
  REQUIRE(row.roofline);
  const auto& r = *row.roofline;
  CHECK(r.ceiling_candidates.size() == 4);
  CHECK(r.bound == gpuperf::report::KernelBound::kLatency);
  REQUIRE(r.compute_fraction_range);
  CHECK(r.compute_fraction_range->first == Approx(2.0 / 19.5));
  CHECK(r.compute_fraction_range->second == Approx(2.0 / 19.5));
  REQUIRE(r.memory_fraction_range);
  CHECK(r.memory_fraction_range->first == Approx(24.0 / 2039));
  CHECK(r.memory_fraction_range->second == Approx(24.0 / 1555));
  CHECK_FALSE(r.roof_fraction);
  REQUIRE(r.floor_ns);
  CHECK(*r.floor_ns == 102'564'103);  // 2e12 FLOP / 19.5e12 FLOP/s
  CHECK(row.classification.bound == gpuperf::report::KernelBound::kLatency);
  CHECK(row.classification.basis == "roofline_candidates");
  CHECK(row.classification.reason.find("10.3% of the fp32 vector peak") != std::string::npos);
  CHECK(row.classification.reason.find("1.2-1.5% of the DRAM bandwidth") != std::string::npos);
  CHECK(row.classification.reason.find("L2 traffic 50x") != std::string::npos);
  CHECK(report.diagnosis.bottleneck == gpuperf::report::Bottleneck::kLatencyBound);
  CHECK(report.diagnosis.next_experiment.find("WarpStateStats") != std::string::npos);
  CHECK(report.diagnosis.next_experiment.find("SourceCounters") != std::string::npos);
}

TEST_CASE("unnamed GPU: candidates that disagree leave the bound unknown", "[ncu][roofline]") {
  // 544 GB/s: 35% of 1555 GB/s (memory-bound) but 27-28% of 1935/2039 GB/s (latency).
  auto b = UnnamedA100(Fp32(1e9, 544e9));
  auto report = gpuperf::analysis::Analyze(b.trace);
  const auto& r = *report.kernels[0].roofline;
  CHECK(r.bound == gpuperf::report::KernelBound::kUnknown);
  CHECK_FALSE(r.floor_ns);
  REQUIRE(r.memory_fraction_range);
  CHECK(r.memory_fraction_range->second == Approx(544.0 / 1555));
  // The next experiment asks for the one thing missing, the GPU's name, not the roofline set.
  CHECK(report.diagnosis.next_experiment.find("--gpu NAME") != std::string::npos);
  CHECK(report.diagnosis.next_experiment.find("--set roofline") == std::string::npos);
}

const char* kDetailsHeader =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\","
    "\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\",\"Rule Name\",\"Rule "
    "Type\",\"Rule Description\",\"Estimated Speedup Type\",\"Estimated Speedup\"\n";

std::string Row(int id,
                const std::string& section,
                const std::string& label,
                const std::string& unit,
                const std::string& value) {
  return "\"" + std::to_string(id) + "\",\"1\",\"app\",\"h\",\"k(int *)\",\"1\",\"7\",\"" +
         section + "\",\"" + label + "\",\"" + unit + "\",\"" + value + "\",,,,,\n";
}

std::string Rule(int id,
                 const std::string& section,
                 const std::string& name,
                 const std::string& type,
                 const std::string& speedup) {
  return "\"" + std::to_string(id) + "\",\"1\",\"app\",\"h\",\"k(int *)\",\"1\",\"7\",\"" +
         section + "\",,,,\"" + name + "\",\"" + type + "\",\"" + name + " said " + speedup +
         "\",\"global\",\"" + speedup + "\"\n";
}

model::Trace Import(const std::string& csv) {
  auto trace = gpuperf::io::ImportTraceMemory(csv, "details.csv");
  REQUIRE(trace.ok());
  return std::move(trace).value();
}

TEST_CASE("details page: Speed of Light classifies, rules become evidence", "[ncu]") {
  const std::string sol = "GPU Speed Of Light Throughput";
  std::string csv = std::string(kDetailsHeader);
  for (int id : {0, 1}) {
    csv += Row(id, sol, "Duration", "msecond", "995.52");
    csv += Row(id, sol, "Compute (SM) Throughput", "%", id == 0 ? "45.72" : "40.00");
    csv += Row(id, sol, "Memory Throughput", "%", "46.46");
    csv += Rule(id, "Occupancy", "TheoreticalOccupancy", "OPT", id == 0 ? "50" : "79.48");
    csv += Rule(id, "SpeedOfLight", "SOLBottleneck", "WRN", "");
  }
  model::Trace trace = Import(csv);
  auto report = gpuperf::analysis::Analyze(trace);
  REQUIRE(report.kernels.size() == 1);
  const auto& row = report.kernels[0];
  REQUIRE(row.speed_of_light);
  CHECK(*row.speed_of_light->compute == Approx((0.4572 + 0.40) / 2));  // equal durations
  CHECK(*row.speed_of_light->memory == Approx(0.4646));
  CHECK(row.speed_of_light->instances == 2);
  CHECK(row.classification.bound ==
        gpuperf::report::KernelBound::kLatency);  // every unit under 60% of its peak
  CHECK(row.classification.basis == "speed_of_light");
  REQUIRE(row.ncu_rules.size() == 2);
  CHECK(row.ncu_rules[0].name == "TheoreticalOccupancy");  // largest estimate first
  CHECK(*row.ncu_rules[0].estimated_speedup_percent == Approx(79.48));
  CHECK(row.ncu_rules[0].description == "TheoreticalOccupancy said 79.48");
  CHECK(row.ncu_rules[0].instances == 2);
  CHECK_FALSE(row.ncu_rules[1].estimated_speedup_percent);
  bool cited = false;
  for (const auto& line : report.diagnosis.support)
    cited = cited ||
            line.find("TheoreticalOccupancy (OPT, estimated speedup 79.5%") != std::string::npos;
  CHECK(cited);

  // A unit at 60% or more of its peak limits the kernel.
  std::string busy = std::string(kDetailsHeader) + Row(0, sol, "Duration", "msecond", "2") +
                     Row(0, sol, "Compute (SM) Throughput", "%", "85") +
                     Row(0, sol, "Memory Throughput", "%", "20");
  model::Trace busy_trace = Import(busy);
  CHECK(gpuperf::analysis::Analyze(busy_trace).kernels[0].classification.bound ==
        gpuperf::report::KernelBound::kCompute);
}

TEST_CASE("speed of light: the busiest unit at its peak is the floor of a kernel without one",
          "[ncu][predictions]") {
  // One kernel, the only profiled work (f = 1 before any floor): compute 45%, memory 47.5%,
  // L1 49%. Without a FLOP/byte floor the bound was Amdahl at zero time, unbounded here; the
  // same work cannot run faster than its busiest unit (49%) at 100%: 1 / 0.49 = 2.04x.
  const std::string sol = "GPU Speed Of Light Throughput";
  std::string csv = std::string(kDetailsHeader) + Row(0, sol, "Duration", "msecond", "100") +
                    Row(0, sol, "Compute (SM) Throughput", "%", "45") +
                    Row(0, sol, "Memory Throughput", "%", "47.5") +
                    Row(0, sol, "L1/TEX Cache Throughput", "%", "49");
  model::Trace trace = Import(csv);
  auto report = gpuperf::analysis::Analyze(trace);
  REQUIRE(report.predictions.kernels.size() == 1);
  const auto& share = report.predictions.kernels[0];
  REQUIRE(share.floor_ns);
  CHECK(*share.floor_ns == 49'000'000);  // 100 ms x 0.49
  CHECK(share.floor_evidence == gpuperf::report::EvidenceTier::kMeasured);
  REQUIRE(share.max_local_speedup);
  CHECK(*share.max_local_speedup == Approx(1 / 0.49));
  CHECK(report.diagnosis.bottleneck == gpuperf::report::Bottleneck::kLatencyBound);
  REQUIRE(report.diagnosis.bound_speedup);
  CHECK(*report.diagnosis.bound_speedup == Approx(1 / 0.49).epsilon(1e-3));
}

TEST_CASE("details page: Launch Statistics give the grid and the waves", "[ncu]") {
  const std::string launch = "Launch Statistics";
  std::string csv = std::string(kDetailsHeader) +
                    Row(0, "GPU Speed Of Light Throughput", "Duration", "usecond", "5") +
                    Row(0, launch, "Grid Size", "", "4") + Row(0, launch, "Block Size", "", "512") +
                    Row(0, launch, "Waves Per SM", "", "0.04");
  model::Trace trace = Import(csv);
  REQUIRE(trace.activities.size() == 1);
  CHECK(trace.activities[0].grid.Volume() == 4);
  CHECK(trace.activities[0].block.Volume() == 512);
  auto report = gpuperf::analysis::Analyze(trace);
  const auto& c = report.kernels[0].classification;
  CHECK(c.bound == gpuperf::report::KernelBound::kLaunch);
  CHECK(c.evidence == gpuperf::report::EvidenceTier::kMeasured);
  CHECK(c.reason.find("4 blocks, 0.04 of one wave (Nsight Compute Launch Statistics") !=
        std::string::npos);
}

TEST_CASE("counters without durations are not host-bound", "[ncu][diagnosis]") {
  std::string csv = std::string(kDetailsHeader) +
                    Row(0,
                        "Command line profiler metrics",
                        "sm__throughput.avg.pct_of_peak_sustained_elapsed",
                        "%",
                        "10") +
                    Row(0,
                        "Command line profiler metrics",
                        "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
                        "%",
                        "12");
  model::Trace trace = Import(csv);
  auto report = gpuperf::analysis::Analyze(trace);
  CHECK(report.diagnosis.bottleneck == gpuperf::report::Bottleneck::kUnknown);
  CHECK(report.diagnosis.next_experiment.find("gpu__time_duration.sum") != std::string::npos);
  CHECK(report.kernels[0].classification.bound ==
        gpuperf::report::KernelBound::kLatency);  // from Speed of Light
}

TEST_CASE("counter join: normalised names, launch configuration, device", "[ncu][join]") {
  using gpuperf::util::NormalKey;
  CHECK(NormalKey("void Kernel2<cutlass_80_wmma_bf16_32x32_tn_align8>(Params)") ==
        NormalKey("void cutlass::Kernel2<cutlass_80_wmma_bf16_32x32_tn_align8>("
                  "cutlass_80_wmma_bf16_32x32_tn_align8::Params)"));
  CHECK(NormalKey("enable_if<!T7, void>::type kernel<int, float>(T13)") == "kernel<int,float>");
  CHECK(NormalKey("void at::(anonymous namespace)::k<a::B>(int)") == "k<B>");
  CHECK(NormalKey("void f<int>(int)") != NormalKey("void g<int>(int)"));

  gpuperf::testing::TraceBuilder t;
  model::Device h100;
  h100.name = "NVIDIA H100 80GB HBM3";
  h100.compute_major = 9;
  t.trace.devices.push_back(h100);
  const char* kineto = "void cutlass::Kernel2<cutlass_80_x>(cutlass_80_x::Params)";
  for (int i = 0; i < 2; ++i) {
    auto& k = t.Kernel(kineto, i * 100, i * 100 + 50);
    k.grid = {40, 2, 1};
    k.block = {128, 1, 1};
  }
  model::Trace ncu;
  model::Device profiled;
  profiled.compute_major = 9;
  ncu.devices.push_back(profiled);
  auto launch = [&](model::Dim3 grid) {
    model::GpuActivity a;
    a.kind = model::ActivityKind::kKernel;
    a.name = ncu.strings.Intern("void Kernel2<cutlass_80_x>(Params)");
    a.grid = grid;
    a.block = {128, 1, 1};
    ncu.counters.push_back({ncu.activities.size(), {{"x", 1}}});
    ncu.activities.push_back(a);
  };
  launch({40, 2, 1});
  launch({72, 4, 1});  // another launch configuration: not these kernels
  CHECK(gpuperf::io::ncu::CheckCounterDevices(t.trace, ncu, "c.csv").ok());
  auto summary = gpuperf::io::ncu::JoinCounters(t.trace, ncu);
  CHECK(summary.joined == 1);
  CHECK(summary.config_mismatch == 1);
  CHECK(summary.no_kernel == 0);
  auto report = gpuperf::analysis::Analyze(t.trace);
  REQUIRE(report.counters_join);
  CHECK(report.counters_join->joined == 1);
  CHECK(report.counters_join->ncu_launches == 2);
  REQUIRE(report.counters_join->examples.size() == 1);
  CHECK(report.counters_join->examples[0].find("grid 72x4x1") != std::string::npos);

  // Counters of another GPU (cc 12.0) are refused with the file's name.
  ncu.devices[0].compute_major = 12;
  auto refused = gpuperf::io::ncu::CheckCounterDevices(t.trace, ncu, "c.csv");
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.rfind("c.csv: the counters were taken on", 0) == 0);
}

TEST_CASE("analyze --gpu: names an unnamed device, refuses unknown or contradicting names",
          "[ncu][cli]") {
  using gpuperf::cli::ApplyGpuName;
  using gpuperf::cli::ResolveGpuName;
  auto known = ResolveGpuName("a100 sxm4 80gb");
  REQUIRE(known.ok());
  CHECK((*known)->key == "A100 SXM4 80GB");
  auto unknown = ResolveGpuName("RTX 9999");
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.error().message.find("known: V100 SXM2") != std::string::npos);

  auto b = UnnamedA100(Fp32(1e12, 24e9));
  REQUIRE(ApplyGpuName("A100 SXM4 40GB", b.trace).ok());
  CHECK(b.trace.devices[0].name == "A100 SXM4 40GB");
  auto report = gpuperf::analysis::Analyze(b.trace);
  REQUIRE(report.kernels[0].roofline);
  CHECK(report.kernels[0].roofline->ceiling_candidates.empty());
  CHECK(*report.kernels[0].roofline->roof_fraction == Approx(2.0 / 19.5));

  auto other = UnnamedA100(Fp32(1e12, 24e9));
  auto refused = ApplyGpuName("H100 PCIe", other.trace);  // cc 9.0 against the trace's 8.0
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.find("compute capability 9.0") != std::string::npos);
}

}  // namespace
