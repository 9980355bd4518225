// Shape models: FLOPs and bytes of GEMM-family and elementwise ops from "Input Dims" / "Input
// type", computed by hand on small shapes; attribution to launched kernels; and TraceLens' GEMM
// table (gold/tracelens/h100/*/GEMM.csv) reproduced exactly on the three H100 traces.
#include "analysis/kernel/shape_model.h"

#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <string>
#include <tuple>

#include "analysis/core/correlation.h"
#include "analysis_builder.h"
#include "corpus.h"
#include "gold_csv.h"

namespace {

namespace model = gpuperf::model;
using gpuperf::analysis::ModelOp;
using gpuperf::analysis::OpWork;
using gpuperf::analysis::ShapeOpKind;

OpWork Model(const std::string& name, const std::string& dims, const std::string& types) {
  auto work = ModelOp(name, dims, types);
  INFO(name << " " << dims << " " << types);
  REQUIRE(work.has_value());
  return *work;
}

bool Modeled(const std::string& name, const std::string& dims, const std::string& types) {
  return ModelOp(name, dims, types).has_value();
}

}  // namespace

TEST_CASE("shape: Input Dims and Input type parse, nested lists kept as unknown", "[shape]") {
  auto dims = gpuperf::analysis::ParseInputDims(R"([[[1,2],[3]], [], [4, 5], 7])");
  REQUIRE(dims.has_value());
  REQUIRE(dims->size() == 4);
  CHECK_FALSE((*dims)[0].has_value());  // a TensorList
  CHECK((*dims)[1] == std::vector<std::int64_t>{});
  CHECK((*dims)[2] == std::vector<std::int64_t>{4, 5});
  CHECK_FALSE((*dims)[3].has_value());
  CHECK_FALSE(gpuperf::analysis::ParseInputDims("[[1,2]").has_value());
  CHECK_FALSE(gpuperf::analysis::ParseInputDims("").has_value());
  auto types = gpuperf::analysis::ParseInputTypes(R"(["c10::BFloat16", "", "Scalar"])");
  REQUIRE(types.has_value());
  CHECK(*types == std::vector<std::string>{"c10::BFloat16", "", "Scalar"});
  CHECK_FALSE(gpuperf::analysis::ParseInputTypes(R"(["float")").has_value());
}

TEST_CASE("shape: mm, addmm, bmm, baddbmm by hand", "[shape]") {
  // mm [2,3] x [3,4] fp32: 2*2*4*3 = 48 FLOPs; (6 + 12 + 8) * 4 = 104 bytes.
  OpWork mm = Model("aten::mm", "[[2,3],[3,4]]", R"(["float","float"])");
  CHECK(mm.kind == ShapeOpKind::kGemm);
  CHECK(std::tie(mm.b, mm.m, mm.n, mm.k, mm.bias) == std::make_tuple(1, 2, 4, 3, false));
  CHECK(mm.flops == 48);
  CHECK(mm.bytes == 104);
  CHECK(mm.precision == model::Precision::kFp32);
  CHECK(mm.unit == model::MathUnit::kVector);

  // addmm bias [4] + [2,3] x [3,4] bf16: 48 + 2*4 = 56 FLOPs; (6 + 12 + 8 + 4) * 2 = 60 bytes.
  OpWork addmm = Model("aten::addmm",
                       "[[4],[2,3],[3,4],[],[]]",
                       R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16","Scalar","Scalar"])");
  CHECK(addmm.bias);
  CHECK(addmm.flops == 56);
  CHECK(addmm.bytes == 60);
  CHECK(addmm.precision == model::Precision::kBf16);
  CHECK(addmm.unit == model::MathUnit::kTensor);

  // bmm [5,2,3] x [5,3,4] fp16: 5 * 48 = 240 FLOPs; 5 * 26 * 2 = 260 bytes.
  OpWork bmm = Model("aten::bmm", "[[5,2,3],[5,3,4]]", R"(["c10::Half","c10::Half"])");
  CHECK(std::tie(bmm.b, bmm.m, bmm.n, bmm.k) == std::make_tuple(5, 2, 4, 3));
  CHECK(bmm.flops == 240);
  CHECK(bmm.bytes == 260);
  CHECK(bmm.precision == model::Precision::kFp16);

  // baddbmm: 5 * (48 + 8) = 280 FLOPs; 5 * (26 + 4) * 2 = 300 bytes (bias as N per batch).
  OpWork baddbmm = Model("aten::baddbmm",
                         "[[5,2,4],[5,2,3],[5,3,4],[],[]]",
                         R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16","Scalar","Scalar"])");
  CHECK(baddbmm.flops == 280);
  CHECK(baddbmm.bytes == 300);

  // fp64 GEMMs run as fp64 on the vector units (the documented assumption).
  OpWork dmm = Model("aten::mm", "[[2,3],[3,4]]", R"(["double","double"])");
  CHECK(dmm.bytes == 208);
  CHECK(dmm.precision == model::Precision::kFp64);
  CHECK(dmm.unit == model::MathUnit::kVector);
}

