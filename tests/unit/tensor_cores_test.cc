// Tensor-core evidence: matching trace kernel names to SASS functions, the three tiers and their
// order (counters over SASS over name), ambiguity, the GA100 aggregate-pipe rule and the notes.
#include "analysis/kernel/tensor_cores.h"

#include "gpuperf/analyze.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "analysis/kernel/sass_match.h"
#include "analysis_builder.h"
#include "util/kernel_name_keys.h"

namespace {

namespace model = gpuperf::model;
namespace report = gpuperf::report;
using gpuperf::analysis::AttachTensorCores;
using gpuperf::analysis::SassIndex;
using gpuperf::analysis::SassMatchTier;
using gpuperf::analysis::TensorCoresFromCounters;
using gpuperf::analysis::TensorCoresFromName;
using gpuperf::testing::TraceBuilder;

model::SassFunction Function(const std::string& mangled,
                             const std::string& demangled,
                             const std::string& arch,
                             std::map<std::string, std::int64_t> matrix_ops = {}) {
  model::SassFunction f;
  f.mangled_name = mangled;
  f.demangled_name = demangled;
  f.arch = arch;
  f.file = "bin/app";
  f.instructions = 100;
  f.matrix_ops = std::move(matrix_ops);
  return f;
}

const report::KernelRow& Row(const std::vector<report::KernelRow>& rows, const std::string& name) {
  auto it = std::find_if(rows.begin(), rows.end(), [&](const auto& r) { return r.name == name; });
  REQUIRE(it != rows.end());
  return *it;
}

std::vector<report::KernelRow> Rows(std::initializer_list<const char*> names) {
  std::vector<report::KernelRow> rows;
  for (const char* name : names) {
    report::KernelRow row;
    row.name = name;
    rows.push_back(row);
  }
  return rows;
}

bool AnyNoteContains(const std::vector<std::string>& notes, const std::string& text) {
  return std::any_of(
      notes.begin(), notes.end(), [&](const auto& n) { return n.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("sass match: keys drop parameters, return type and white space") {
  CHECK(gpuperf::util::SignatureKey("void fma_kernel<float>(float *, const float *, float, int)") ==
        "fma_kernel<float>");
  CHECK(gpuperf::util::SignatureKey("void fma_kernel<float>(float*, float const*, float, int)") ==
        "fma_kernel<float>");
  CHECK(gpuperf::util::SignatureKey("wmma_kernel(__half const*, __half const*, float*)") ==
        "wmma_kernel");
  CHECK(gpuperf::util::SignatureKey("void ns::f<std::pair<int, int> >(int)") ==
        "ns::f<std::pair<int,int>>");
  CHECK(gpuperf::util::SignatureKey("kernel") == "kernel");
  CHECK(gpuperf::util::BaseName("void ns::inner::f<int, (int)4>(float *)") == "f");
  CHECK(gpuperf::util::BaseName("wmma_kernel(__half const*, __half const*, float*)") ==
        "wmma_kernel");
  CHECK(gpuperf::util::BaseName("gemm_kernel") == "gemm_kernel");
}

TEST_CASE("sass match: mangled, demangled, signature and base-name tiers") {
  std::vector<model::SassFunction> sass = {
      Function("_Z11wmma_kernelPK6__halfS1_Pf",
               "wmma_kernel(__half const*, __half const*, float*)",
               "sm_90",
               {{"HMMA", 2}}),
      Function("_Z10fma_kernelIfEvPT_PKS0_S0_i",
               "void fma_kernel<float>(float*, float const*, float, int)",
               "sm_90"),
  };
  SassIndex index(sass);
  auto tier = [&](const char* name) { return index.Find(name).tier; };
  CHECK(tier("_Z11wmma_kernelPK6__halfS1_Pf") == SassMatchTier::kMangled);
  CHECK(tier("wmma_kernel(__half const*, __half const*, float*)") == SassMatchTier::kDemangled);
  // CUPTI's spelling of the same kernels.
  CHECK(tier("wmma_kernel(const __half *, const __half *, float *)") == SassMatchTier::kSignature);
  CHECK(tier("void fma_kernel<float>(float *, const float *, float, int)") ==
        SassMatchTier::kSignature);
  CHECK(tier("fma_kernel<float>") == SassMatchTier::kSignature);
  CHECK(tier("fma_kernel") == SassMatchTier::kBaseName);  // nsys short name
  CHECK(tier("other_kernel") == SassMatchTier::kNone);
  CHECK(tier("fma_kernel<double>") == SassMatchTier::kNone);  // not bare: no base-name match
  CHECK(tier("") == SassMatchTier::kNone);
  CHECK(index.Find("fma_kernel").functions.size() == 1);
}

TEST_CASE("tensor cores: SASS decides, the device's arch is preferred, names are inferred") {
  TraceBuilder b;
  b.trace.devices.push_back({});
  b.trace.devices[0].id = 0;
  b.trace.devices[0].compute_major = 9;
  b.Kernel("wmma_kernel(const __half *, const __half *, float *)", 0, 10);
  b.Kernel("void fma_kernel<float>(float *, const float *, float, int)", 20, 30);
  b.Kernel("ampere_sgemm_128x64_nn", 40, 50);
  b.Kernel("sm90_xmma_gemm_bf16bf16_bf16f32", 60, 70);
  b.Kernel("elementwise_kernel", 80, 90);
  std::vector<model::SassFunction> sass = {
      Function("_Z11wmma_kernelPK6__halfS1_Pf",
               "wmma_kernel(__half const*, __half const*, float*)",
               "sm_80",
               {{"HMMA", 4}}),
      Function("_Z11wmma_kernelPK6__halfS1_Pf",
               "wmma_kernel(__half const*, __half const*, float*)",
               "sm_90a",
               {{"HMMA", 2}}),
      Function("_Z10fma_kernelIfEvPT_PKS0_S0_i",
               "void fma_kernel<float>(float*, float const*, float, int)",
               "sm_90"),
  };
  auto rows = Rows({"wmma_kernel(const __half *, const __half *, float *)",
                    "void fma_kernel<float>(float *, const float *, float, int)",
                    "ampere_sgemm_128x64_nn",
                    "sm90_xmma_gemm_bf16bf16_bf16f32",
                    "elementwise_kernel"});
  std::vector<std::string> notes;
  AttachTensorCores(b.trace, sass, rows, notes);

  const auto& wmma = *Row(rows, rows[0].name).tensor_cores;
  CHECK(wmma.used);
  CHECK(wmma.evidence == gpuperf::report::EvidenceTier::kMeasured);
  CHECK(wmma.source == "sass");
  REQUIRE(wmma.instructions.size() == 1);
  CHECK(wmma.instructions[0] == std::pair<std::string, std::int64_t>{"HMMA", 2});  // sm_90a copy
  CHECK(wmma.detail.find("2 HMMA in the sm_90a SASS of bin/app") != std::string::npos);

  const auto& fma = *rows[1].tensor_cores;
  CHECK_FALSE(fma.used);
  CHECK(fma.evidence == gpuperf::report::EvidenceTier::kMeasured);
  CHECK(fma.source == "sass");
  CHECK(fma.instructions.empty());

  const auto& sgemm = *rows[2].tensor_cores;
  CHECK_FALSE(sgemm.used);
  CHECK(sgemm.evidence == gpuperf::report::EvidenceTier::kInferred);
  CHECK(sgemm.source == "name");
  const auto& xmma = *rows[3].tensor_cores;
  CHECK(xmma.used);
  CHECK(xmma.evidence == gpuperf::report::EvidenceTier::kInferred);
  CHECK(xmma.detail.find("xmma") != std::string::npos);
  CHECK_FALSE(rows[4].tensor_cores.has_value());  // nothing speaks for it

  CHECK(AnyNoteContains(notes, "matched 2 kernel names, 3 not"));
  CHECK(AnyNoteContains(notes, "0 kernel names measured by counters, 2 by SASS, 2 inferred"));
}

TEST_CASE("tensor cores: counters win over SASS, SASS over the name") {
  TraceBuilder b;
  b.trace.devices.push_back({});
  b.trace.devices[0].compute_major = 9;
  b.Kernel("hmma_gemm", 0, 10);    // counters say no; SASS says yes; name says yes
  b.Kernel("xmma_thing", 20, 30);  // SASS says no; name says yes
  b.trace.counters.push_back({0, {{"sm__inst_executed_pipe_tensor.sum", 0.0}}});
  std::vector<model::SassFunction> sass = {
      Function("hmma_gemm", "hmma_gemm", "sm_90", {{"HMMA", 8}}),
      Function("xmma_thing", "xmma_thing", "sm_90"),
  };
  auto rows = Rows({"hmma_gemm", "xmma_thing"});
  std::vector<std::string> notes;
  AttachTensorCores(b.trace, sass, rows, notes);
  CHECK_FALSE(rows[0].tensor_cores->used);
  CHECK(rows[0].tensor_cores->source == "counters");
  CHECK(rows[0].tensor_cores->detail ==
        "sm__inst_executed_pipe_tensor.sum is 0 in the kernel's one profiled launch");
  CHECK_FALSE(rows[1].tensor_cores->used);
  CHECK(rows[1].tensor_cores->source == "sass");
}

TEST_CASE("tensor cores: an ambiguous SASS match is not used") {
  TraceBuilder b;
  b.Kernel("gemm", 0, 10);
  std::vector<model::SassFunction> sass = {
      Function("_Z4gemmIfEvv", "void gemm<float>()", "sm_90"),
      Function("_Z4gemmI6__halfEvv", "void gemm<__half>()", "sm_90", {{"HMMA", 16}}),
  };
  auto rows = Rows({"gemm"});  // a bare nsys name: both instances match by base name
  std::vector<std::string> notes;
  AttachTensorCores(b.trace, sass, rows, notes);
  CHECK_FALSE(rows[0].tensor_cores.has_value());
  CHECK(AnyNoteContains(notes, "1 ambiguous"));

  // Instances that agree are used, and the detail says several matched.
  sass[0].matrix_ops = {{"HMMA", 4}};
  notes.clear();
  AttachTensorCores(b.trace, sass, rows, notes);
  REQUIRE(rows[0].tensor_cores.has_value());
  CHECK(rows[0].tensor_cores->used);
  CHECK(rows[0].tensor_cores->instructions[0].second == 16);  // the larger
  CHECK(rows[0].tensor_cores->detail.find("2 functions match this name and agree") !=
        std::string::npos);
}

TEST_CASE("tensor cores: matrix-op counters decide alone") {
  std::map<std::string, double> used = {{"sm__ops_path_tensor_src_bf16_dst_fp32.sum", 6.04e8},
                                        {"sm__ops_path_tensor_src_fp16_dst_fp16.sum", 0},
                                        {"sm__inst_executed_pipe_tensor.sum", 0}};
  auto verdict = TensorCoresFromCounters({&used}, "12.0");
  REQUIRE(verdict.evidence);
  CHECK(verdict.evidence->used);
  CHECK(verdict.evidence->evidence == gpuperf::report::EvidenceTier::kMeasured);
  CHECK(verdict.evidence->source == "counters");
  CHECK(verdict.evidence->detail ==
        "sm__ops_path_tensor_src_bf16_dst_fp32.sum = 6.04e+08 in the kernel's one profiled launch");

  std::map<std::string, double> zero = {
      {"sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active", 0}};
  auto none = TensorCoresFromCounters({&zero, &zero}, "8.0");
  REQUIRE(none.evidence);
  CHECK_FALSE(none.evidence->used);
  CHECK(none.evidence->detail.find("0 in all 2 profiled launches") != std::string::npos);

  std::map<std::string, double> unrelated = {{"dram__bytes_read.sum", 5}};
  CHECK_FALSE(TensorCoresFromCounters({&unrelated}, "9.0").evidence);
  CHECK_FALSE(TensorCoresFromCounters({}, "9.0").evidence);
}

TEST_CASE("tensor cores: the aggregate tensor pipe on GA100 needs zero FP16/FP64 vector work") {
  // The pipe holds more warp instructions than the FP16/FP64 thread instructions / 32 account
  // for (100 000 of them): the rest may be MMA or partial-warp vector work, so it does not decide.
  std::map<std::string, double> fp32_gemm = {
      {"smsp__inst_executed_pipe_tensor.sum", 104857600},
      {"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum", 3200000},
      {"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", 0}};
  auto ga100 = TensorCoresFromCounters({&fp32_gemm}, "8.0");
  CHECK_FALSE(ga100.evidence);
  CHECK(ga100.inconclusive);
  CHECK(TensorCoresFromCounters({&fp32_gemm}, "").inconclusive);  // unknown device: same caution
  auto hopper = TensorCoresFromCounters({&fp32_gemm}, "9.0");
  REQUIRE(hopper.evidence);
  CHECK(hopper.evidence->used);

  std::map<std::string, double> mma_only = {
      {"smsp__inst_executed_pipe_tensor.sum", 1000},
      {"smsp__sass_thread_inst_executed_op_hadd_pred_on.sum", 0},
      {"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum", 0},
      {"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", 0}};
  auto clean = TensorCoresFromCounters({&mma_only}, "8.0");
  REQUIRE(clean.evidence);
  CHECK(clean.evidence->used);
  CHECK(clean.evidence->detail.find("FP16 and FP64 vector counters are 0") != std::string::npos);

  // The attach step says why such counters were left unused and falls through to the name.
  TraceBuilder b;
  b.trace.devices.push_back({});
  b.trace.devices[0].compute_major = 8;
  b.Kernel("void gemm_v0<float>(T1 *, T1 *, T1 *, int, int, int)", 0, 10);
  b.trace.counters.push_back({0, fp32_gemm});
  auto rows = Rows({"void gemm_v0<float>(T1 *, T1 *, T1 *, int, int, int)"});
  std::vector<std::string> notes;
  AttachTensorCores(b.trace, {}, rows, notes);
  CHECK_FALSE(rows[0].tensor_cores.has_value());
  CHECK(AnyNoteContains(notes, "aggregate tensor-pipe counters of 1 kernel name were not used"));
}

TEST_CASE("tensor cores: GA100 vector work that accounts for the whole tensor pipe is not MMA") {
  // An FP32 GEMM whose HFMA2 moves issue to GA100's shared pipe: 32 threads each, so the pipe's
  // warp instructions equal the FP16 thread instructions / 32 and leave none for a matrix op.
  auto launch = [](double pipe, double hfma, double dfma) {
    return std::map<std::string, double>{
        {"smsp__inst_executed_pipe_tensor.sum", pipe},
        {"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum", hfma},
        {"sm__sass_thread_inst_executed_op_hfma_pred_on.sum", hfma},  // the same count, once
        {"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", dfma}};
  };
  auto exact = launch(1000, 32000, 0);
  auto with_fp64 = launch(2000, 32000, 32000);  // FP64 shares the pipe on GA100 too
  auto ga100 = TensorCoresFromCounters({&exact, &with_fp64}, "8.0");
  REQUIRE(ga100.evidence);
  CHECK_FALSE(ga100.evidence->used);
  CHECK(ga100.evidence->evidence == gpuperf::report::EvidenceTier::kMeasured);
  CHECK(ga100.evidence->detail.find("no matrix instruction ran") != std::string::npos);
  CHECK(ga100.evidence->detail.find("largest of 2 profiled launches") != std::string::npos);

  // One launch with a warp instruction the vector work does not cover: undecided.
  auto extra = launch(1001, 32000, 0);
  CHECK(TensorCoresFromCounters({&exact, &extra}, "8.0").inconclusive);
  // Only where the pipe is known to be shared: an unknown device stays undecided, and on other
  // parts FP16 has its own pipe, so the count is matrix work.
  CHECK(TensorCoresFromCounters({&exact}, "").inconclusive);
  auto ga10x = TensorCoresFromCounters({&exact}, "8.6");
  REQUIRE(ga10x.evidence);
  CHECK(ga10x.evidence->used);
}

TEST_CASE("tensor cores: name conventions") {
  auto used = [](const char* name) {
    auto e = TensorCoresFromName(name);
    return e && e->used && e->evidence == gpuperf::report::EvidenceTier::kInferred &&
           e->source == "name";
  };
  auto unused = [](const char* name) {
    auto e = TensorCoresFromName(name);
    return e && !e->used && e->evidence == gpuperf::report::EvidenceTier::kInferred;
  };
  CHECK(used("ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn"));
  CHECK(used("volta_h884gemm_64x64_ldg8_nn"));
  CHECK(
      used("void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32>(Params)"));
  CHECK(used("nvjet_tst_128x128_64x4_1x2_h_bz_coopB_NNT"));
  CHECK(used("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1"));
  CHECK(used("void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4>>(Flash_fwd_params)"));
  CHECK(unused("ampere_sgemm_128x64_nn"));
  CHECK(unused("void gemv2T_kernel_val<int, int, float, float, float>(float)"));
  CHECK(unused("cutlass_80_simt_sgemm_128x128_8x4_nn_align1"));
  CHECK_FALSE(TensorCoresFromName("void at::native::vectorized_elementwise_kernel<4>(int)"));
  CHECK_FALSE(TensorCoresFromName("summary_kernel"));  // "mma" alone is no evidence
  CHECK_FALSE(TensorCoresFromName("flash_fwd_splitkv_combine_kernel"));  // a reduction
}

TEST_CASE("tensor cores: Analyze passes the SASS option through") {
  TraceBuilder b;
  b.Kernel("k", 0, 10);
  gpuperf::analysis::AnalyzeOptions options;
  options.sass.push_back(Function("k", "k", "sm_90", {{"HGMMA", 96}}));
  report::AnalysisReport out = gpuperf::analysis::Analyze(b.trace, options);
  const auto& row = Row(out.kernels, "k");
  REQUIRE(row.tensor_cores.has_value());
  CHECK(row.tensor_cores->used);
  CHECK(row.tensor_cores->detail ==
        "96 HGMMA in the sm_90 SASS of bin/app (matched by mangled name)");
  CHECK(AnyNoteContains(out.notes, "matched 1 kernel name."));
}
