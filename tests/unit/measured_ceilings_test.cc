// Measured ceilings in the analysis: which entry fits a trace device, the DeviceCeilings made of
// it, and rooflines and ceilings[] against it (hand-computed), with the datasheet kept for other
// devices. Also the GPU UUIDs the importers record.
#include "model/measured_ceilings.h"

#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

#include <catch2/catch.hpp>

#include <string>

#include "analysis/kernel/ceilings_used.h"
#include "analysis_builder.h"
#include "corpus.h"
#include "nsys_test_db.h"

namespace {

namespace model = gpuperf::model;
using gpuperf::testing::TraceBuilder;
using model::MathUnit;
using model::Precision;

constexpr const char* kUuid = "GPU-9f8075aa-e02a-0953-1955-32f638fb2993";
constexpr const char* kH100 = "NVIDIA H100 80GB HBM3";

model::MeasuredFigure Figure(double per_s, std::optional<double> clock_hz = std::nullopt) {
  model::MeasuredFigure f;
  f.per_s = per_s;
  f.work_per_launch = per_s * 0.025;
  f.best_ms = 25;
  f.median_ms = 25;
  f.reps = 10;
  f.sm_clock_hz = clock_hz;
  return f;
}

// DRAM 2 TB/s, FP32 50 TFLOP/s, BF16 400, FP16 300 TFLOP/s; SM clocks 1.98, 1.98, 1.97 GHz.
model::MeasuredCeilings Measured(const std::string& uuid = kUuid,
                                 const std::string& date = "2026-12-01T11:36:05Z") {
  model::MeasuredCeilings m;
  m.device_name = kH100;
  m.uuid = uuid;
  m.compute_major = 9;
  m.sm_count = 132;
  m.l2_bytes = 52428800;
  m.max_sm_clock_hz = 1.98e9;
  m.dram = Figure(2e12);
  m.fp32_vector = Figure(5e13, 1.98e9);
  m.bf16_tensor = Figure(4e14, 1.98e9);
  m.fp16_tensor = Figure(3e14, 1.97e9);
  m.date = date;
  return m;
}

// One H100 and one kernel "k" of 2 ms with 2e10 FP32 FLOPs (1e10 FFMA) and 2e9 DRAM bytes: AI 10.
TraceBuilder H100Trace(const std::string& uuid, std::optional<double> counters_clock_hz = {}) {
  TraceBuilder b;
  model::Device d;
  d.name = kH100;
  d.compute_major = 9;
  d.sm_count = 132;
  d.uuid = uuid;
  b.trace.devices.push_back(d);
  b.Kernel("k", 0, 2'000'000);
  model::KernelCounters c;
  c.activity = 0;
  const std::string op = "smsp__sass_thread_inst_executed_op_";
  c.metrics = {{op + "fadd_pred_on.sum", 0},
               {op + "fmul_pred_on.sum", 0},
               {op + "ffma_pred_on.sum", 1e10},
               {"dram__bytes_read.sum", 1e9},
               {"dram__bytes_write.sum", 1e9}};
  if (counters_clock_hz)
    c.metrics["gpc__cycles_elapsed.avg.per_second"] = *counters_clock_hz;
  b.trace.counters.push_back(c);
  return b;
}

}  // namespace

TEST_CASE("GPU UUIDs: formatted and normalised as nvidia-smi prints them", "[ceilings]") {
  const std::uint8_t bytes[16] = {0x9f,
                                  0x80,
                                  0x75,
                                  0xaa,
                                  0xe0,
                                  0x2a,
                                  0x09,
                                  0x53,
                                  0x19,
                                  0x55,
                                  0x32,
                                  0xf6,
                                  0x38,
                                  0xfb,
                                  0x29,
                                  0x93};
  CHECK(model::FormatGpuUuid(bytes) == kUuid);
  CHECK(model::NormalizeGpuUuid("9F8075AA-E02A-0953-1955-32F638FB2993") == kUuid);  // nsys
  CHECK(model::NormalizeGpuUuid(kUuid) == kUuid);
  CHECK(model::NormalizeGpuUuid("").empty());
  CHECK(model::NormalizeGpuUuid("MIG-9f8075aa-e02a-0953-1955-32f638fb2993").empty());
  CHECK(model::NormalizeGpuUuid("GPU-9f8075aa-e02a-0953-1955-32f638fb299").empty());
  CHECK(model::NormalizeGpuUuid("GPU-9f8075aa-e02a-0953-1955x32f638fb2993").empty());
  CHECK(model::NormalizeGpuUuid("GPU-9f8075ag-e02a-0953-1955-32f638fb2993").empty());
}