TEST_CASE("shape: linear and matmul fold leading dims into M", "[shape]") {
  // linear [7,2,3] x W[4,3]^T + b[4] bf16: M = 14, N = 4, K = 3:
  // 2*14*4*3 + 14*4 = 392 FLOPs; (42 + 12 + 56 + 4) * 2 = 228 bytes.
  OpWork linear = Model("aten::linear",
                        "[[7,2,3],[4,3],[4]]",
                        R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16"])");
  CHECK(std::tie(linear.b, linear.m, linear.n, linear.k, linear.bias) ==
        std::make_tuple(1, 14, 4, 3, true));
  CHECK(linear.flops == 392);
  CHECK(linear.bytes == 228);
  // Without bias (the third argument absent): 336 FLOPs; (42 + 12 + 56) * 4 = 440 bytes.
  OpWork nobias = Model("aten::linear", "[[7,2,3],[4,3],[]]", R"(["float","float",""])");
  CHECK_FALSE(nobias.bias);
  CHECK(nobias.flops == 336);
  CHECK(nobias.bytes == 440);

  OpWork folded = Model("aten::matmul", "[[7,2,3],[3,4]]", R"(["float","float"])");
  CHECK(std::tie(folded.b, folded.m, folded.n, folded.k) == std::make_tuple(1, 14, 4, 3));
  OpWork batched = Model("aten::matmul", "[[6,2,3],[6,3,4]]", R"(["float","float"])");
  CHECK(std::tie(batched.b, batched.m, batched.n, batched.k) == std::make_tuple(6, 2, 4, 3));
  CHECK(batched.flops == 288);
  CHECK(batched.bytes == 624);
  OpWork broadcast = Model("aten::matmul", "[[2,1,5,3],[4,3,6]]", R"(["float","float"])");
  CHECK(std::tie(broadcast.b, broadcast.m, broadcast.n, broadcast.k) ==
        std::make_tuple(8, 5, 6, 3));
  OpWork vector = Model("aten::matmul", "[[3],[3,4]]", R"(["float","float"])");
  CHECK(std::tie(vector.m, vector.n, vector.k) == std::make_tuple(1, 4, 3));
}

