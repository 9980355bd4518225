// The levers of a GPU-bound window (src/analysis/framework/levers.h), on hand-built framework
// views: each rule fires on its pattern, stays silent below its share, and bounds what it saves.
#include "analysis/framework/levers.h"

#include <catch2/catch.hpp>

namespace {

using gpuperf::analysis::DeviceRoofsTable;
using gpuperf::analysis::framework::FindLevers;
using gpuperf::analysis::framework::Lever;
using gpuperf::report::AnalysisReport;

gpuperf::report::OperatorRow Op(const std::string& name,
                                const std::string& category,
                                std::int64_t ns,
                                const std::string& module = "") {
  gpuperf::report::OperatorRow op;
  op.name = name;
  op.category = gpuperf::report::ParseFrameworkCategory(category).value();
  op.kernel_ns = ns;
  op.calls = 1;
  op.launches = 1;
  op.top_module = module;
  return op;
}

gpuperf::report::CategoryRow Category(const std::string& name, std::int64_t ns) {
  gpuperf::report::CategoryRow c;
  c.category = gpuperf::report::ParseFrameworkCategory(name).value();
  c.kernel_ns = ns;
  return c;
}

AnalysisReport Report(std::int64_t wall_ns, std::int64_t gpu_ns) {
  AnalysisReport r;
  r.predictions.wall_ns = wall_ns;
  r.framework.total_gpu_ns = gpu_ns;
  return r;
}

const Lever* Find(const std::vector<Lever>& levers, const std::string& kind) {
  for (const Lever& l : levers) {
    if (gpuperf::report::ToString(l.kind) == kind)
      return &l;
  }
  return nullptr;
}

gpuperf::model::Trace A100Trace() {
  gpuperf::model::Trace trace;
  gpuperf::model::Device device;
  device.id = 0;
  device.name = "NVIDIA A100-SXM4-80GB";
  device.compute_major = 8;
  trace.devices.push_back(device);
  return trace;
}

}  // namespace

TEST_CASE("Eager attention (bmm + softmax in one module) points to SDPA", "[levers]") {
  AnalysisReport r = Report(1000, 1000);
  r.framework.operators = {Op("aten::bmm", "gemm", 300, "SelfAttention"),
                           Op("aten::_softmax", "reduction_normalization", 400, "SelfAttention"),
                           Op("aten::mul", "elementwise", 100, "SelfAttention"),
                           Op("aten::addmm", "gemm", 200, "Linear")};
  r.framework.categories = {Category("gemm", 500),
                            Category("reduction_normalization", 400),
                            Category("elementwise", 100)};
  gpuperf::model::Trace trace;
  auto levers = FindLevers(trace, DeviceRoofsTable(trace), r);
  const Lever* sdpa = Find(levers, "use_sdpa");
  REQUIRE(sdpa);
  CHECK(sdpa->subject == "SelfAttention");
  CHECK(sdpa->time_ns == 800);
  CHECK(sdpa->saved_ns == 500);  // softmax + mul vanish, the batched GEMMs stay
  CHECK(sdpa->bound_speedup == Approx(2.0));
  CHECK(levers.front().kind == gpuperf::report::LeverKind::kUseSdpa);

  // Flash attention already runs there: no lever.
  r.framework.operators.push_back(
      Op("aten::_flash_attention_forward", "attention", 500, "SelfAttention"));
  CHECK_FALSE(Find(FindLevers(trace, DeviceRoofsTable(trace), r), "use_sdpa"));
}

