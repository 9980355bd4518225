// The framework view (src/analysis/framework): operators with TraceLens' direct / subtree
// definitions, categories, modules with backward attribution, steps. Synthetic traces whose
// figures are computed by hand; the corpus comparison with TraceLens is framework_gold_test.cc.
#include "gpuperf/analyze.h"

#include <catch2/catch.hpp>

#include "analysis/framework/categories.h"
#include "analysis/kernel/readable_name.h"
#include "analysis_builder.h"
#include "report/json_writer.h"
#include "report/markdown_writer.h"

namespace {

using gpuperf::report::AnalysisReport;
using gpuperf::report::OperatorRow;
using gpuperf::testing::TraceBuilder;

const OperatorRow* FindOp(const AnalysisReport& report, const std::string& name) {
  for (const OperatorRow& op : report.framework.operators) {
    if (op.name == name)
      return &op;
  }
  return nullptr;
}

const gpuperf::report::CategoryRow* FindCategory(const AnalysisReport& report,
                                                 const std::string& name) {
  for (const auto& c : report.framework.categories) {
    if (gpuperf::report::ToString(c.category) == name)
      return &c;
  }
  return nullptr;
}

// aten::linear [0, 100] holds aten::addmm [10, 50] (one launch), a launch of its own and an
// "execute" pass-through op with one launch; a second addmm replays a graph of two overlapping
// kernels; one launch sits outside any op.
TraceBuilder OperatorTrace() {
  TraceBuilder b;
  b.Op("aten::linear", 0, 100);
  b.Op("aten::addmm", 10, 50);
  b.Api("cudaLaunchKernel", 20, 30, 1);
  b.Kernel("sm90_xmma_gemm_bf16", 200, 260, 1);
  b.Api("cudaLaunchKernel", 60, 70, 2);
  b.Kernel("void at::native::vectorized_elementwise_kernel<4>(int)", 300, 310, 2);
  b.Op("execute", 80, 95);
  b.Api("cudaLaunchKernel", 85, 90, 3);
  b.Kernel("bias_kernel", 320, 330, 3);
  b.Op("aten::addmm", 110, 150);
  b.Api("cudaGraphLaunch", 120, 130, 4);
  b.Kernel("sm90_xmma_gemm_bf16", 400, 450, 4);
  b.Kernel("sm90_xmma_gemm_bf16", 420, 480, 4);
  b.Api("cudaLaunchKernel", 500, 510, 5);
  b.Kernel("void at::native::vectorized_elementwise_kernel<4>(int)", 600, 620, 5);
  b.Op("aten::arange", 520, 530);  // no GPU work: no row
  b.Memset(700, 705, 64);          // no launch call: no operator, memset category
  return b;
}

}  // namespace

