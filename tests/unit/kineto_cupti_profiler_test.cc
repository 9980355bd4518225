// Kineto cuda_profiler_range events (CUPTI range profiler, docs/formats.md, "cuda_profiler_range"):
// one kernel per range, its args as KernelCounters under their Nsight Compute names, and the
// roofline FLOPs from them.
#include "gpuperf/analyze.h"
#include "gpuperf/import.h"
#include "gpuperf/trace.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "analysis/kernel/roofline.h"
#include "corpus.h"

namespace gpuperf::io {
namespace {

using model::kNoId;

std::int64_t Count(const model::Trace& trace, const std::string& what) {
  auto diagnostic = gpuperf::model::FindDiagnostic(what);  // a catalogue name
  REQUIRE(diagnostic);
  return trace.diagnostics.Get(*diagnostic);
}

const model::KernelCounters* CountersOf(const model::Trace& trace, std::size_t activity) {
  for (const model::KernelCounters& c : trace.counters) {
    if (c.activity == activity)
      return &c;
  }
  return nullptr;
}

double Fp32Flops(const model::KernelCounters& counters) {
  auto flops = analysis::LaunchFlops(counters.metrics);
  REQUIRE(flops);
  auto it = flops->find({model::Precision::kFp32, model::MathUnit::kVector});
  REQUIRE(it != flops->end());
  return it->second;
}

const report::KernelRow* Row(const report::AnalysisReport& report, const std::string& name) {
  for (const auto& row : report.kernels) {
    if (row.name == name)
      return &row;
  }
  return nullptr;
}

constexpr const char* kTwoRanges = R"({"deviceProperties": [{"id": 0,
    "name": "NVIDIA A100-SXM4-40GB", "computeMajor": 8, "computeMinor": 0, "numSms": 108}],
  "traceEvents": [
  {"ph": "X", "cat": "cuda_profiler_range", "name": "sgemm", "pid": 0, "tid": 0,
   "ts": 1000, "dur": 500, "args": {
     "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum": 100,
     "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum": 20,
     "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": 3000,
     "dram__bytes_read.sum": 4000, "dram__bytes_write.sum": 1000}},
  {"ph": "X", "cat": "cuda_profiler_range", "name": "relu", "pid": 0, "tid": 0,
   "ts": 1500, "dur": 250, "args": {"device": 0, "stream": 7,
     "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum": 7,
     "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum": 0,
     "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": 1.5e3,
     "lts__t_bytes.sum": 64}}
]})";

TEST_CASE("cupti profiler ranges become kernels with their counters", "[cupti_profiler]") {
  auto imported = ImportTraceMemory(kTwoRanges, "t.json");
  REQUIRE(imported.ok());
  const model::Trace& trace = imported.value();
  REQUIRE(trace.activities.size() == 2);
  REQUIRE(trace.counters.size() == 2);
  CHECK(Count(trace, "kineto.profiler_ranges") == 2);
  CHECK(Count(trace, "kineto.profiler_ranges_as_kernel") == 2);
  CHECK(Count(trace, "kineto.ignored.other_category") == 0);

  const model::GpuActivity& sgemm = trace.activities[0];
  CHECK(sgemm.kind == model::ActivityKind::kKernel);
  CHECK(trace.Name(sgemm.name) == "sgemm");
  CHECK(sgemm.start_ns == 1'000'000);
  CHECK(sgemm.end_ns == 1'500'000);
  CHECK(sgemm.device == 0);
  CHECK(sgemm.stream == kNoId);  // tid 0 of a profiler range is not a stream
  const model::GpuActivity& relu = trace.activities[1];
  CHECK(trace.Name(relu.name) == "relu");
  CHECK(relu.stream == 7);

  const model::KernelCounters* c0 = CountersOf(trace, 0);
  const model::KernelCounters* c1 = CountersOf(trace, 1);
  REQUIRE(c0);
  REQUIRE(c1);
  CHECK(c0->metrics.size() == 5);
  CHECK(c0->metrics.at("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum") == 3000);
  CHECK(c0->metrics.at("dram__bytes_read.sum") == 4000);
  CHECK(c1->metrics.at("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum") == 1500);
  CHECK(c1->metrics.at("lts__t_bytes.sum") == 64);  // unknown metric: kept under its name
  CHECK(c1->metrics.count("device") == 0);

  // FP32 FLOPs = fadd + fmul + 2 ffma: 100 + 20 + 6000 and 7 + 0 + 3000.
  CHECK(Fp32Flops(*c0) == 6120);
  CHECK(Fp32Flops(*c1) == 3007);

  auto report = analysis::Analyze(trace);
  const report::KernelRow* row = Row(report, "sgemm");
  REQUIRE(row);
  REQUIRE(row->roofline);
  CHECK(row->roofline->evidence == gpuperf::report::EvidenceTier::kMeasured);
  CHECK(row->roofline->precision == "fp32");
  CHECK(row->roofline->flops == Approx(6120));
  CHECK(row->roofline->dram_bytes == Approx(5000));
  CHECK(row->roofline->arithmetic_intensity == Approx(6120.0 / 5000));
  CHECK_FALSE(row->roofline->ceiling_source.empty());  // A100 SXM4 40GB from the device name
  const report::KernelRow* relu_row = Row(report, "relu");
  REQUIRE(relu_row);
  REQUIRE(relu_row->roofline);
  CHECK(relu_row->roofline->flops == Approx(3007));
  CHECK_FALSE(relu_row->roofline->dram_bytes);
}