TEST_CASE("An elementwise chain that outweighs the GEMMs is a fusion lever", "[levers]") {
  AnalysisReport r = Report(2000, 1000);
  r.framework.operators = {Op("aten::mul", "elementwise", 300),
                           Op("aten::copy_", "copy_layout", 100),
                           Op("aten::mm", "gemm", 250)};
  r.framework.categories = {
      Category("elementwise", 300), Category("copy_layout", 100), Category("gemm", 250)};
  gpuperf::model::Trace trace;
  auto levers = FindLevers(trace, DeviceRoofsTable(trace), r);
  const Lever* fuse = Find(levers, "fuse_elementwise");
  REQUIRE(fuse);
  CHECK(fuse->time_ns == 400);
  CHECK(fuse->fraction == Approx(0.2));
  CHECK(fuse->bound_speedup == Approx(1.25));
  CHECK(fuse->subject == "aten::mul, aten::copy_");
  // The time, the names and the launches say which set each is from.
  CHECK(fuse->basis.find("400 ns of it launched by elementwise and copy operators (the first "
                         "by time: aten::mul 300 ns, aten::copy_ 100 ns), 0 ns by other "
                         "operators") != std::string::npos);
  CHECK(fuse->experiment.find("2 launches by elementwise and copy operators") != std::string::npos);
  // Over a steady-state window the diagnosis names (one-time work left out), not the report's.
  auto steady_levers = FindLevers(trace, DeviceRoofsTable(trace), r, 1000);
  const Lever* steady = Find(steady_levers, "fuse_elementwise");
  REQUIRE(steady);
  CHECK(steady->fraction == Approx(0.4));

  // GEMMs dominate: no fusion lever.
  r.framework.categories[2].kernel_ns = 600;
  CHECK_FALSE(Find(FindLevers(trace, DeviceRoofsTable(trace), r), "fuse_elementwise"));
}