TEST_CASE("Operators: direct and subtree GPU time as TraceLens defines them", "[framework]") {
  TraceBuilder b = OperatorTrace();
  AnalysisReport report = gpuperf::analysis::Analyze(b.trace);
  CHECK(report.framework.op_source == gpuperf::report::OperatorSource::kCpuOp);

  const OperatorRow* addmm = FindOp(report, "aten::addmm");
  REQUIRE(addmm);
  CHECK(addmm->calls == 2);
  CHECK(addmm->instances == 2);
  CHECK(addmm->kernel_ns == 60 + 80);  // the graph's two kernels overlap: union 400..480
  CHECK(addmm->subtree_kernel_ns == 140);
  CHECK(addmm->launches == 3);
  CHECK(addmm->graph_launches == 1);
  CHECK(addmm->category == gpuperf::report::FrameworkCategory::kGemm);
  CHECK(addmm->category_tier == gpuperf::report::CategoryTier::kOperator);
  CHECK(addmm->top_kernel == "sm90_xmma_gemm_bf16");

  const OperatorRow* linear = FindOp(report, "aten::linear");
  REQUIRE(linear);
  CHECK(linear->calls == 1);  // its own launch, and execute's (a pass-through)
  CHECK(linear->kernel_ns == 10 + 10);
  CHECK(linear->subtree_kernel_ns == 60 + 10 + 10);
  CHECK(linear->host_total_ns == 100);
  CHECK(linear->host_self_ns == 100 - 40 - 15);

  const OperatorRow* execute = FindOp(report, "execute");
  REQUIRE(execute);
  CHECK(execute->calls == 0);
  CHECK(execute->kernel_ns == 0);
  CHECK(execute->subtree_kernel_ns == 10);

  const OperatorRow* bare = FindOp(report, "cudaLaunchKernel");
  REQUIRE(bare);
  CHECK(bare->source == gpuperf::report::OperatorSource::kLaunchCall);
  CHECK(bare->calls == 1);
  CHECK(bare->kernel_ns == 20);
  CHECK(bare->category == gpuperf::report::FrameworkCategory::kElementwise);
  CHECK(bare->category_tier == gpuperf::report::CategoryTier::kKernelName);

  CHECK(FindOp(report, "aten::arange") == nullptr);
  CHECK(report.framework.operators.front().name == "aten::addmm");  // by direct GPU time

  // The kernel table learns each kernel's launching operator.
  for (const auto& k : report.kernels) {
    if (k.name == "sm90_xmma_gemm_bf16")
      CHECK(k.top_operator == "aten::addmm");
  }
}

TEST_CASE("Categories hold every activity once, operator name first", "[framework]") {
  TraceBuilder b = OperatorTrace();
  AnalysisReport report = gpuperf::analysis::Analyze(b.trace);
  std::int64_t sum = 0;
  for (const auto& c : report.framework.categories) {
    sum += c.kernel_ns;
    CHECK(c.by_operator_ns + c.by_kernel_name_ns + c.by_activity_ns == c.kernel_ns);
  }
  CHECK(sum == report.framework.total_gpu_ns);
  CHECK(report.framework.total_gpu_ns == 60 + 10 + 10 + 50 + 60 + 20 + 5);
  // linear's own elementwise kernel and execute's kernel are gemm: the operator decides.
  const auto* gemm = FindCategory(report, "gemm");
  REQUIRE(gemm);
  CHECK(gemm->kernel_ns == 60 + 10 + 10 + 50 + 60);
  CHECK(gemm->by_operator_ns == gemm->kernel_ns);
  const auto* elementwise = FindCategory(report, "elementwise");
  REQUIRE(elementwise);
  CHECK(elementwise->kernel_ns == 20);
  CHECK(elementwise->by_kernel_name_ns == 20);
  const auto* memset = FindCategory(report, "memset");
  REQUIRE(memset);
  CHECK(memset->by_activity_ns == 5);
}

