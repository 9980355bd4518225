// The roofline on synthetic counters with hand-computed values, Nsight Compute's FLOP formulas,
// and the --counters join.
#include "analysis/kernel/roofline.h"

#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "analysis_builder.h"
#include "io/ncu/counter_join.h"
#include "model/ceilings.h"
#include "util/kernel_name_keys.h"

namespace {

namespace model = gpuperf::model;
using gpuperf::analysis::ComputeRoofline;
using gpuperf::analysis::LaunchDramBytes;
using gpuperf::analysis::LaunchFlops;
using gpuperf::analysis::RooflineInstance;
using Metrics = std::map<std::string, double>;

const std::string kOp = "smsp__sass_thread_inst_executed_op_";

Metrics Fp32(double fadd, double fmul, double ffma, double read, double write) {
  return {{kOp + "fadd_pred_on.sum", fadd},
          {kOp + "fmul_pred_on.sum", fmul},
          {kOp + "ffma_pred_on.sum", ffma},
          {"dram__bytes_read.sum", read},
          {"dram__bytes_write.sum", write}};
}

const model::DeviceCeilings& A100() {
  const auto* entry = model::FindCeilings("NVIDIA A100-SXM4-40GB", 8, 0).entry;
  REQUIRE(entry != nullptr);
  return *entry;  // 19.5 TFLOP/s FP32, 1555 GB/s: ridge 12.54 FLOP/byte
}

TEST_CASE("roofline FLOP formulas follow Nsight Compute", "[roofline]") {
  using model::MathUnit;
  using model::Precision;
  Metrics m = {{kOp + "fadd_pred_on.sum", 3},
               {kOp + "fmul_pred_on.sum", 5},
               {kOp + "ffma_pred_on.sum", 7},
               {kOp + "dadd_pred_on.sum", 1},
               {kOp + "dmul_pred_on.sum", 2},
               {kOp + "dfma_pred_on.sum", 4},
               {kOp + "hadd_pred_on.sum", 1},
               {kOp + "hmul_pred_on.sum", 1},
               {kOp + "hfma_pred_on.sum", 1},
               {"sm__ops_path_tensor_src_bf16_dst_fp32.sum", 1000},
               {"sm__ops_path_tensor_src_fp16_dst_fp32_sparsity_off.sum", 0}};
  auto flops = LaunchFlops(m);
  REQUIRE(flops);
  CHECK((*flops)[{Precision::kFp32, MathUnit::kVector}] == 3 + 5 + 2 * 7);
  CHECK((*flops)[{Precision::kFp64, MathUnit::kVector}] == 1 + 2 + 2 * 4);
  CHECK((*flops)[{Precision::kFp16, MathUnit::kVector}] == 2 + 2 + 4);
  CHECK((*flops)[{Precision::kBf16, MathUnit::kTensor}] == 1000);
  CHECK(flops->count({Precision::kFp16, MathUnit::kTensor}) == 0);

  // ncu 2022.3: 512 FLOP per tensor-pipe instruction, taken as FP16, when no FP16 or FP64
  // vector work shares the pipe (GA100 counts HFMA2 and DFMA there too).
  std::map<std::string, double> legacy_metrics{{"smsp__inst_executed_pipe_tensor.sum", 2}};
  for (const char* op : {"hadd", "hmul", "hfma", "dadd", "dmul", "dfma"})
    legacy_metrics[kOp + op + "_pred_on.sum"] = 0;
  auto legacy = LaunchFlops(legacy_metrics);
  REQUIRE(legacy);
  CHECK((*legacy)[{Precision::kFp16, MathUnit::kTensor}] == 1024);
  legacy_metrics[kOp + "hfma_pred_on.sum"] = 64;  // HFMA2 on the shared pipe: not tensor work
  CHECK(LaunchFlops(legacy_metrics)->count({Precision::kFp16, MathUnit::kTensor}) == 0);
  CHECK_FALSE(LaunchFlops({{"smsp__inst_executed_pipe_tensor.sum", 2}}));  // unknown vector

  // An incomplete family or a zero tensor count: FLOPs unknown, not zero.
  CHECK_FALSE(LaunchFlops({{kOp + "ffma_pred_on.sum", 7}}));
  CHECK_FALSE(LaunchFlops({{"sm__ops_path_tensor_src_bf16_dst_fp32.sum", 0}}));

  CHECK(*LaunchDramBytes({{"dram__bytes_read.sum", 3}, {"dram__bytes_write.sum", 4}}) == 7);
  CHECK(*LaunchDramBytes({{"dram__bytes.sum", 9}}) == 9);
  CHECK_FALSE(LaunchDramBytes({{"dram__bytes_read.sum", 3}}));
}

TEST_CASE("roofline by hand: a latency-bound kernel left of the ridge", "[roofline]") {
  // Two instances of 1 ms: 1.2e9 FLOP (fadd 1e8 + fmul 1e8 + 2 x 5e8) and 4e8 bytes each.
  Metrics m = Fp32(1e8, 1e8, 5e8, 3e8, 1e8);
  std::vector<RooflineInstance> instances = {{1'000'000, &m}, {1'000'000, &m}};
  auto r = ComputeRoofline(instances, &A100());
  CHECK(r.instances == 2);
  CHECK(r.precision == "fp32");
  CHECK(r.unit == "vector");
  CHECK(*r.flops == 2.4e9);
  CHECK(*r.dram_bytes == 8e8);
  CHECK(*r.arithmetic_intensity == Approx(3.0));     // < ridge 12.54: memory side
  CHECK(*r.achieved_flops_per_s == Approx(1.2e12));  // 2.4e9 / 2 ms
  CHECK(*r.achieved_bytes_per_s == Approx(4e11));    // 8e8 / 2 ms
  CHECK(*r.roof_fraction == Approx(4e11 / 1555e9));  // 0.257: bandwidth roof at AI 3
  // Floor: per instance max(1.2e9 / 19.5e12, 4e8 / 1.555e12) = 257.235 us; two of them.
  CHECK(*r.floor_ns == 514469);
  // 25.7% of the bandwidth and 6.2% of FP32 peak: both under 30%.
  CHECK(r.bound == gpuperf::report::KernelBound::kLatency);
  CHECK(r.evidence == gpuperf::report::EvidenceTier::kMeasured);
  CHECK(r.ceiling_source.rfind("datasheet A100 SXM4 40GB: NVIDIA A100", 0) == 0);
}

TEST_CASE("roofline by hand: memory- and compute-bound kernels", "[roofline]") {
  Metrics memory = Fp32(1e8, 1e8, 5e8, 3e8, 1e8);
  auto r = ComputeRoofline({{500'000, &memory}, {500'000, &memory}}, &A100());
  CHECK(*r.roof_fraction == Approx(8e11 / 1555e9));  // 51.4% of the bandwidth
  CHECK(*r.floor_ns == 514469);
  CHECK(r.bound == gpuperf::report::KernelBound::kMemory);

  // 4e11 FLOP over 1e9 bytes in 25 ms: AI 400 > ridge, 16 TFLOP/s = 82.1% of 19.5.
  Metrics compute = Fp32(0, 0, 2e11, 1e9, 0);
  auto c = ComputeRoofline({{25'000'000, &compute}}, &A100());
  CHECK(*c.arithmetic_intensity == Approx(400));
  CHECK(*c.roof_fraction == Approx(16e12 / 19.5e12));
  CHECK(*c.floor_ns == 20512821);  // 4e11 / 19.5e12 s
  CHECK(c.bound == gpuperf::report::KernelBound::kCompute);

  // No FLOPs at all (a copy kernel with complete counters): the bandwidth roof alone.
  Metrics copy = Fp32(0, 0, 0, 1e9, 1e9);
  auto k = ComputeRoofline({{2'000'000, &copy}}, &A100());
  CHECK(*k.flops == 0);
  CHECK(k.precision.empty());
  CHECK(*k.arithmetic_intensity == 0);
  CHECK(*k.floor_ns == 1286174);  // 2e9 / 1.555e12 s
  CHECK(*k.roof_fraction == Approx(1e12 / 1555e9));
  CHECK(k.bound == gpuperf::report::KernelBound::kMemory);
}

TEST_CASE("roofline by hand: L2 and L1 traffic of a hierarchical roofline", "[roofline]") {
  // 2 instances: 1e9 FLOPs each (5e8 FFMA), DRAM 1e8 bytes, L2 4e8, L1 2e9.
  Metrics a = Fp32(0, 0, 5e8, 6e7, 4e7);
  a["lts__t_bytes.sum"] = 4e8;
  a["l1tex__t_bytes.sum"] = 2e9;
  auto r = ComputeRoofline({{1'000'000, &a}, {1'000'000, &a}}, &A100());
  CHECK(*r.flops == 2e9);
  CHECK(*r.l2_bytes == 8e8);
  CHECK(*r.l1_bytes == 4e9);
  CHECK(*r.arithmetic_intensity == Approx(10));      // DRAM: 2e9 / 2e8
  CHECK(*r.l2_arithmetic_intensity == Approx(2.5));  // 2e9 / 8e8
  CHECK(*r.l1_arithmetic_intensity == Approx(0.5));  // 2e9 / 4e9
  CHECK(*r.l2_over_dram_bytes == Approx(4));         // 8e8 / 2e8
  // One instance without L1 counters: no L1 figure at all, rather than a partial sum.
  Metrics b = a;
  b.erase("l1tex__t_bytes.sum");
  auto partial = ComputeRoofline({{1'000'000, &a}, {1'000'000, &b}}, &A100());
  CHECK(*partial.l2_bytes == 8e8);
  CHECK_FALSE(partial.l1_bytes);
  CHECK_FALSE(partial.l1_arithmetic_intensity);
  // Without cache counters (most ncu exports): absent.
  Metrics plain = Fp32(0, 0, 5e8, 6e7, 4e7);
  CHECK_FALSE(ComputeRoofline({{1'000'000, &plain}}, &A100()).l2_bytes);
}

TEST_CASE("roofline without ceilings or without counters stays honest", "[roofline]") {
  Metrics m = Fp32(1e8, 1e8, 5e8, 3e8, 1e8);
  auto r = ComputeRoofline({{1'000'000, &m}}, nullptr);
  CHECK(*r.flops == 1.2e9);
  CHECK(*r.arithmetic_intensity == Approx(3.0));
  CHECK_FALSE(r.roof_fraction);
  CHECK_FALSE(r.floor_ns);
  CHECK(r.bound == gpuperf::report::KernelBound::kUnknown);
  CHECK(r.ceiling_source.empty());

  Metrics bytes_only = {{"dram__bytes.sum", 1e6}};
  auto b = ComputeRoofline({{1'000, &bytes_only}}, &A100());
  CHECK_FALSE(b.flops);
  CHECK(*b.dram_bytes == 1e6);
  CHECK(*b.achieved_bytes_per_s == Approx(1e12));
  CHECK_FALSE(b.arithmetic_intensity);
  CHECK(b.bound == gpuperf::report::KernelBound::kUnknown);

  // FP64 work on a part whose datasheet gives no FP64 rate (L4): no roof, bound unknown.
  Metrics fp64 = {{kOp + "dadd_pred_on.sum", 0},
                  {kOp + "dmul_pred_on.sum", 0},
                  {kOp + "dfma_pred_on.sum", 1e6},
                  {"dram__bytes.sum", 1e6}};
  auto l4 = ComputeRoofline({{1'000, &fp64}}, model::FindCeilings("NVIDIA L4").entry);
  CHECK(l4.precision == "fp64");
  CHECK_FALSE(l4.floor_ns);
  CHECK(l4.bound == gpuperf::report::KernelBound::kUnknown);
}

TEST_CASE("roofline in the analysis: KernelRow::roofline and a note", "[roofline]") {
  gpuperf::testing::TraceBuilder b;
  model::Device device;
  device.id = 0;
  device.name = "NVIDIA A100-SXM4-40GB";
  device.compute_major = 8;
  b.trace.devices.push_back(device);
  b.Kernel("gemm", 0, 25'000'000);
  b.Kernel("plain", 25'000'000, 26'000'000);  // no counters: no roofline
  b.trace.counters.push_back({0, Fp32(0, 0, 2e11, 1e9, 0)});
  auto report = gpuperf::analysis::Analyze(b.trace);
  REQUIRE(report.kernels.size() == 2);
  CHECK(report.kernels[0].name == "gemm");
  REQUIRE(report.kernels[0].roofline);
  CHECK(report.kernels[0].roofline->bound == gpuperf::report::KernelBound::kCompute);
  CHECK(report.kernels[0].roofline->shown_bound == gpuperf::report::KernelBound::kCompute);
  CHECK_FALSE(report.kernels[1].roofline);
  bool note = false;
  for (const auto& text : report.notes)
    note = note || text.find("datasheet ceilings of A100 SXM4 40GB") != std::string::npos;
  CHECK(note);
}

TEST_CASE("counter join keys: ncu and CUPTI spellings of one kernel agree", "[roofline][ncu]") {
  using gpuperf::util::BaseName;
  using gpuperf::util::SignatureKey;
  CHECK(SignatureKey("void randomInit<float>(T1 *, int, int, unsigned int)") ==
        SignatureKey("void randomInit<float>(float*, int, int, unsigned int)"));
  CHECK(SignatureKey("void k<std::array<char *, 2>>(int)") ==
        SignatureKey("void k<std::array<char*, 2> >(int, float)"));
  CHECK(SignatureKey("ampere_sgemm_128x64_nn") == "ampere_sgemm_128x64_nn");
  CHECK(BaseName("void at::native::vectorized_elementwise_kernel<4, F>(int, F)") ==
        "vectorized_elementwise_kernel");
  CHECK(BaseName("kernelUniqueKeys(unsigned int *)") == "kernelUniqueKeys");
}

TEST_CASE("counter join: by name and launch order, the rest counted", "[roofline][ncu]") {
  gpuperf::testing::TraceBuilder t;
  t.Kernel("void init<float>(float*, int)", 0, 10);
  t.Kernel("void gemm<float>(float*, float*)", 100, 200);
  t.Kernel("void init<float>(float*, int)", 20, 30);
  t.Kernel("void gemm<float>(float*, float*)", 300, 400);
  model::Trace ncu;
  auto launch = [&](const char* name, double ffma) {
    model::GpuActivity a;
    a.name = ncu.strings.Intern(name);
    ncu.counters.push_back({ncu.activities.size(), {{"ffma", ffma}}});
    ncu.activities.push_back(a);
  };
  launch("void init<float>(T1 *, int)", 1);
  launch("void init<float>(T1 *, int)", 2);
  launch("void gemm<float>(float *, float *)", 3);
  launch("void absent(int)", 4);
  auto summary = gpuperf::io::ncu::JoinCounters(t.trace, ncu);
  CHECK(summary.joined == 3);
  CHECK(summary.unjoined == 1);
  CHECK(summary.ncu_launches == 4);
  REQUIRE(t.trace.counters.size() == 3);
  // init: the first profiled launch joins the earliest instance (start 0 = activity 0).
  CHECK(t.trace.counters[0].activity == 0);
  CHECK(t.trace.counters[0].metrics.at("ffma") == 1);
  CHECK(t.trace.counters[1].activity == 2);
  CHECK(t.trace.counters[2].activity == 1);
  CHECK(t.trace.diagnostics.Get(gpuperf::model::Diagnostic::kCountersJoined) == 3);
  CHECK(t.trace.diagnostics.Get(gpuperf::model::Diagnostic::kCountersUnjoined) == 1);
  CHECK(t.trace.diagnostics.Get(gpuperf::model::Diagnostic::kCountersNoKernel) == 1);
  REQUIRE(t.trace.metadata.properties.count("counters_join_example:0"));
  CHECK(t.trace.metadata.properties.at("counters_join_example:0").find("\"void absent(int)\"") !=
        std::string::npos);

  // A second file (another process of a counter pass) joins only instances still without
  // counters: its first gemm launch takes the second gemm instance.
  model::Trace second;
  model::GpuActivity a;
  a.name = second.strings.Intern("void gemm<float>(float *, float *)");
  second.counters.push_back({0, {{"ffma", 5}}});
  second.activities.push_back(a);
  auto more = gpuperf::io::ncu::JoinCounters(t.trace, second);
  CHECK(more.joined == 1);
  REQUIRE(t.trace.counters.size() == 4);
  CHECK(t.trace.counters[3].activity == 3);
  CHECK(t.trace.counters[3].metrics.at("ffma") == 5);
}

}  // namespace
