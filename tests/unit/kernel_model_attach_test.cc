// The user model file attached to a synthetic trace (analysis/kernel/kernel_model.h through
// Analyze): FLOPs, bytes, intensity and floors by hand; counters win; the user model beats the
// shape models; capture groups and launch geometry; launches that fail are left out and named.
#include "gpuperf/analyze.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "analysis/kernel/kernel_model.h"
#include "analysis_builder.h"
#include "model/ceilings.h"
#include "model/kernel_model.h"

namespace {

namespace model = gpuperf::model;
using gpuperf::report::KernelRow;

model::KernelModelFile ModelFile() {
  model::KernelModelFile file;
  file.path = "gemm-model.json";
  file.params = {{"M", 1024}, {"N", 512}, {"K", 256}};
  file.kernels = {
      {"sgemm_(\\d+)x(\\d+)", "2*M*N*K", "4*(M*K + K*N + M*N)", "fp32", "vector", ""},
      {"relu", "threads", "8*threads", "fp32", "vector", ""},
      {"tile_(\\d+)", "g1*g1*blocks", "4*g1*blocks", "bf16", "tensor", ""},
      {"div_(\\d+)", "M / (g1 - 64)", "", "fp32", "vector", ""},
      {"name_(\\w+)", "g1", "", "fp32", "vector", ""},
  };
  return file;
}

gpuperf::testing::TraceBuilder Trace() {
  gpuperf::testing::TraceBuilder b;
  model::Device h100;
  h100.id = 0;
  h100.name = "NVIDIA H100 80GB HBM3";
  h100.compute_major = 9;
  b.trace.devices.push_back(h100);
  auto kernel = [&](const std::string& name,
                    model::TimeNs start,
                    model::TimeNs end,
                    model::Dim3 grid,
                    model::Dim3 block) {
    model::GpuActivity& a = b.Kernel(name, start, end);
    a.grid = grid;
    a.block = block;
  };
  kernel("sgemm_128x64_nn", 0, 1000, {32, 16, 1}, {256, 1, 1});
  kernel("sgemm_128x64_nn", 1000, 4000, {32, 16, 1}, {256, 1, 1});
  kernel("relu_kernel", 4000, 4500, {1024, 1, 1}, {128, 1, 1});
  kernel("relu_kernel", 4500, 5000, {}, {});  // no geometry recorded: grid unknown
  kernel("tile_64_kernel", 5000, 6000, {10, 2, 1}, {128, 1, 1});
  kernel("div_64", 6000, 6100, {1, 1, 1}, {1, 1, 1});
  kernel("name_abc", 6100, 6200, {1, 1, 1}, {1, 1, 1});
  kernel("sgemm_32x32_counted", 6200, 7200, {1, 1, 1}, {1, 1, 1});
  kernel("unrelated", 7200, 7300, {1, 1, 1}, {1, 1, 1});
  model::KernelCounters counters;
  counters.activity = b.trace.activities.size() - 2;  // sgemm_32x32_counted
  counters.metrics = {{"dram__bytes_read.sum", 1000}, {"dram__bytes_write.sum", 24}};
  b.trace.counters.push_back(counters);
  return b;
}

std::map<std::string, KernelRow> Rows(const gpuperf::report::AnalysisReport& report) {
  std::map<std::string, KernelRow> rows;
  for (const KernelRow& row : report.kernels)
    rows[row.name] = row;
  return rows;
}

std::string UserModelNote(const gpuperf::report::AnalysisReport& report) {
  for (const std::string& note : report.notes) {
    if (note.rfind("roofline (user model gemm-model.json)", 0) == 0)
      return note;
  }
  return "";
}

}  // namespace