TEST_CASE("Category rules: operator names and kernel names", "[framework]") {
  using Category = gpuperf::report::FrameworkCategory;
  using gpuperf::analysis::framework::CategoryOfKernel;
  using gpuperf::analysis::framework::CategoryOfOperator;
  CHECK(CategoryOfOperator("aten::mm") == Category::kGemm);
  CHECK(CategoryOfOperator("aten::_flash_attention_forward") == Category::kAttention);
  CHECK(CategoryOfOperator("aten::cudnn_convolution") == Category::kConvolution);
  CHECK(CategoryOfOperator("aten::native_layer_norm") == Category::kReductionNormalization);
  CHECK(CategoryOfOperator("aten::_softmax") == Category::kReductionNormalization);
  CHECK(CategoryOfOperator("aten::copy_") == Category::kCopyLayout);
  CHECK(CategoryOfOperator("aten::mul") == Category::kElementwise);
  CHECK(CategoryOfOperator("aten::add_") == Category::kElementwise);
  CHECK(CategoryOfOperator("vllm::all_reduce") == Category::kCommunication);
  CHECK(CategoryOfOperator("symm_mem::multimem_all_reduce_") == Category::kCommunication);
  CHECK(CategoryOfOperator("c10d::allreduce_") == Category::kCommunication);
  CHECK(CategoryOfOperator("autograd::engine::evaluate_function: MmBackward0") == Category::kGemm);
  CHECK(CategoryOfOperator("aten::gelu_backward") == Category::kElementwise);
  CHECK_FALSE(CategoryOfOperator("my_custom_block").has_value());
  CHECK_FALSE(CategoryOfOperator("cudaLaunchKernel").has_value());

  CHECK(
      CategoryOfKernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096>)") ==
      Category::kCommunication);
  CHECK(CategoryOfKernel("void multimem_all_reduce_kernel<bf16>(...)") == Category::kCommunication);
  CHECK(CategoryOfKernel("void cudnn::ops::nchwToNhwcKernel<float>(...)") == Category::kCopyLayout);
  CHECK(CategoryOfKernel("sm80_xmma_fprop_implicit_gemm_f32f32_tf32f32") == Category::kConvolution);
  CHECK(CategoryOfKernel("nvjet_hsh_128x256_64x4_2x1_v_bz_coopA_TNT") == Category::kGemm);
  CHECK(CategoryOfKernel("void splitKreduce_kernel<32, 16>(...)") == Category::kGemm);
  CHECK(CategoryOfKernel("void at::native::(anonymous namespace)::cunn_SoftMaxForward<4>(...)") ==
        Category::kReductionNormalization);
  CHECK(CategoryOfKernel("void at::native::reduce_kernel<512, 1>(...)") ==
        Category::kReductionNormalization);
  CHECK(CategoryOfKernel("triton_poi_fused__to_copy_convert_element_type_0") ==
        Category::kCopyLayout);
  CHECK(CategoryOfKernel("triton_poi_fused_add_mul_0") == Category::kElementwise);
  CHECK(CategoryOfKernel("void flash_fwd_kernel<Flash_fwd_params>(...)") == Category::kAttention);
  CHECK(CategoryOfKernel("my_kernel") == Category::kOther);
  // TensorRT-LLM's batched GEMMs are named by their operand types (vLLM's MoE on Blackwell).
  CHECK(CategoryOfKernel("bmm_MxE4m3_MxE2m1MxE4m3_Fp32_t128x16x256u2_s3_et128x16_m128x16x32") ==
        Category::kGemm);
  CHECK(CategoryOfKernel("fused_moe_kernel") == Category::kGemm);
  // CUTLASS in the kernel's own name is a GEMM; its types in another kernel's template arguments
  // are not.
  CHECK(CategoryOfKernel("void cutlass::Kernel2<cutlass_80_tensorop_s1688_128x128>(Params)") ==
        Category::kGemm);
  CHECK(CategoryOfKernel("void moe::dev::finalize::finalizeKernelVecLoad<moe::dev::finalize::"
                         "KernelParams<cutlass::bfloat16_t, float>>(...)") == Category::kOther);
  CHECK(CategoryOfKernel("void device_kernel<cutlass::gemm::kernel::GemmUniversal<>>(...)") ==
        Category::kGemm);
}