TEST_CASE("measured entry: by UUID when the device has one, else by name and cc", "[ceilings]") {
  const model::MeasuredCeilings entries[] = {
      Measured("GPU-00000000-1111-2222-3333-444444444444", "2026-06-01T00:00:00Z"),
      Measured(kUuid, "2026-01-01T00:00:00Z")};
  model::Device d;
  d.name = kH100;
  d.compute_major = 9;
  d.uuid = "GPU-9F8075AA-E02A-0953-1955-32F638FB2993";
  auto match = model::FindMeasuredCeilings(d, entries);
  CHECK(match.entry == &entries[1]);
  CHECK(match.matched_by == std::string("uuid ") + kUuid);
  // Another GPU of the same model: its own UUID decides, not the name.
  d.uuid = "GPU-ffffffff-1111-2222-3333-444444444444";
  CHECK(model::FindMeasuredCeilings(d, entries).entry == nullptr);
  // No UUID in the trace: the same name and compute capability, the latest measurement.
  d.uuid.clear();
  match = model::FindMeasuredCeilings(d, entries);
  CHECK(match.entry == &entries[0]);
  CHECK(match.matched_by ==
        "name and compute capability (NVIDIA H100 80GB HBM3 9.0; the trace records no GPU "
        "UUID); the latest of 2 fitting entries");
  d.compute_minor = 1;
  CHECK(model::FindMeasuredCeilings(d, entries).entry == nullptr);
  d.compute_minor = 0;
  d.name = "NVIDIA H100 80GB HBM3 ";  // exact names only
  CHECK(model::FindMeasuredCeilings(d, entries).entry == nullptr);
}

TEST_CASE("measured entry as ceilings: measured figures only, nothing from the datasheet",
          "[ceilings]") {
  auto c = model::AsDeviceCeilings(Measured());
  CHECK(c->evidence == gpuperf::report::CeilingsEvidence::kMeasured);
  CHECK(c->key == "NVIDIA H100 80GB HBM3");
  CHECK(c->source == std::string("gpuperf ceilings 2026-12-01T11:36:05Z on ") + kUuid);
  CHECK(*c->dram_bytes_per_s == 2e12);
  CHECK(*c->Peak(Precision::kFp32, MathUnit::kVector) == 5e13);
  CHECK(*c->Peak(Precision::kBf16, MathUnit::kTensor) == 4e14);
  CHECK(*c->Peak(Precision::kFp16, MathUnit::kTensor) == 3e14);
  for (auto [p, u] : {std::pair{Precision::kFp64, MathUnit::kVector},
                      std::pair{Precision::kFp64, MathUnit::kTensor},
                      std::pair{Precision::kFp32, MathUnit::kTensor},
                      std::pair{Precision::kFp16, MathUnit::kVector},
                      std::pair{Precision::kTf32, MathUnit::kTensor},
                      std::pair{Precision::kFp8, MathUnit::kTensor},
                      std::pair{Precision::kInt8, MathUnit::kTensor}}) {
    CHECK_FALSE(c->Peak(p, u));
  }
  CHECK(*c->boost_clock_hz == Approx((1.98e9 + 1.98e9 + 1.97e9) / 3));
  CHECK(*c->l2_bytes == 52428800);
  // Kernels at clocks more than 2% apart: no single reference clock.
  model::MeasuredCeilings apart = Measured();
  apart.bf16_tensor.sm_clock_hz = 1.755e9;
  CHECK_FALSE(model::AsDeviceCeilings(apart)->boost_clock_hz);
  apart.bf16_tensor.sm_clock_hz.reset();
  CHECK_FALSE(model::CommonSmClockHz(apart));
}