TEST_CASE("a cupti profiler range over a kernel of the same name adds counters only",
          "[cupti_profiler]") {
  auto imported = ImportTraceMemory(R"({"traceEvents": [
    {"ph": "X", "cat": "cuda_profiler_range", "name": "k", "pid": 0, "tid": 0, "ts": 5,
     "dur": 100, "args": {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": 8,
                          "bad__metric": "n/a"}},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 1, "tid": 7, "ts": 10, "dur": 2,
     "args": {"device": 1, "stream": 7, "correlation": 3}},
    {"ph": "X", "cat": "kernel", "name": "other", "pid": 1, "tid": 7, "ts": 20, "dur": 2}
  ]})",
                                    "t.json");
  REQUIRE(imported.ok());
  const model::Trace& trace = imported.value();
  CHECK(trace.activities.size() == 2);
  REQUIRE(trace.counters.size() == 1);
  CHECK(trace.counters[0].activity == 0);
  CHECK(trace.activities[0].device == 1);
  CHECK(trace.counters[0].metrics.size() == 1);
  CHECK(Count(trace, "kineto.profiler_ranges") == 1);
  CHECK(Count(trace, "kineto.profiler_ranges_attached_to_kernel") == 1);
  CHECK(Count(trace, "kineto.profiler_ranges_as_kernel") == 0);
  CHECK(Count(trace, "kineto.profiler_range_bad_metric") == 1);
}

// kineto/hta/cupti_profiler: 77 cuda_profiler_range events (counted with Python's json module:
// [e for e in traceEvents if e["cat"] == "cuda_profiler_range"]) and no kernel events; each
// range carries the nine smsp__sass_thread_inst_executed_op_{d,h,f}{add,mul,fma}_pred_on.sum.
TEST_CASE("cupti profiler corpus trace: one kernel per range, FLOPs by hand", "[cupti_profiler]") {
  auto path = gpuperf::testing::CorpusFile(
      "kineto/hta/cupti_profiler/benchmark_result_924719_1679055439_trace.json.gz");
  if (!path)
    return;
  auto imported = ImportTraceFile(*path);
  REQUIRE(imported.ok());
  const model::Trace& trace = imported.value();
  CHECK(trace.activities.size() == 77);
  CHECK(trace.counters.size() == 77);
  CHECK(Count(trace, "kineto.profiler_ranges") == 77);
  CHECK(Count(trace, "kineto.profiler_ranges_as_kernel") == 77);
  CHECK(std::all_of(trace.activities.begin(), trace.activities.end(), [](const auto& a) {
    return a.kind == model::ActivityKind::kKernel;
  }));

  // The sixth range, fft2d_r2c_32x32<float, false, 5u, true>, ts 1679055454652209 µs:
  // fadd 86114304, fmul 25362432, ffma 61734912 -> 86114304 + 25362432 + 2 x 61734912.
  auto it = std::find_if(trace.activities.begin(), trace.activities.end(), [](const auto& a) {
    return a.start_ns == 1679055454652209000;
  });
  REQUIRE(it != trace.activities.end());
  CHECK(trace.Name(it->name).starts_with("void fft2d_r2c_32x32<float, false, 5u, true>"));
  const model::KernelCounters* counters =
      CountersOf(trace, static_cast<std::size_t>(it - trace.activities.begin()));
  REQUIRE(counters);
  CHECK(counters->metrics.size() == 9);
  CHECK(Fp32Flops(*counters) == 234946560.0);

  auto report = analysis::Analyze(trace);
  const report::KernelRow* row = Row(report, std::string(trace.Name(it->name)));
  REQUIRE(row);
  REQUIRE(row->roofline);
  CHECK(row->roofline->evidence == gpuperf::report::EvidenceTier::kMeasured);
  CHECK(row->roofline->flops);
}

}  // namespace
}  // namespace gpuperf::io