TEST_CASE("user model: FLOPs, bytes and floors by hand, counters keep their roofline",
          "[kernel_model]") {
  auto b = Trace();
  gpuperf::analysis::AnalyzeOptions options;
  options.kernel_model = ModelFile();
  auto report = gpuperf::analysis::Analyze(b.trace, options);
  auto rows = Rows(report);
  const model::DeviceCeilings* h100 = model::FindCeilings("NVIDIA H100 80GB HBM3", 9, 0).entry;
  REQUIRE(h100 != nullptr);
  const double fp32 = *h100->Peak(model::Precision::kFp32, model::MathUnit::kVector);
  const double bw = *h100->dram_bytes_per_s;

  // sgemm: 2*1024*512*256 = 268435456 FLOPs and 4*(262144 + 131072 + 524288) = 3670016 bytes
  // per launch, two launches of 1000 and 3000 ns.
  REQUIRE(rows.at("sgemm_128x64_nn").roofline.has_value());
  const auto& sgemm = *rows.at("sgemm_128x64_nn").roofline;
  CHECK(sgemm.evidence == gpuperf::report::EvidenceTier::kModeled);
  CHECK(sgemm.instances == 2);
  CHECK(sgemm.precision == "fp32");
  CHECK(sgemm.unit == "vector");
  CHECK(*sgemm.flops == 536870912.0);
  CHECK(*sgemm.dram_bytes == 7340032.0);
  CHECK(*sgemm.arithmetic_intensity == Approx(536870912.0 / 7340032.0));  // 73.14
  CHECK(*sgemm.achieved_flops_per_s == Approx(536870912.0 / 4000e-9));
  CHECK(sgemm.ceiling_source.find("H100 SXM5 80GB") != std::string::npos);
  const double floor_s = 2 * std::max(268435456.0 / fp32, 3670016.0 / bw);
  CHECK(*sgemm.floor_ns == std::llround(floor_s * 1e9));

  // relu: threads = 1024 * 128 = 131072 FLOPs and 8 * 131072 = 1048576 bytes; the launch
  // without a grid is left out.
  const auto& relu = *rows.at("relu_kernel").roofline;
  CHECK(relu.instances == 1);
  CHECK(*relu.flops == 131072.0);
  CHECK(*relu.dram_bytes == 1048576.0);
  CHECK(*relu.arithmetic_intensity == 0.125);

  // The counters' roofline stays: 1000 + 24 bytes, evidence measured.
  const auto& counted = *rows.at("sgemm_32x32_counted").roofline;
  CHECK(counted.evidence == gpuperf::report::EvidenceTier::kMeasured);
  CHECK(*counted.dram_bytes == 1024.0);

  CHECK_FALSE(rows.at("unrelated").roofline.has_value());
}

TEST_CASE("user model: capture groups and launch geometry, failures left out and named",
          "[kernel_model]") {
  auto b = Trace();
  gpuperf::analysis::AnalyzeOptions options;
  options.kernel_model = ModelFile();
  auto report = gpuperf::analysis::Analyze(b.trace, options);
  auto rows = Rows(report);
  // tile_64: g1 = 64, blocks = 10 * 2 = 20: 64 * 64 * 20 = 81920 FLOPs, 4 * 64 * 20 = 5120 bytes.
  const auto& tile = *rows.at("tile_64_kernel").roofline;
  CHECK(tile.precision == "bf16");
  CHECK(tile.unit == "tensor");
  CHECK(*tile.flops == 81920.0);
  CHECK(*tile.dram_bytes == 5120.0);
  CHECK(*tile.arithmetic_intensity == 16.0);
  // Only FLOPs given: no bytes, no intensity.
  CHECK_FALSE(rows.at("div_64").roofline.has_value());    // 1024 / (64 - 64)
  CHECK_FALSE(rows.at("name_abc").roofline.has_value());  // g1 = "abc"

  std::string note = UserModelNote(report);
  INFO(note);
  CHECK(note.find("3 kernel names without counters (4 instances)") != std::string::npos);
  CHECK(note.find("kernels[0] 'sgemm_(\\d+)x(\\d+)': 1 name, 2 instances") != std::string::npos);
  CHECK(note.find("kernels[2] 'tile_(\\d+)': 1 name, 1 instance") != std::string::npos);
  CHECK(note.find("3 instances failed to evaluate") != std::string::npos);
  CHECK(note.find("'div_64' 1 of 1 (flops: division by zero)") != std::string::npos);
  CHECK(note.find("'name_abc' 1 of 1 (flops: g1 ('abc') is not a number)") != std::string::npos);
  CHECK(note.find("'relu_kernel' 1 of 2 (flops: threads unknown (the trace records no grid for "
                  "this launch))") != std::string::npos);
  CHECK(note.find("Counters win for 1 name matching a pattern: 'sgemm_32x32_counted'.") !=
        std::string::npos);
  CHECK(note.find("Ceilings: device 0: datasheet H100 SXM5 80GB") != std::string::npos);
}