TEST_CASE("Modules: classes, nesting in itself, backward linked by sequence number",
          "[framework]") {
  TraceBuilder b;
  b.Frame("nn.Module: Model_0", 0, 1000);
  b.Frame("nn.Module: Block_0", 0, 400);
  b.Frame("nn.Module: Block_2", 10, 300);  // a Block inside a Block: one outermost instance
  b.Op("aten::mm", 20, 60).sequence = 1;
  b.trace.host_ops.back().fwd_thread = 0;
  b.Api("cudaLaunchKernel", 30, 40, 1);
  b.Kernel("gemm_a", 2000, 2100, 1);
  b.Frame("nn.Module: Block_1", 400, 800);
  b.Op("aten::mm", 420, 460).sequence = 2;
  b.trace.host_ops.back().fwd_thread = 0;
  b.Api("cudaLaunchKernel", 430, 440, 2);
  b.Kernel("gemm_a", 2200, 2300, 2);
  // The autograd thread: MmBackward0 for sequence 2, its aten::mm launches a 50 ns kernel.
  auto& backward = b.Op("autograd::engine::evaluate_function: MmBackward0", 1100, 1200, 102);
  backward.sequence = 2;
  backward.fwd_thread = 1;
  b.Op("aten::mm", 1110, 1190, 102);
  b.Api("cudaLaunchKernel", 1120, 1130, 3).tid = 102;
  b.Kernel("gemm_b", 2400, 2450, 3);
  // Backward work with no forward op of that sequence number.
  auto& orphan = b.Op("autograd::engine::evaluate_function: AddBackward0", 1300, 1400, 102);
  orphan.sequence = 9;
  orphan.fwd_thread = 1;
  b.Api("cudaLaunchKernel", 1310, 1320, 4).tid = 102;
  b.Kernel("add_kernel", 2500, 2507, 4);

  AnalysisReport report = gpuperf::analysis::Analyze(b.trace);
  std::map<std::string, gpuperf::report::ModuleRow> modules;
  for (const auto& m : report.framework.modules)
    modules[m.name] = m;
  REQUIRE(modules.count("Model"));
  REQUIRE(modules.count("Block"));
  CHECK(modules["Model"].calls == 1);
  CHECK(modules["Model"].forward_ns == 200);
  CHECK(modules["Model"].backward_ns == 50);
  CHECK(modules["Model"].kernel_ns == 250);
  CHECK(modules["Model"].depth == 0);
  CHECK(modules["Block"].calls == 2);  // Block_2 nests in Block_0
  CHECK(modules["Block"].kernel_ns == 250);
  CHECK(modules["Block"].depth == 1);
  CHECK(modules["(backward without a forward module)"].backward_ns == 7);
  CHECK(report.framework.modules.front().name == "Model");

  // The tree by path of classes: both Blocks under Model are one node; Block_2 nests deeper.
  std::map<std::string, gpuperf::report::ModuleTreeNode> tree;
  for (const auto& n : report.framework.module_tree)
    tree[n.path] = n;
  CHECK(tree["Model"].kernel_ns == 200);
  CHECK(tree["Model/Block"].kernel_ns == 200);
  CHECK(tree["Model/Block"].calls == 2);
  CHECK(tree["Model/Block/Block"].kernel_ns == 100);
  CHECK(tree["Model/Block/Block"].depth == 2);
  CHECK(report.framework.module_tree.front().path == "Model");
}

TEST_CASE("Steps: wall, GPU busy, launches, robust spread and the warm-up outlier", "[framework]") {
  TraceBuilder b;
  const std::int64_t walls[] = {1000, 100, 110, 105};
  std::int64_t start = 0;
  for (int i = 0; i < 4; ++i) {
    b.AddRange(gpuperf::model::RangeKind::kProfilerStep,
               "ProfilerStep#" + std::to_string(i),
               start,
               start + walls[i]);
    b.trace.ranges.back().pid = 100;
    b.trace.ranges.back().tid = 101;
    b.Api("cudaLaunchKernel", start + 1, start + 5, i + 1);
    b.Kernel("k", start + 10, start + 60, i + 1);
    start += walls[i];
  }
  AnalysisReport report = gpuperf::analysis::Analyze(b.trace);
  const auto& steps = report.framework.steps;
  REQUIRE(steps.size() == 4);
  CHECK(steps[0].wall_ns == 1000);
  CHECK(steps[0].gpu_busy_ns == 50);
  CHECK(steps[0].idle_ns == 950);
  CHECK(steps[1].start_ns == 1000);
  CHECK(steps[2].kernel_ns == 50);
  CHECK(steps[2].launches == 1);
  REQUIRE(report.framework.step_summary);
  const auto& s = *report.framework.step_summary;
  CHECK(s.steps == 4);
  CHECK(s.median_wall_ns == Approx(107.5));
  CHECK(s.p95_wall_ns == Approx(1000));
  CHECK(s.mad_wall_ns == Approx(5));  // deviations 892.5, 7.5, 2.5, 2.5
  CHECK(s.first_step_outlier);

  gpuperf::analysis::AnalyzeOptions options;
  options.step_range = "^ProfilerStep#[12]$";
  AnalysisReport named = gpuperf::analysis::Analyze(b.trace, options);
  CHECK(named.framework.steps.size() == 2);
  REQUIRE(named.framework.step_summary);
  CHECK_FALSE(named.framework.step_summary->first_step_outlier);  // fewer than three steps
}