TEST_CASE("shape: same-shape elementwise ops, broadcasting and odd inputs are not modelled",
          "[shape]") {
  // add [2,3] + [2,3] fp32: 6 FLOPs, (2 inputs + 1 output) * 6 * 4 = 72 bytes.
  OpWork add = Model("aten::add", "[[2,3],[2,3],[]]", R"(["float","float","Scalar"])");
  CHECK(add.kind == ShapeOpKind::kElementwise);
  CHECK(add.elements == 6);
  CHECK(add.flops == 6);
  CHECK(add.bytes == 72);
  // A 0-dim tensor (a wrapped Python number) is a scalar: bf16 [2,3] * 2.0: 2 * 6 * 2 bytes, and
  // the arithmetic runs in fp32 (PyTorch's opmath type for bf16).
  OpWork mul = Model("aten::mul", "[[2,3],[]]", R"(["c10::BFloat16","double"])");
  CHECK(mul.flops == 6);
  CHECK(mul.bytes == 24);
  CHECK(mul.precision == model::Precision::kFp32);
  CHECK(mul.unit == model::MathUnit::kVector);
  OpWork silu = Model("aten::silu", "[[4,5]]", R"(["c10::Half"])");
  CHECK(silu.bytes == 80);

  CHECK_FALSE(Modeled("aten::mul", "[[3],[2,3]]", R"(["float","float"])"));  // broadcast
  CHECK_FALSE(Modeled("aten::add", "[[2,3],[2,3],[]]", R"(["float","c10::BFloat16","Scalar"])"));
  CHECK_FALSE(Modeled("aten::add", "[[2,3],[2,3],[]]", R"(["long int","long int","Scalar"])"));
  CHECK_FALSE(Modeled("aten::cat", "[[[1,2],[1,2]],[]]", R"(["TensorList","Scalar"])"));
  CHECK_FALSE(Modeled("aten::mm", "[[2,3],[4,5]]", R"(["float","float"])"));  // K disagrees
  CHECK_FALSE(Modeled("aten::mm", "[[2,3],[3,4]]", R"(["float","c10::Half"])"));
  CHECK_FALSE(Modeled("aten::mm", "[[2,3],[3,4]]", R"(["long int","long int"])"));
  CHECK_FALSE(Modeled("aten::mm", "[[2,3],[3,4]]", R"(["float"])"));  // lengths disagree
  // A convolution needs its Concrete Inputs (stride, padding, ...): shapes alone are not enough.
  CHECK_FALSE(Modeled("aten::convolution", "[[1,3,8,8],[4,3,3,3]]", R"(["float","float"])"));
  CHECK_FALSE(Modeled(
      "aten::mm", "[[4294967296,4294967296],[4294967296,4294967296]]", R"(["float","float"])"));
}

namespace {

// aten::linear [0, 150] > aten::addmm [5, 100] launches a GEMM (corr 1) and a shorter splitK
// reduce (corr 2); aten::add [160, 200] launches an elementwise kernel (corr 3); aten::mm
// [210, 250] has no shapes recorded (corr 4).
gpuperf::testing::TraceBuilder Launches() {
  gpuperf::testing::TraceBuilder b;
  model::Device h100;
  h100.id = 0;
  h100.name = "NVIDIA H100 80GB HBM3";
  h100.compute_major = 9;
  b.trace.devices.push_back(h100);
  auto op = [&](const std::string& name,
                model::TimeNs start,
                model::TimeNs end,
                const std::string& dims,
                const std::string& types) {
    model::HostOp o;
    o.name = b.trace.strings.Intern(name);
    o.start_ns = start;
    o.end_ns = end;
    o.pid = 100;
    o.tid = 101;
    if (!dims.empty()) {
      o.input_dims = b.trace.strings.Intern(dims);
      o.input_types = b.trace.strings.Intern(types);
    }
    b.trace.host_ops.push_back(o);
  };
  const std::string bf16 = R"("c10::BFloat16")";
  op("aten::linear",
     0,
     150,
     "[[128,256],[512,256],[512]]",
     "[" + bf16 + "," + bf16 + "," + bf16 + "]");
  op("aten::addmm",
     5,
     100,
     "[[512],[128,256],[256,512],[],[]]",
     "[" + bf16 + "," + bf16 + "," + bf16 + R"(,"Scalar","Scalar"])");
  op("aten::add", 160, 200, "[[1024,1024],[1024,1024],[]]", R"(["float","float","Scalar"])");
  op("aten::mm", 210, 250, "", "");
  b.Api("cudaLaunchKernel", 10, 20, 1);
  b.Api("cudaLaunchKernel", 30, 40, 2);
  b.Api("cudaLaunchKernel", 170, 180, 3);
  b.Api("cudaLaunchKernel", 220, 230, 4);
  b.Kernel("gemm", 1000, 2000, 1);
  b.Kernel("splitk_reduce", 2000, 2100, 2);
  b.Kernel("add_kernel", 2100, 2400, 3);
  b.Kernel("gemm", 2400, 3400, 4);
  return b;
}

}  // namespace

TEST_CASE("shape: an op's work goes to the longest kernel of its innermost launching op",
          "[shape]") {
  auto b = Launches();
  gpuperf::analysis::CorrelationIndex index(b.trace);
  auto launching = gpuperf::analysis::LaunchingHostOps(b.trace, index);
  CHECK(launching == std::vector<std::int64_t>{1, 1, 2, 3});  // addmm, not the enclosing linear
  auto ops = gpuperf::analysis::ModelHostOps(b.trace, index);
  REQUIRE(ops.size() == 2);  // addmm and add; the mm has no shapes
  CHECK(ops[0].host_op == 1);
  CHECK(ops[0].kernels == std::vector<std::size_t>{0, 1});
  CHECK(ops[0].target == 0);  // the GEMM (1000 ns), not the 100 ns reduce
  CHECK(ops[1].target == 2);
}