TEST_CASE("user model: beats the shape model, no match is said", "[kernel_model]") {
  gpuperf::testing::TraceBuilder b;
  model::HostOp op;
  op.name = b.trace.strings.Intern("aten::mm");
  op.start_ns = 0;
  op.end_ns = 100;
  op.pid = 100;
  op.tid = 101;
  op.input_dims = b.trace.strings.Intern("[[128,256],[256,512]]");
  op.input_types = b.trace.strings.Intern(R"(["float","float"])");
  b.trace.host_ops.push_back(op);
  b.Api("cudaLaunchKernel", 10, 20, 1);
  b.Kernel("gemm", 1000, 2000, 1);

  auto shape_only = gpuperf::analysis::Analyze(b.trace);
  REQUIRE(shape_only.kernels.at(0).roofline.has_value());
  CHECK(*shape_only.kernels.at(0).roofline->flops == 2.0 * 128 * 512 * 256);

  gpuperf::analysis::AnalyzeOptions options;
  options.kernel_model = ModelFile();
  options.kernel_model->kernels.push_back({"^gemm$", "1000", "10", "fp32", "vector", ""});
  auto report = gpuperf::analysis::Analyze(b.trace, options);
  REQUIRE(report.kernels.at(0).roofline.has_value());
  CHECK(report.kernels.at(0).roofline->evidence == gpuperf::report::EvidenceTier::kModeled);
  CHECK(*report.kernels.at(0).roofline->flops == 1000.0);
  CHECK(*report.kernels.at(0).roofline->arithmetic_intensity == 100.0);
  for (const std::string& note : report.notes)
    CHECK(note.find("roofline (modeled)") == std::string::npos);  // the shape model had nothing

  options.kernel_model->kernels.pop_back();
  report = gpuperf::analysis::Analyze(b.trace, options);
  CHECK(report.kernels.at(0).roofline->flops == 2.0 * 128 * 512 * 256);  // the shape model's
  CHECK(UserModelNote(report) ==
        "roofline (user model gemm-model.json): no kernel name without counters got work from "
        "the file's 5 patterns.");
}

TEST_CASE("user model: long kernel names match on a large stack, longer ones are not matched",
          "[kernel_model]") {
  model::KernelModelFile file;
  // A capture group inside a repetition: std::regex recurses per character (it overflows an
  // 8 MiB stack near 8000 characters).
  file.kernels = {{"^((a|b)|(c|d))*sgemm", "1", "", "fp32", "vector", ""}};
  auto compiled = model::CompileKernelModel(file);
  REQUIRE(compiled.ok());
  const std::string long_name = std::string(50000, 'a') + "sgemm";
  const std::string too_long = std::string(model::kMaxMatchedNameLength, 'a') + "sgemm";
  auto matches = model::MatchKernelNames(*compiled, {long_name, too_long, "sgemm", "other"});
  REQUIRE(matches.size() == 4);
  CHECK(matches[0].entry == 0);
  CHECK(matches[1].entry == -1);
  CHECK(matches[1].error == "longer than 65536 characters");
  CHECK(matches[2].entry == 0);
  CHECK(matches[3].entry == -1);
  CHECK(matches[3].error.empty());
}