TEST_CASE("NVTX ranges are the operators when the input has no framework ops", "[framework]") {
  TraceBuilder b;
  b.AddRange(gpuperf::model::RangeKind::kNvtx, "forward", 0, 100);
  b.trace.ranges.back().pid = 100;
  b.trace.ranges.back().tid = 101;
  b.AddRange(gpuperf::model::RangeKind::kNvtx, "attention", 10, 50);
  b.trace.ranges.back().pid = 100;
  b.trace.ranges.back().tid = 101;
  b.Api("cudaLaunchKernel", 20, 30, 1);
  b.Kernel("k1", 200, 240, 1);
  b.Api("cudaLaunchKernel", 60, 70, 2);
  b.Kernel("k2", 300, 310, 2);
  AnalysisReport report = gpuperf::analysis::Analyze(b.trace);
  CHECK(report.framework.op_source == gpuperf::report::OperatorSource::kNvtx);
  const OperatorRow* forward = FindOp(report, "forward");
  REQUIRE(forward);
  CHECK(forward->source == gpuperf::report::OperatorSource::kNvtx);
  CHECK(forward->kernel_ns == 10);
  CHECK(forward->subtree_kernel_ns == 50);
  const OperatorRow* attention = FindOp(report, "attention");
  REQUIRE(attention);
  CHECK(attention->kernel_ns == 40);
  CHECK(attention->category == gpuperf::report::FrameworkCategory::kAttention);
}

TEST_CASE(
    "Operators: an instance with only child launches is no call, bare calls lose nsys' "
    "version suffix",
    "[framework]") {
  TraceBuilder b;
  auto range = [&](const char* name, std::int64_t start, std::int64_t end) {
    b.AddRange(gpuperf::model::RangeKind::kNvtx, name, start, end);
    b.trace.ranges.back().pid = 100;
    b.trace.ranges.back().tid = 101;
  };
  range("runFusion", 0, 100);  // launches nothing itself
  range("execute_kernel", 10, 50);
  b.Api("cuLaunchKernel", 20, 30, 1);
  b.Kernel("k1", 200, 240, 1);
  // Outside any range, under two spellings of one API: one row, named as nsys prints it.
  b.Api("cudaLaunchKernel_v7000", 110, 120, 2);
  b.Kernel("k2", 300, 310, 2);
  b.Api("cudaLaunchKernel", 130, 140, 3);
  b.Kernel("k3", 320, 325, 3);
  AnalysisReport report = gpuperf::analysis::Analyze(b.trace);
  const OperatorRow* outer = FindOp(report, "runFusion");
  REQUIRE(outer);
  CHECK(outer->instances == 1);
  CHECK(outer->calls == 0);
  CHECK(outer->kernel_ns == 0);
  CHECK(outer->subtree_kernel_ns == 40);
  const OperatorRow* bare = FindOp(report, "cudaLaunchKernel");
  REQUIRE(bare);
  CHECK(bare->source == gpuperf::report::OperatorSource::kLaunchCall);
  CHECK(bare->calls == 2);
  CHECK(bare->instances == 2);
  CHECK(bare->kernel_ns == 15);
  CHECK_FALSE(FindOp(report, "cudaLaunchKernel_v7000"));
  for (const auto& c : report.framework.categories) {
    for (const std::string& op : c.top_operators)
      CHECK(op != "cudaLaunchKernel_v7000");
  }
}