TEST_CASE("shape: modelled rooflines against the H100 datasheet, floors reach the predictions",
          "[shape]") {
  auto b = Launches();
  auto report = gpuperf::analysis::Analyze(b.trace);
  std::map<std::string, const gpuperf::report::KernelRow*> rows;
  for (const auto& row : report.kernels)
    rows[row.name] = &row;
  // gemm: one of its two instances modelled, addmm 128x512x256 bf16:
  // 2*128*512*256 + 128*512 = 33619968 FLOPs; (32768 + 131072 + 65536 + 512) * 2 = 459776 bytes.
  REQUIRE(rows.at("gemm")->roofline.has_value());
  const auto& gemm = *rows.at("gemm")->roofline;
  CHECK(gemm.evidence == gpuperf::report::EvidenceTier::kModeled);
  CHECK(gemm.instances == 1);
  CHECK(gemm.precision == "bf16");
  CHECK(gemm.unit == "tensor");
  CHECK(*gemm.flops == 33619968.0);
  CHECK(*gemm.dram_bytes == 459776.0);
  CHECK(gemm.ceiling_source.find("H100 SXM5 80GB") != std::string::npos);
  // max(33619968 / 989.5e12, 459776 / 3.35e12) s = max(33.98, 137.25) ns -> 137 ns.
  CHECK(*gemm.floor_ns == 137);
  CHECK(gemm.bound ==
        gpuperf::report::KernelBound::kLatency);  // 459776 B in 1000 ns is 4% of 3.35 TB/s
  CHECK_FALSE(rows.at("splitk_reduce")->roofline.has_value());
  // add_kernel: fp32, 1048576 FLOPs, 12582912 bytes: floor 12582912 / 3.35e12 s = 3756 ns.
  const auto& add = *rows.at("add_kernel")->roofline;
  CHECK(add.precision == "fp32");
  CHECK(add.unit == "vector");
  CHECK(*add.floor_ns == 3756);
  CHECK(add.bound == gpuperf::report::KernelBound::kMemory);

  // The predictions use the floors, scaled to all instances (gemm: 137 x 2 / 1).
  CHECK(report.predictions.ranking == "critical_ns");
  bool found = false;
  for (const auto& share : report.predictions.kernels) {
    if (share.name == "gemm") {
      found = true;
      CHECK(share.floor_ns == 274);
      CHECK(share.floor_evidence == gpuperf::report::EvidenceTier::kModeled);
    }
  }
  CHECK(found);
  bool noted = false;
  for (const auto& note : report.notes)
    noted = noted || note.find("roofline (modeled)") != std::string::npos;
  CHECK(noted);
}

TEST_CASE("shape: counters win over the shape model", "[shape]") {
  auto b = Launches();
  model::KernelCounters counters;
  counters.activity = 0;  // the first gemm
  counters.metrics = {{"dram__bytes_read.sum", 1000}, {"dram__bytes_write.sum", 24}};
  b.trace.counters.push_back(counters);
  auto report = gpuperf::analysis::Analyze(b.trace);
  for (const auto& row : report.kernels) {
    if (row.name == "gemm") {
      REQUIRE(row.roofline.has_value());
      CHECK(row.roofline->evidence == gpuperf::report::EvidenceTier::kMeasured);
      CHECK(*row.roofline->dram_bytes == 1024.0);
    }
    if (row.name == "add_kernel") {
      REQUIRE(row.roofline.has_value());
      CHECK(row.roofline->evidence == gpuperf::report::EvidenceTier::kModeled);
    }
  }
}