TEST_CASE("roofline: a matching device is placed against its measured ceilings", "[ceilings]") {
  TraceBuilder b = H100Trace(kUuid);
  const model::MeasuredCeilings entries[] = {Measured()};
  REQUIRE(model::AttachMeasuredCeilings(b.trace, entries) == 1);
  auto report = gpuperf::analysis::Analyze(b.trace);
  REQUIRE(report.kernels.size() == 1);
  REQUIRE(report.kernels[0].roofline);
  const auto& r = *report.kernels[0].roofline;
  // Ridge 5e13 / 2e12 = 25 FLOP/byte > AI 10: memory side. Achieved 2e9 B / 2 ms = 1e12 B/s.
  CHECK(r.precision == "fp32");
  CHECK(*r.peak_flops_per_s == 5e13);
  CHECK(*r.peak_bytes_per_s == 2e12);
  CHECK(*r.arithmetic_intensity == Approx(10));
  CHECK(*r.roof_fraction == Approx(0.5));
  CHECK(r.bound == gpuperf::report::KernelBound::kMemory);
  // max(2e10 / 5e13 = 0.4 ms, 2e9 / 2e12 = 1 ms).
  CHECK(*r.floor_ns == 1'000'000);
  CHECK(r.ceiling_source == std::string("measured NVIDIA H100 80GB HBM3: gpuperf ceilings "
                                        "2026-12-01T11:36:05Z on ") +
                                kUuid);
  REQUIRE(report.ceilings.size() == 1);
  const auto& used = report.ceilings[0];
  CHECK(used.evidence == gpuperf::report::CeilingsEvidence::kMeasured);
  CHECK(used.entry == "NVIDIA H100 80GB HBM3");
  CHECK(used.source == std::string("gpuperf ceilings 2026-12-01T11:36:05Z on ") + kUuid);
  CHECK(*used.dram_bytes_per_s == 2e12);
  REQUIRE(used.peaks.size() == 3);  // fp32 vector, fp16 tensor, bf16 tensor
  CHECK(used.clocks ==
        "measured by gpuperf ceilings; SM clock during the kernels (clock64 / %globaltimer): fp32 "
        "vector 1.98 GHz, bf16 tensor 1.98 GHz, fp16 tensor 1.97 GHz (maximum 1.98 GHz); for "
        "kernels without counters the trace does not record the clock: the measurement's "
        "assumed");
  bool noted = false;
  for (const std::string& note : report.notes) {
    noted = noted ||
            (note.find("counters against the measured ceilings of NVIDIA H100 80GB HBM3 (gpuperf "
                       "ceilings 2026-12-01T11:36:05Z") != std::string::npos &&
             note.find("other precisions get no roof; matched by uuid") != std::string::npos);
  }
  CHECK(noted);
}

TEST_CASE("roofline: modeled rooflines use the measured ceilings too", "[ceilings]") {
  // aten::add of two float 1024x1024 tensors launches add_kernel: 1048576 FLOPs (fp32 vector)
  // and 12582912 bytes (docs/metrics.md, "Shape models").
  TraceBuilder b;
  model::Device d;
  d.name = kH100;
  d.compute_major = 9;
  d.uuid = kUuid;
  b.trace.devices.push_back(d);
  model::HostOp op;
  op.name = b.trace.strings.Intern("aten::add");
  op.start_ns = 0;
  op.end_ns = 100;
  op.pid = 100;
  op.tid = 101;
  op.input_dims = b.trace.strings.Intern("[[1024,1024],[1024,1024],[]]");
  op.input_types = b.trace.strings.Intern(R"(["float","float","Scalar"])");
  b.trace.host_ops.push_back(op);
  b.Api("cudaLaunchKernel", 10, 20, 1);
  b.Kernel("add_kernel", 1000, 11000, 1);
  const model::MeasuredCeilings entries[] = {Measured()};
  REQUIRE(model::AttachMeasuredCeilings(b.trace, entries) == 1);
  auto report = gpuperf::analysis::Analyze(b.trace);
  REQUIRE(report.kernels.size() == 1);
  REQUIRE(report.kernels[0].roofline);
  const auto& r = *report.kernels[0].roofline;
  CHECK(r.evidence == gpuperf::report::EvidenceTier::kModeled);
  CHECK(*r.peak_bytes_per_s == 2e12);
  CHECK(*r.peak_flops_per_s == 5e13);
  // max(1048576 / 5e13 s, 12582912 / 2e12 s) = 6291.456 ns.
  CHECK(*r.floor_ns == 6291);
  REQUIRE(report.ceilings.size() == 1);
  CHECK(report.ceilings[0].evidence == gpuperf::report::CeilingsEvidence::kMeasured);
}

