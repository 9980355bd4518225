// report.json written, read back (io/report) and written again: every key of the field lists
// (gpuperf/report_json_fields.h) survives, so the writer and the reader agree key by key.
#include <catch2/catch.hpp>

#include <string>

#include "io/report/report_json_reader.h"
#include "report/json_writer.h"
#include "report_fixture.h"

namespace gpuperf::report {
namespace {

// Only members the reader carries are set, each to a distinct value; doubles have at most three
// decimals so that the writer's rounding loses nothing.
AnalysisReport CarriedOnly() {
  AnalysisReport r;
  r.source = {"/t/trace.json", "kineto", "1.1", "PyTorch 2.5", {"0: H100", "1: H100"}, 3, 8};
  DeviceTimeline device;  // the structured device compare fingerprints (since 1.11.0)
  device.device = 1;
  device.name = "NVIDIA H100 80GB HBM3";
  device.timeline.total_ns = 1000;
  device.timeline.busy_ns = 600;
  r.devices.push_back(device);
  r.headline = "GPU idle 40% of the window";
  r.timeline = {1000, 700, 300, 500, 100, 60, 40, 20, 10, 0, 0, 0};
  KernelRow k;
  k.name = "gemm_kernel";
  k.duration_ns = {4, 400, 100.5, 99.25, 90, 120, 12.125};
  k.time_percent = 62.5;
  k.wall_percent = 40.25;
  k.grid = "(8, 1, 1)";
  k.block = "(256, 1, 1)";
  r.kernels.push_back(k);
  r.unclassified_kernels = {3, 12.5};  // since 1.20.0
  r.audit = {10, 11, 2, 1, 3, 4, 5, 6, 7, 8, 9, 12, 4096};
  RangeRow range;
  range.name = "forward";
  range.kind = RangeKind::kProfilerStep;
  range.duration_ns = {2, 300, 150, 150, 100, 200, 70.711};
  r.ranges.push_back(range);
  r.framework.op_source = OperatorSource::kCpuOp;
  r.framework.total_gpu_ns = 900;
  r.framework.unmarked_launches = 7;  // since 1.20.0
  r.framework.unmarked_gpu_ns = 300;
  r.framework.unmarked_fraction = 0.333333;
  OperatorRow op;
  op.name = "aten::mm";
  op.source = OperatorSource::kCpuOp;
  op.calls = 4;
  op.instances = 5;
  op.kernel_ns = 400;
  op.subtree_kernel_ns = 450;
  op.call_avg_ns = 100.5;
  op.call_med_ns = 99.25;
  op.call_stddev_ns = 1.5;
  op.launches = 4;
  op.graph_launches = 1;
  op.host_self_ns = 30;
  op.host_total_ns = 80;
  op.fraction = 0.444444;
  op.category = gpuperf::report::FrameworkCategory::kGemm;
  op.category_tier = gpuperf::report::CategoryTier::kKernelName;
  op.top_kernel = "gemm_kernel";
  op.top_module = "Linear";
  r.framework.operators.push_back(op);
  CategoryRow category;
  category.category = gpuperf::report::FrameworkCategory::kGemm;
  category.kernel_ns = 400;
  category.launches = 4;
  r.framework.categories.push_back(category);
  ModuleRow module;
  module.name = "Linear";
  module.calls = 2;
  module.kernel_ns = 400;
  module.forward_ns = 300;
  module.backward_ns = 100;
  r.framework.modules.push_back(module);
  Predictions& p = r.predictions;
  p.wall_ns = 1000;
  p.wall_source = "trace window";
  p.device_groups = 1;
  p.summed_wall_ns = 1000;
  p.method = "critical time";
  p.ranking = "recoverable_ns";
  CriticalShare share;
  share.name = "gemm_kernel";
  share.kind = ShareKind::kKernel;
  share.instances = 4;
  share.total_ns = 400;
  share.exclusive_ns = 350;
  share.critical_ns = 300;
  share.fraction = 0.3;
  share.limit_speedup = 1.428571;
  share.floor_ns = 100;
  share.floor_evidence = EvidenceTier::kMeasured;
  share.max_local_speedup = 4;
  share.bound_speedup_at_roof = 1.290323;
  share.recoverable_ns = 225;
  p.kernels.push_back(share);
  p.kernels_omitted = 2;
  CriticalShare phase;
  phase.name = "forward";
  phase.kind = ShareKind::kNvtx;
  phase.fraction = 0.5;
  p.phases.push_back(phase);
  return r;
}

AnalysisReport ReadBack(const AnalysisReport& report) {
  auto read = io::ParseReportJson(DumpJson(ToJson(report)), "report.json");
  REQUIRE(read.ok());
  return std::move(read).value();
}

TEST_CASE("report.json round trip: written then read back then written is the same text") {
  const AnalysisReport original = CarriedOnly();
  const AnalysisReport back = ReadBack(original);
  CHECK(DumpJson(ToJson(back)) == DumpJson(ToJson(original)));
  CHECK(back.source.world_size == 8);
  REQUIRE(back.devices.size() == 1);
  CHECK(back.devices[0].name == "NVIDIA H100 80GB HBM3");
  CHECK(back.devices[0].timeline.busy_ns == 600);
  CHECK(back.kernels.at(0).duration_ns.stddev == 12.125);
  CHECK(back.framework.operators.at(0).top_module == "Linear");
  CHECK(back.predictions.kernels.at(0).floor_evidence == EvidenceTier::kMeasured);
  CHECK(back.predictions.phases.at(0).floor_evidence == EvidenceTier::kNone);
  CHECK(back.predictions.kernels.at(0).kind == ShareKind::kKernel);
  CHECK(back.predictions.phases.at(0).kind == ShareKind::kNvtx);
  CHECK(back.ranges.at(0).kind == RangeKind::kProfilerStep);
}

TEST_CASE("report.json round trip: whether the source has a timeline follows its format") {
  AnalysisReport original = CarriedOnly();
  CHECK(ReadBack(original).source.has_timeline);  // kineto
  original.source.format = "ncu-csv";
  original.source.has_timeline = false;
  CHECK_FALSE(ReadBack(original).source.has_timeline);
  original.source.format = "a format of another version";
  CHECK(ReadBack(original).source.has_timeline);
}

TEST_CASE("report.json round trip: absent values read back as absent") {
  AnalysisReport original = CarriedOnly();
  original.source.rank.reset();
  original.audit.peak_allocated_bytes = -1;
  original.predictions.kernels.at(0).floor_ns.reset();
  original.predictions.kernels.at(0).floor_evidence = EvidenceTier::kNone;
  original.predictions.kernels.at(0).limit_speedup.reset();
  const AnalysisReport back = ReadBack(original);
  CHECK_FALSE(back.source.rank.has_value());
  CHECK(back.audit.peak_allocated_bytes == -1);
  CHECK_FALSE(back.predictions.kernels.at(0).floor_ns.has_value());
  CHECK_FALSE(back.predictions.kernels.at(0).limit_speedup.has_value());
  CHECK(DumpJson(ToJson(back)) == DumpJson(ToJson(original)));
}

TEST_CASE("report.json round trip: the framework categories read back, an unknown one as other") {
  const AnalysisReport original = CarriedOnly();
  const AnalysisReport back = ReadBack(original);
  CHECK(back.framework.operators.at(0).category == FrameworkCategory::kGemm);
  CHECK(back.framework.categories.at(0).category == FrameworkCategory::kGemm);
  // A spelling a newer minor version may add: still readable (report-schema.md, "Versioning").
  auto json = ToJson(original);
  json["categories"][0]["name"] = "matmul";
  auto read = io::ParseReportJson(DumpJson(json), "report.json");
  REQUIRE(read.ok());
  CHECK(read.value().framework.categories.at(0).category == FrameworkCategory::kOther);
  // An absent category (a report that did not write it) reads as other.
  json = ToJson(original);
  json["operators"][0].erase("category");
  auto absent = io::ParseReportJson(DumpJson(json), "report.json");
  REQUIRE(absent.ok());
  CHECK(absent.value().framework.operators.at(0).category == FrameworkCategory::kOther);
}

TEST_CASE("report.json round trip: operator sources read back, an unknown one as none") {
  AnalysisReport original = CarriedOnly();
  original.framework.operators.at(0).source = OperatorSource::kLaunchCall;
  const AnalysisReport back = ReadBack(original);
  CHECK(back.framework.op_source == OperatorSource::kCpuOp);
  CHECK(back.framework.operators.at(0).source == OperatorSource::kLaunchCall);
  original.framework.op_source = OperatorSource::kNone;
  CHECK(ReadBack(original).framework.op_source == OperatorSource::kNone);
  auto json = ToJson(original);
  json["operators"][0]["source"] = "python_function";
  auto read = io::ParseReportJson(DumpJson(json), "report.json");
  REQUIRE(read.ok());
  CHECK(read.value().framework.operators.at(0).source == OperatorSource::kNone);
}

TEST_CASE("report.json round trip: a range's kind reads back, an unknown one as nvtx") {
  const AnalysisReport original = CarriedOnly();
  auto json = ToJson(original);
  json["ranges"][0]["kind"] = "os_runtime";
  auto read = io::ParseReportJson(DumpJson(json), "report.json");
  REQUIRE(read.ok());
  CHECK(read.value().ranges.at(0).kind == RangeKind::kNvtx);
}

TEST_CASE("report.json: the pre-roll's category_ns is keyed by spelling, in the spellings' order") {
  AnalysisReport r = CarriedOnly();
  PreRollSummary preroll;
  preroll.time_ns = 10;
  preroll.category_ns = {{FrameworkCategory::kGemm, 1},
                         {FrameworkCategory::kAttention, 2},
                         {FrameworkCategory::kMemset, 3},
                         {FrameworkCategory::kReductionNormalization, 4}};
  preroll.memcpy_ns = 5;
  r.predictions.preroll = preroll;
  // The enum's order (gemm before attention) is not the keys' order; the copies' "memcpy" sits
  // among the categories.
  CHECK(ToJson(r)["predictions"]["preroll"]["category_ns"].dump() ==
        R"({"attention":2,"gemm":1,"memcpy":5,"memset":3,"reduction_normalization":4})");
  preroll.memcpy_ns.reset();
  r.predictions.preroll = preroll;
  CHECK(ToJson(r)["predictions"]["preroll"]["category_ns"].dump() ==
        R"({"attention":2,"gemm":1,"memset":3,"reduction_normalization":4})");
}

TEST_CASE("report.json round trip: the sample report keeps its compared figures") {
  const AnalysisReport original = testing::SampleReport();
  const AnalysisReport back = ReadBack(original);
  REQUIRE(back.kernels.size() == original.kernels.size());
  CHECK(back.source.devices == original.source.devices);
  CHECK(back.timeline.busy_ns == original.timeline.busy_ns);
  CHECK(back.audit.peak_allocated_bytes == original.audit.peak_allocated_bytes);
  CHECK(back.ranges.size() == original.ranges.size());
  CHECK(back.predictions.kernels.size() == original.predictions.kernels.size());
}

}  // namespace
}  // namespace gpuperf::report