namespace {

// Every row of TraceLens' GEMM.csv: our model of the ops with the same name, B, M, N, K and dtype
// gives GFLOPS_first and Data Moved (MB)_first (within 1e-9 relative, observed exact), and as
// many such ops launched kernels as TraceLens counts (name_count, summed over rows that differ
// only in strides).
void CheckGemmGold(const std::string& name) {
  auto trace_path = gpuperf::testing::CorpusFile("kineto/tracelens/h100/" + name + ".json.gz");
  if (!trace_path)
    return;
  auto trace = gpuperf::io::ImportTraceFile(*trace_path);
  INFO(name);
  REQUIRE(trace.ok());
  gpuperf::analysis::CorrelationIndex index(*trace);
  auto ops = gpuperf::analysis::ModelHostOps(*trace, index);
  using Key =
      std::tuple<std::string, std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::string>;
  std::map<Key, std::vector<const OpWork*>> ours;
  for (const auto& op : ops) {
    if (op.work.kind != ShapeOpKind::kGemm)
      continue;
    std::string op_name(trace->Name(trace->host_ops[op.host_op].name));
    ours[{op_name, op.work.b, op.work.m, op.work.n, op.work.k, op.work.dtype}].push_back(&op.work);
  }
  auto rows = gpuperf::testing::ReadCsv(
      *gpuperf::testing::CorpusFile("gold/tracelens/h100/" + name + "/GEMM.csv"));
  REQUIRE_FALSE(rows.empty());
  std::map<Key, std::int64_t> gold_counts;
  int matched = 0;
  for (const auto& row : rows) {
    // "('c10::BFloat16', 'c10::BFloat16')" -> c10::BFloat16
    std::string dtype = row.at("param: dtype_A_B");
    dtype = dtype.substr(2, dtype.find('\'', 2) - 2);
    Key key{row.at("name"),
            std::stoll(row.at("param: B")),
            std::stoll(row.at("param: M")),
            std::stoll(row.at("param: N")),
            std::stoll(row.at("param: K")),
            dtype};
    INFO(row.at("name") << " B=" << row.at("param: B") << " M=" << row.at("param: M") << " N="
                        << row.at("param: N") << " K=" << row.at("param: K") << " " << dtype);
    auto it = ours.find(key);
    REQUIRE(it != ours.end());
    bool first_row_of_key = !gold_counts.count(key);  // rows may differ only in strides
    gold_counts[key] += std::stoll(row.at("name_count"));
    double gflops = std::stod(row.at("GFLOPS_first"));
    double mb = std::stod(row.at("Data Moved (MB)_first"));
    CHECK((row.at("param: bias") == "True") == it->second.front()->bias);
    for (const OpWork* work : it->second) {
      double our_gflops = static_cast<double>(work->flops) / 1e9;
      double our_mb = static_cast<double>(work->bytes) / (1024.0 * 1024.0);
      CHECK(std::fabs(our_gflops - gflops) <= 1e-9 * gflops);
      CHECK(std::fabs(our_mb - mb) <= 1e-9 * mb);
      matched += first_row_of_key && our_gflops == gflops && our_mb == mb ? 1 : 0;
    }
  }
  for (const auto& [key, count] : gold_counts) {
    INFO(std::get<0>(key) << " M=" << std::get<2>(key) << " N=" << std::get<3>(key)
                          << " K=" << std::get<4>(key));
    CHECK(static_cast<std::int64_t>(ours.at(key).size()) == count);
  }
  // Every op instance of every row reproduces the gold exactly (26, 73 and 169 instances).
  std::int64_t total = 0;
  for (const auto& [key, count] : gold_counts)
    total += count;
  CHECK(matched == total);
}

}  // namespace

TEST_CASE("shape: TraceLens GEMM.csv reproduced, bert-small H100", "[shape][corpus]") {
  CheckGemmGold("gaunernst_bert-small-uncased__1016001");
}

TEST_CASE("shape: TraceLens GEMM.csv reproduced, nsfw_image_detection H100", "[shape][corpus]") {
  CheckGemmGold("Falconsai_nsfw_image_detection__1016002");
}

TEST_CASE("shape: TraceLens GEMM.csv reproduced, Qwen1.5-0.5B H100", "[shape][corpus]") {
  CheckGemmGold("Qwen_Qwen1.5-0.5B-Chat__1016005");
}