// Launches outside any operator keep TraceLens' row name in report.json (the gold test needs it)
// but never read as an operator in report.md: the operators and the categories tables say
// "(no operator) via cudaLaunchKernel".
TEST_CASE("report.md labels a launch call's row as no operator, report.json keeps its name",
          "[framework][markdown]") {
  AnalysisReport report = gpuperf::analysis::Analyze(OperatorTrace().trace);
  const OperatorRow* bare = FindOp(report, "cudaLaunchKernel");
  REQUIRE(bare);
  CHECK(bare->source == gpuperf::report::OperatorSource::kLaunchCall);
  CHECK(gpuperf::analysis::OperatorDisplayName(bare->name, bare->source) ==
        "(no operator) via cudaLaunchKernel");
  CHECK(gpuperf::analysis::OperatorDisplayName(
            "aten::addmm", gpuperf::report::OperatorSource::kCpuOp) == "aten::addmm");
  std::string md = gpuperf::report::ToMarkdown(report);
  CHECK(md.find("| (no operator) via cudaLaunchKernel | elementwise |") != std::string::npos);
  CHECK(md.find("| cudaLaunchKernel | elementwise |") == std::string::npos);
  // The categories table's top operators too: the row above and the elementwise category.
  std::size_t first = md.find("(no operator) via cudaLaunchKernel");
  REQUIRE(first != std::string::npos);
  CHECK(md.find("(no operator) via cudaLaunchKernel", first + 1) != std::string::npos);
}

TEST_CASE("Steps: one step is a wall time in report.md and not a distribution", "[framework]") {
  TraceBuilder b;
  b.AddRange(gpuperf::model::RangeKind::kProfilerStep, "ProfilerStep#0", 0, 1000);
  b.trace.ranges.back().pid = 100;
  b.trace.ranges.back().tid = 101;
  b.Api("cudaLaunchKernel", 1, 5, 1);
  b.Kernel("k", 10, 60, 1);
  AnalysisReport report = gpuperf::analysis::Analyze(b.trace);
  REQUIRE(report.framework.step_summary);
  CHECK(report.framework.step_summary->steps == 1);
  std::string md = gpuperf::report::ToMarkdown(report);
  CHECK(md.find("one step): wall 1.00 µs") != std::string::npos);
  CHECK(md.find("MAD") == std::string::npos);
}

// Two steps; in each an aten::mm with recorded shapes (modelled FLOPs) launches a 1 ms GEMM, and
// with `unmodelled_conv` an aten::cudnn_convolution without shapes launches a 9 ms kernel. The
// FLOPs then miss a convolution holding 90% of a step's GPU time: no MFU, and report.md says why.
TEST_CASE("Steps: MFU only when the FLOP models cover the step's GEMMs and convolutions",
          "[framework]") {
  constexpr std::int64_t kMs = 1'000'000;
  auto build = [](bool unmodelled_conv) {
    TraceBuilder b;
    gpuperf::model::Device d;
    d.name = "NVIDIA H100 80GB HBM3";
    d.compute_major = 9;
    d.sm_count = 132;
    b.trace.devices.push_back(d);
    int id = 0;
    for (int i = 0; i < 2; ++i) {
      std::int64_t t = i * 20 * kMs;
      b.AddRange(gpuperf::model::RangeKind::kProfilerStep,
                 "ProfilerStep#" + std::to_string(i),
                 t,
                 t + 20 * kMs);
      b.trace.ranges.back().pid = 100;
      b.trace.ranges.back().tid = 101;
      gpuperf::model::HostOp& mm = b.Op("aten::mm", t + 1000, t + 2000);
      mm.input_dims = b.trace.strings.Intern("[[1024,1024],[1024,1024]]");
      mm.input_types = b.trace.strings.Intern(R"(["float","float"])");
      b.Api("cudaLaunchKernel", t + 1100, t + 1200, ++id);
      b.Kernel("gemm", t + 10'000, t + 10'000 + 1 * kMs, id);
      if (unmodelled_conv) {
        b.Op("aten::cudnn_convolution", t + 3000, t + 4000);
        b.Api("cudaLaunchKernel", t + 3100, t + 3200, ++id);
        b.Kernel("conv", t + 2 * kMs, t + 11 * kMs, id);
      }
    }
    return gpuperf::analysis::Analyze(b.trace);
  };
  AnalysisReport covered = build(false);
  REQUIRE(covered.framework.steps.size() == 2);
  CHECK(covered.framework.steps[0].flops == 2LL * 1024 * 1024 * 1024);
  CHECK(covered.framework.steps[0].unmodeled_math_ns == 0);
  CHECK(covered.framework.steps[0].unmodeled_math_fraction == 0);
  CHECK(covered.framework.steps[0].mfu.has_value());
  REQUIRE(covered.framework.step_summary);
  CHECK_FALSE(covered.framework.step_summary->no_mfu_unmodeled_math_fraction);
  AnalysisReport partial = build(true);
  const auto& step = partial.framework.steps.at(0);
  CHECK(step.kernel_ns == 10 * kMs);
  CHECK(step.unmodeled_math_ns == 9 * kMs);
  CHECK(step.unmodeled_math_fraction == Approx(0.9));  // the analysis divides, not the writer
  CHECK(step.flops == 2LL * 1024 * 1024 * 1024);
  CHECK_FALSE(step.mfu.has_value());
  // The analysis decides that the missing MFU is unmodelled math's doing; the writer only prints.
  REQUIRE(partial.framework.step_summary);
  CHECK(partial.framework.step_summary->no_mfu_unmodeled_math_fraction == Approx(0.9));
  CHECK(gpuperf::report::ToJson(partial)["step_summary"]["no_mfu_unmodeled_math_fraction"]
            .get<double>() == Approx(0.9));
  std::string md = gpuperf::report::ToMarkdown(partial);
  CHECK(md.find("No MFU: GEMM, convolution and attention kernels holding 90.0% of a step's GPU "
                "time") != std::string::npos);
}