TEST_CASE("A fused elementwise chain is not free: its floor bytes at DRAM bandwidth stay",
          "[levers]") {
  gpuperf::model::Trace trace = A100Trace();  // A100 SXM4 80GB: 2039 GB/s
  AnalysisReport r = Report(2'000'000, 1'000'000);
  r.framework.operators = {Op("aten::mul", "elementwise", 300'000),
                           Op("aten::copy_", "copy_layout", 100'000),
                           Op("aten::mm", "gemm", 250'000)};
  // Two runs between the GEMMs; the one with recorded shapes takes 300 us, its floor 100 us.
  gpuperf::report::ElementwiseChains& chains = r.framework.elementwise_chains;
  chains.chains = 2;
  chains.kernel_ns = 400'000;
  chains.longest_ops = 3;
  chains.bounded_chains = 1;
  chains.bounded_kernel_ns = 300'000;
  chains.floor_bytes = 203'900'000;  // 100 us at 2039 GB/s
  chains.floor_ns = 100'000;
  r.framework.categories = {Category("elementwise", 300'000),
                            Category("copy_layout", 100'000),
                            Category("gemm", 250'000)};
  const auto fuse_levers = FindLevers(trace, DeviceRoofsTable(trace), r);
  const Lever* fuse = Find(fuse_levers, "fuse_elementwise");
  REQUIRE(fuse);
  CHECK(fuse->time_ns == 400'000);
  // 400 us less the 100 us floor: the copy without a byte model counts as free.
  CHECK(fuse->saved_ns == 300'000);
  CHECK(fuse->fraction == Approx(0.15));
  CHECK(fuse->assumed_ns == 100'000);
  CHECK(fuse->basis.find("each of the 2 runs of consecutive elementwise and copy kernels (3 "
                         "calls in the longest)") != std::string::npos);
  CHECK(fuse->basis.find("for the 1 with recorded shapes 0.204 GB, 100 µs at the DRAM bandwidth "
                         "against the 300 µs their kernels take now") != std::string::npos);
  CHECK(fuse->basis.find("the other 100 µs is counted as free") != std::string::npos);
  // Without a floor (no device bandwidth): the whole time, said to be an upper bound.
  chains.bounded_chains = 0;
  chains.bounded_kernel_ns = 0;
  chains.floor_bytes = 0;
  chains.floor_ns = 0;
  const auto free_fuse_levers = FindLevers(trace, DeviceRoofsTable(trace), r);
  const Lever* free_fuse = Find(free_fuse_levers, "fuse_elementwise");
  REQUIRE(free_fuse);
  CHECK(free_fuse->saved_ns == 400'000);
}

TEST_CASE("FP32 GEMMs on a TF32 GPU are bounded at the TF32 roof", "[levers]") {
  gpuperf::model::Trace trace = A100Trace();
  AnalysisReport r = Report(10'000'000, 10'000'000);
  auto mm = Op("aten::mm", "gemm", 5'000'000);
  gpuperf::report::OperatorShape shape;
  shape.precision = "fp32";
  shape.kernel_ns = 5'000'000;
  // 5 ms at 15.6 TFLOP/s: 80% of the A100's 19.5 TFLOP/s FP32 peak; TF32 is 156 TFLOP/s.
  shape.flops = 78'000'000'000;
  shape.calls = 1;
  mm.shapes = {shape};
  mm.top_kernel = "ampere_sgemm_128x64_tn";
  r.framework.operators = {mm};
  r.framework.categories = {Category("gemm", 5'000'000)};
  // Its kernel runs alone while the program waits for it the whole time: all of it is critical.
  gpuperf::report::CriticalShare sgemm;
  sgemm.name = mm.top_kernel;
  sgemm.total_ns = 5'000'000;
  sgemm.critical_ns = 5'000'000;
  r.predictions.kernels = {sgemm};
  auto levers = FindLevers(trace, DeviceRoofsTable(trace), r);
  const Lever* tf32 = Find(levers, "tf32_or_amp");
  REQUIRE(tf32);
  // Not at 100% of the TF32 peak (0.5 ms): at the 80% of peak the shape reaches now,
  // 78 GFLOP / (0.8 x 156 TFLOP/s) = 0.625 ms, so 4.375 ms come back.
  CHECK(tf32->saved_ns == 4'375'000);
  CHECK(tf32->bound_speedup == Approx(1.0 / (1.0 - 0.4375)));
  CHECK(
      tf32->basis.find("80% of the 19.5 TFLOP/s FP32 peak: modeled FLOPs over the kernels' time") !=
      std::string::npos);
  // That is an estimate; the ceiling is the TF32 peak itself: 0.5 ms, so 4.5 ms at most.
  REQUIRE(tf32->ceiling_saved_ns);
  CHECK(*tf32->ceiling_saved_ns == 4'500'000);
  CHECK(tf32->basis.find("would give back about 4.38 ms") != std::string::npos);
  CHECK(tf32->basis.find("at most 4.50 ms at the TF32 peak itself") != std::string::npos);

  // A shape whose bytes at the DRAM bandwidth (2039 GB/s) take longer than its FLOPs: 4.078 GB
  // take 2 ms, so only 3 ms come back.
  r.framework.operators[0].shapes[0].bytes = 4'078'000'000;
  const auto bytes_bound_levers = FindLevers(trace, DeviceRoofsTable(trace), r);
  const Lever* bytes_bound = Find(bytes_bound_levers, "tf32_or_amp");
  REQUIRE(bytes_bound);
  CHECK(bytes_bound->saved_ns == 3'000'000);
  CHECK(*bytes_bound->ceiling_saved_ns == 3'000'000);  // the bytes bound the ceiling too

  // Only critical time comes back: a kernel that runs alone for 4 of its 5 ms (another stream
  // overlaps the rest, or the GPU idles for the host after it) gives back 4/5 of what its
  // speedup removes.
  r.framework.operators[0].shapes[0].bytes.reset();
  r.predictions.kernels[0].critical_ns = 4'000'000;
  const auto partly_levers = FindLevers(trace, DeviceRoofsTable(trace), r);
  const Lever* partly = Find(partly_levers, "tf32_or_amp");
  REQUIRE(partly);
  CHECK(partly->time_ns == 5'000'000);
  CHECK(partly->saved_ns == 3'500'000);
  CHECK(*partly->ceiling_saved_ns == 3'600'000);
  CHECK(partly->basis.find("5.00 ms (4.00 ms of it critical time") != std::string::npos);
  // A top kernel outside the speedup table's rows: nothing is known to come back.
  r.predictions.kernels.clear();
  CHECK_FALSE(Find(FindLevers(trace, DeviceRoofsTable(trace), r), "tf32_or_amp"));
}

TEST_CASE("Eager attention with modelled GEMM FLOPs is bounded at the tensor roof", "[levers]") {
  gpuperf::model::Trace trace = A100Trace();
  AnalysisReport r = Report(10'000'000, 10'000'000);
  auto bmm = Op("aten::bmm", "gemm", 3'000'000, "SelfAttention");
  gpuperf::report::OperatorShape shape;
  shape.precision = "bf16";
  shape.kernel_ns = 3'000'000;
  shape.flops = 312'000'000'000;  // 1 ms at A100's 312 TFLOP/s bf16 tensor roof
  shape.calls = 1;
  bmm.shapes = {shape};
  // The softmax's shapes name the score matrices: the one with most kernel time.
  auto softmax = Op("aten::_softmax", "reduction_normalization", 4'000'000, "SelfAttention");
  gpuperf::report::OperatorShape scores;
  scores.input_dims = "[[8,12,3137,3137],[],[]]";
  scores.kernel_ns = 3'900'000;
  gpuperf::report::OperatorShape small;
  small.input_dims = "[[3136,12,8,8],[],[]]";
  small.kernel_ns = 100'000;
  softmax.shapes = {small, scores};
  r.framework.operators = {
      bmm, softmax, Op("aten::mul", "elementwise", 1'000'000, "SelfAttention")};
  r.framework.categories = {Category("gemm", 3'000'000),
                            Category("reduction_normalization", 4'000'000),
                            Category("elementwise", 1'000'000)};
  auto levers = FindLevers(trace, DeviceRoofsTable(trace), r);
  const Lever* sdpa = Find(levers, "use_sdpa");
  REQUIRE(sdpa);
  // 8 ms of eager attention falls to at least 1 ms: 7 ms at most come back, more than the 5 ms
  // of softmax and mul alone (the slow GEMMs are replaced too).
  CHECK(sdpa->saved_ns == 7'000'000);
  CHECK(sdpa->basis.find("an upper bound") != std::string::npos);
  CHECK(sdpa->falsified_by.find("4.50 ms") != std::string::npos);
  CHECK(sdpa->experiment.find("softmax + elementwise ops over 3137 x 3137 score matrices (softmax "
                              "input [8, 12, 3137, 3137], trace: operator shapes), 8.00 ms") !=
        std::string::npos);
}

TEST_CASE("The pre-roll's kernels are no part of the work a lever acts on", "[levers][preroll]") {
  AnalysisReport r = Report(2000, 1000);
  r.framework.operators = {Op("aten::mul", "elementwise", 300),
                           Op("aten::copy_", "copy_layout", 100),
                           Op("aten::mm", "gemm", 250)};
  r.framework.categories = {
      Category("elementwise", 300), Category("copy_layout", 100), Category("gemm", 250)};
  // 100 ns of the elementwise time ran before the trace's first launch call (orphans).
  gpuperf::report::PreRollSummary preroll;
  preroll.category_ns = {{gpuperf::report::FrameworkCategory::kElementwise, 100}};
  r.predictions.preroll = preroll;
  gpuperf::model::Trace trace;
  const auto fuse_levers = FindLevers(trace, DeviceRoofsTable(trace), r);
  const Lever* fuse = Find(fuse_levers, "fuse_elementwise");
  REQUIRE(fuse);
  CHECK(fuse->time_ns == 300);
  CHECK(fuse->fraction == Approx(0.15));
  CHECK(fuse->basis.find("(33.3% of GPU time)") != std::string::npos);  // 300 of 900
}

TEST_CASE("FP32 GEMMs and convolutions known by name on a V100 get an AMP lever at an assumed 2x",
          "[levers]") {
  gpuperf::model::Trace trace;
  gpuperf::model::Device device;
  device.name = "Tesla V100-SXM2-32GB";
  device.compute_major = 7;
  trace.devices.push_back(device);
  AnalysisReport r = Report(10'000'000, 8'000'000);
  auto kernel = [](const std::string& name, const std::string& category, std::int64_t ns) {
    gpuperf::report::KernelRow k;
    k.name = name;
    k.category = gpuperf::report::ParseFrameworkCategory(category);
    k.duration_ns.total = ns;
    return k;
  };
  // 3 ms of FP32 GEMM and convolution by name (2.6 ms of it critical); a tensor-core kernel and
  // an FP32 elementwise kernel do not count.
  r.kernels = {
      kernel("volta_sgemm_128x64_nn", "gemm", 2'000'000),
      kernel("void cudnn::detail::dgrad_engine<float, 512, 6>(int)", "convolution", 1'000'000),
      kernel("volta_h884gemm_64x64_nn", "gemm", 2'000'000),
      kernel("void at::native::vectorized_elementwise_kernel<4, float>", "elementwise", 3'000'000)};
  // Their critical time (predictions): the convolution runs 0.4 ms of its 1 ms beside a copy.
  auto share = [](const std::string& name, std::int64_t critical) {
    gpuperf::report::CriticalShare s;
    s.name = name;
    s.critical_ns = critical;
    return s;
  };
  r.predictions.kernels = {share("volta_sgemm_128x64_nn", 2'000'000),
                           share("void cudnn::detail::dgrad_engine<float, 512, 6>(int)", 600'000),
                           share("volta_h884gemm_64x64_nn", 2'000'000)};
  auto levers = FindLevers(trace, DeviceRoofsTable(trace), r);
  const Lever* amp = Find(levers, "amp");
  REQUIRE(amp);
  CHECK(amp->time_ns == 2'600'000);
  CHECK(amp->saved_ns == 1'300'000);  // 2x faster: half of it comes back
  CHECK(amp->assumed_ns == amp->saved_ns);
  REQUIRE(amp->assumed_local_speedup);
  CHECK(*amp->assumed_local_speedup == 2.0);
  CHECK(amp->basis.find("FP16 tensor peak is 8x its FP32 vector peak") != std::string::npos);
  // 2 ms of GEMM and 0.6 ms of convolution: both named, channels_last advised.
  CHECK(amp->subject == "FP32 GEMMs and convolutions");
  CHECK(amp->experiment.find("channels_last") != std::string::npos);
  // The SGEMM launched by a convolution operator (cuDNN's GEMM-based algorithms): nine tenths of
  // the time is convolution, so the lever says convolutions.
  r.kernels[0].category = gpuperf::report::FrameworkCategory::kConvolution;
  const auto conv_levers = FindLevers(trace, DeviceRoofsTable(trace), r);
  const Lever* conv = Find(conv_levers, "amp");
  REQUIRE(conv);
  CHECK(conv->subject == "FP32 convolutions");
  CHECK(conv->basis.find("convolution kernels (by their launching operators; cuDNN's include "
                         "SGEMM-based ones)") != std::string::npos);
  // GEMMs alone: no channels_last.
  r.kernels[0].category = gpuperf::report::FrameworkCategory::kGemm;
  r.kernels[1].category = gpuperf::report::FrameworkCategory::kGemm;
  const auto gemm_levers = FindLevers(trace, DeviceRoofsTable(trace), r);
  const Lever* gemm = Find(gemm_levers, "amp");
  REQUIRE(gemm);
  CHECK(gemm->subject == "FP32 GEMMs");
  CHECK(gemm->experiment.find("channels_last") == std::string::npos);
  r.kernels[1].category = gpuperf::report::FrameworkCategory::kConvolution;
  // Under 10% of the GPU time: no lever. On a GPU without tensor-core ceilings: none either.
  r.kernels.resize(1);
  r.predictions.kernels[0].critical_ns = 500'000;
  CHECK_FALSE(Find(FindLevers(trace, DeviceRoofsTable(trace), r), "amp"));
  trace.devices[0].name = "Tesla P100-PCIE-16GB";
  trace.devices[0].compute_major = 6;
  r.predictions.kernels[0].critical_ns = 2'000'000;
  CHECK_FALSE(Find(FindLevers(trace, DeviceRoofsTable(trace), r), "amp"));
  // A tensor-core GPU without a datasheet entry (an RTX 2080 Ti, cc 7.5) gets it by its compute
  // capability; a GTX 16 part of the same compute capability has no tensor cores.
  trace.devices[0].name = "NVIDIA GeForce RTX 2080 Ti";
  trace.devices[0].compute_major = 7;
  trace.devices[0].compute_minor = 5;
  const auto turing_levers = FindLevers(trace, DeviceRoofsTable(trace), r);
  const Lever* turing = Find(turing_levers, "amp");
  REQUIRE(turing);
  CHECK(turing->basis.find("compute capability 7.5: tensor cores") != std::string::npos);
  trace.devices[0].name = "NVIDIA GeForce GTX 1660 Ti";
  CHECK_FALSE(Find(FindLevers(trace, DeviceRoofsTable(trace), r), "amp"));
}