TEST_CASE("roofline: measured compute peaks scale to the counters' clock", "[ceilings]") {
  TraceBuilder b = H100Trace(kUuid, 1.5e9);
  const model::MeasuredCeilings entries[] = {Measured()};
  model::AttachMeasuredCeilings(b.trace, entries);
  auto roofs = gpuperf::analysis::RoofsOf(b.trace, 0);
  REQUIRE(roofs.scaled);
  const double reference = (1.98e9 + 1.98e9 + 1.97e9) / 3;
  CHECK(*roofs.ForCounters()->fp32.vector == Approx(5e13 * 1.5e9 / reference));
  CHECK(*roofs.ForCounters()->dram_bytes_per_s == 2e12);
  auto report = gpuperf::analysis::Analyze(b.trace);
  REQUIRE(report.ceilings.size() == 1);
  CHECK(report.ceilings[0].clocks.find("; the counters ran at 1.5 GHz "
                                       "(gpc__cycles_elapsed.avg.per_second), so compute roofs "
                                       "for counter rooflines are scaled to that clock") !=
        std::string::npos);
}

TEST_CASE("roofline: a device without a fitting measured entry keeps the datasheet", "[ceilings]") {
  TraceBuilder b = H100Trace("GPU-ffffffff-1111-2222-3333-444444444444");
  const model::MeasuredCeilings entries[] = {Measured()};
  CHECK(model::AttachMeasuredCeilings(b.trace, entries) == 0);
  auto report = gpuperf::analysis::Analyze(b.trace);
  REQUIRE(report.kernels[0].roofline);
  const auto* sheet = model::FindCeilings(kH100, 9, 0).entry;
  REQUIRE(sheet);
  CHECK(*report.kernels[0].roofline->peak_bytes_per_s == *sheet->dram_bytes_per_s);
  CHECK(*report.kernels[0].roofline->peak_flops_per_s == *sheet->fp32.vector);
  REQUIRE(report.ceilings.size() == 1);
  CHECK(report.ceilings[0].evidence == gpuperf::report::CeilingsEvidence::kDatasheet);
  CHECK(report.ceilings[0].entry == std::string(sheet->key));
}

TEST_CASE("nsys importer records the GPU UUID in nvidia-smi's form", "[ceilings][nsys]") {
  const std::string sql = std::string(gpuperf::testing::kStringIdsSql) +
                          gpuperf::testing::kNewMetaSql +
                          "CREATE TABLE TARGET_INFO_GPU (vmId INTEGER, id INTEGER, name TEXT,"
                          " computeMajor INTEGER, computeMinor INTEGER, uuid TEXT);"
                          "INSERT INTO TARGET_INFO_GPU VALUES"
                          " (0, 0, 'NVIDIA H200', 9, 0, '9f8075aa-e02a-0953-1955-32f638fb2993'),"
                          " (0, 1, 'NVIDIA H200', 9, 0, 'not a uuid'),"
                          " (0, 2, 'NVIDIA H200', 9, 0, NULL);";
  auto trace = gpuperf::io::ImportTraceMemory(gpuperf::testing::MakeSqliteImage(sql), "g.sqlite");
  REQUIRE(trace.ok());
  REQUIRE(trace->devices.size() == 3);
  CHECK(trace->devices[0].uuid == kUuid);
  CHECK(trace->devices[1].uuid.empty());
  CHECK(trace->devices[2].uuid.empty());
}

TEST_CASE("nsys corpus: the H200 export names its GPU by UUID", "[ceilings][corpus]") {
  auto path = gpuperf::testing::CorpusFile("nsys/nvfuser-h200/report1.sqlite");
  if (!path)
    return;
  auto trace = gpuperf::io::ImportTraceFile(*path);
  REQUIRE(trace.ok());
  REQUIRE_FALSE(trace->devices.empty());
  CHECK(trace->devices[0].uuid == kUuid);
}