TEST_CASE("Operators: launches from a thread with no NVTX range beside a marked thread are named",
          "[framework]") {
  // The main thread (101) marks a step; a second thread (202, autograd's in PyTorch) launches
  // two kernels during it and marks nothing. A third process marks nothing at all.
  TraceBuilder b;
  b.AddRange(gpuperf::model::RangeKind::kNvtx, "train_step", 0, 1000);
  b.trace.ranges.back().pid = 100;
  b.trace.ranges.back().tid = 101;
  b.Api("cudaLaunchKernel", 10, 20, 1);
  b.Kernel("forward", 30, 130, 1);
  b.Api("cuLaunchKernelEx", 200, 210, 2).tid = 202;
  b.Kernel("backward_gemm", 220, 420, 2);
  b.Api("cuLaunchKernelEx", 300, 310, 3).tid = 202;
  b.Kernel("backward_gemm", 430, 530, 3);
  auto& other = b.Api("cudaLaunchKernel", 400, 410, 4);
  other.pid = 300;
  other.tid = 301;
  b.Kernel("elsewhere", 540, 550, 4);
  AnalysisReport report = gpuperf::analysis::Analyze(b.trace);
  REQUIRE(report.framework.unmarked_threads.size() == 1);
  const auto& t = report.framework.unmarked_threads.front();
  CHECK(t.pid == 100);
  CHECK(t.tid == 202);
  CHECK(t.launches == 2);
  CHECK(t.gpu_ns == 300);
  std::string md = gpuperf::report::ToMarkdown(report);
  CHECK(md.find("2 GPU activities (300 ns of GPU time, 73.2%) were launched from thread 202 that "
                "records no NVTX range while another thread of the process does") !=
        std::string::npos);

  // Framework operators are recorded on every thread that runs them: no such list.
  TraceBuilder ops;
  ops.Op("aten::mm", 0, 100);
  ops.Api("cudaLaunchKernel", 10, 20, 1);
  ops.Kernel("k", 30, 130, 1);
  ops.Api("cudaLaunchKernel", 200, 210, 2).tid = 202;
  ops.Kernel("k", 220, 320, 2);
  CHECK(gpuperf::analysis::Analyze(ops.trace).framework.unmarked_threads.empty());
}