TEST_CASE("shape: an FP8 scaled GEMM near the FP8 tensor roof is compute-bound, not unknown",
          "[shape]") {
  const std::string e4m3 = R"("c10::Float8_e4m3fn")";
  const std::string e5m2 = R"("c10::Float8_e5m2")";
  const std::string dims = "[[4096,4096],[4096,4096],[],[],[],[],[],[]]";
  const std::string types =
      "[" + e4m3 + "," + e5m2 + R"(,"float","float","","","Scalar","Scalar"])";
  OpWork w = Model("aten::_scaled_mm", dims, types);
  CHECK(w.flops == 2LL * 4096 * 4096 * 4096);
  CHECK(w.bytes == 3LL * 4096 * 4096);  // one byte per element of A, B and (at least) C
  CHECK(w.precision == model::Precision::kFp8);
  CHECK(w.unit == model::MathUnit::kTensor);
  CHECK_FALSE(Modeled("aten::_scaled_mm",
                      dims,
                      "[" + e4m3 + R"(,"float","float","float","","","Scalar","Scalar"])"));

  gpuperf::testing::TraceBuilder b;
  model::Device h100;
  h100.id = 0;
  h100.name = "NVIDIA H100 80GB HBM3";
  h100.compute_major = 9;
  h100.sm_count = 132;
  b.trace.devices.push_back(h100);
  model::HostOp o;
  o.name = b.trace.strings.Intern("aten::_scaled_mm");
  o.start_ns = 0;
  o.end_ns = 50;
  o.pid = 100;
  o.tid = 101;
  o.input_dims = b.trace.strings.Intern(dims);
  o.input_types = b.trace.strings.Intern(types);
  b.trace.host_ops.push_back(o);
  b.Api("cudaLaunchKernel", 10, 20, 1);
  // 137 GFLOP in 87 us: ~1580 TFLOP/s, 80% of H100's 1979 TFLOP/s FP8 tensor roof.
  b.Kernel("sm90_xmma_gemm_e4m3e5m2_bf16f32_f32_tn_n_tilesize128x128x128", 1000, 88'000, 1);
  auto report = gpuperf::analysis::Analyze(b.trace);
  REQUIRE(report.kernels.size() == 1);
  REQUIRE(report.kernels[0].roofline.has_value());
  const auto& roof = *report.kernels[0].roofline;
  CHECK(roof.precision == "fp8");
  CHECK(roof.unit == "tensor");
  CHECK(roof.bound == gpuperf::report::KernelBound::kCompute);
  CHECK(report.kernels[0].classification.bound == gpuperf::report::KernelBound::kCompute);
}

TEST_CASE("shape: softmax is modelled as one read and one write, five FLOPs per element",
          "[shape]") {
  OpWork w =
      Model("aten::_softmax", "[[8,12,3137,3137],[],[]]", R"(["c10::BFloat16","Scalar","Scalar"])");
  const std::int64_t elements = 8LL * 12 * 3137 * 3137;
  CHECK(w.elements == elements);
  CHECK(w.bytes == elements * 2 * 2);  // bf16 in, bf16 out
  CHECK(w.flops == elements * 5);
  CHECK(w.unit == model::MathUnit::kVector);
  CHECK_FALSE(Modeled("aten::_softmax", "[[8,12],[],[]]", R"(["long int","Scalar","Scalar"])"));
}

TEST_CASE("math path: fp32 matrix work in a TF32 tensor-op kernel is placed at the TF32 roof",
          "[shapes]") {
  OpWork work;
  work.precision = model::Precision::kFp32;
  work.unit = model::MathUnit::kVector;
  OpWork tf32 = work;
  gpuperf::analysis::ApplyKernelMathPath(
      tf32, "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4>(Params)");
  CHECK(tf32.precision == model::Precision::kTf32);
  CHECK(tf32.unit == model::MathUnit::kTensor);
  OpWork sgemm = work;  // a CUDA-core SGEMM stays fp32 on the vector units
  gpuperf::analysis::ApplyKernelMathPath(sgemm, "volta_sgemm_64x64_nt");
  CHECK(sgemm.precision == model::Precision::kFp32);
  CHECK(sgemm.unit == model::MathUnit::kVector);
  OpWork half;  // other precisions are left as they are
  half.precision = model::Precision::kFp16;
  half.unit = model::MathUnit::kTensor;
  gpuperf::analysis::ApplyKernelMathPath(half, "cutlass_80_tensorop_s1688gemm");
  CHECK(half.precision == model::Precision::kFp16);
}
