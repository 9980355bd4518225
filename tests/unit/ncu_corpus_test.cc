// The Nsight Compute importer on every CSV in $GPUPERF_CORPUS/ncu. Launch counts were counted in
// the files themselves (distinct "ID" values; raw page: rows after the units row).
#include "gpuperf/analyze.h"
#include "gpuperf/import.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "corpus.h"

namespace {

namespace model = gpuperf::model;
using gpuperf::io::ImportTraceFile;
using gpuperf::testing::CorpusFile;

model::Trace Import(const std::string& path) {
  auto trace = ImportTraceFile(path);
  INFO((trace.ok() ? path : trace.error().message));
  REQUIRE(trace.ok());
  return std::move(trace).value();
}

std::int64_t Count(const model::Trace& trace, const std::string& name) {
  auto diagnostic = gpuperf::model::FindDiagnostic(name);  // a catalogue name
  REQUIRE(diagnostic);
  return trace.diagnostics.Get(*diagnostic);
}

TEST_CASE("ncu corpus: every CSV imports with its number of launches", "[ncu][corpus]") {
  const char* root = std::getenv("GPUPERF_CORPUS");
  if (root == nullptr || *root == '\0') {
    WARN("SKIPPED: GPUPERF_CORPUS is unset, ncu corpus not checked");
    return;
  }
  const std::map<std::string, std::pair<std::size_t, std::string>> expected = {
      {"learningnote4dev-a100/gemm.csv", {3, "metrics"}},
      {"learningnote4dev-a100/sgemm.csv", {3, "metrics"}},
      {"learningnote4dev-a100/share_tile.csv", {3, "metrics"}},
      {"robogoat-h100/metrics.csv", {9, "metrics"}},
      {"self-join-mistic-a100/profile.page_details.csv", {154, "details"}},
      {"self-join-mistic-a100/profile.page_raw.csv", {154, "raw"}},
      {"self-join-mistic-a100/profile.page_raw.units_base.csv", {154, "raw"}},
      {"llm-perf-opt-rtx5090/kernel_0001_67bdb7e29d1bb4e0ca0aec954ef18af3/ncu.details.csv",
       {1, "details"}},
      {"llm-perf-opt-rtx5090/kernel_0001_67bdb7e29d1bb4e0ca0aec954ef18af3/ncu.metrics.csv",
       {1, "details"}},
      {"llm-perf-opt-rtx5090/kernel_0002_1faa81623a925a9e2084e148672df203/ncu.details.csv",
       {1, "details"}},
      {"llm-perf-opt-rtx5090/kernel_0002_1faa81623a925a9e2084e148672df203/ncu.metrics.csv",
       {1, "details"}},
      {"llm-perf-opt-rtx5090/kernel_0003_0a7671622339a06b4a022feebfe90426/ncu.details.csv",
       {1, "details"}},
      {"llm-perf-opt-rtx5090/kernel_0003_0a7671622339a06b4a022feebfe90426/ncu.metrics.csv",
       {1, "details"}},
  };
  std::size_t seen = 0;
  std::filesystem::path ncu = std::filesystem::path(root) / "ncu";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(ncu)) {
    if (entry.path().extension() != ".csv")
      continue;
    std::string relative = std::filesystem::relative(entry.path(), ncu).string();
    INFO(relative);
    auto it = expected.find(relative);
    REQUIRE(it != expected.end());  // a new corpus file needs its count here
    model::Trace trace = Import(entry.path().string());
    CHECK(trace.metadata.format == "ncu-csv");
    CHECK(trace.metadata.format_version == it->second.second);
    CHECK(trace.activities.size() == it->second.first);
    CHECK(trace.counters.size() == it->second.first);
    CHECK(Count(trace, "ncu_malformed_rows") == 0);
    ++seen;
  }
  CHECK(seen == expected.size());
}

TEST_CASE("ncu corpus: A100 SGEMM FLOPs are exactly 2*M*N*K", "[ncu][roofline][corpus]") {
  auto path = CorpusFile("ncu/learningnote4dev-a100/sgemm.csv");
  if (!path)
    return;
  // ncu_profile.sh.txt runs the GEMM with M N K = 40960 20480 40960; the kernel does one FFMA
  // per multiply-add, so ffma = M*N*K (docs/formats.md, "Nsight Compute's roofline") and FP32 FLOPs
  // = 2*M*N*K.
  const double m = 40960, n = 20480, k = 40960;
  model::Trace trace = Import(*path);
  REQUIRE(trace.activities.size() == 3);
  CHECK(trace.Name(trace.activities[2].name) ==
        "void gemm_v1<float>(float *, float *, float *, int, int, int)");
  CHECK(trace.activities[2].grid == model::Dim3{1280, 1280, 1});  // N / 16 x M / 32 tiles
  CHECK(trace.activities[2].block == model::Dim3{32, 32, 1});
  const auto& metrics = trace.counters[2].metrics;
  CHECK(metrics.at("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum") == m * n * k);
  // No gpu__time_duration.sum in this file: elapsed cycles / cycles per second.
  CHECK(Count(trace, "ncu_durations_from_cycles") == 3);
  CHECK(trace.activities[2].duration_ns() == std::llround(25610472227.46 / 764999999.31 * 1e9));

  auto report = gpuperf::analysis::Analyze(trace);
  const gpuperf::report::KernelRow* gemm = nullptr;
  for (const auto& row : report.kernels) {
    if (row.name.rfind("void gemm_v1", 0) == 0)
      gemm = &row;
  }
  REQUIRE(gemm != nullptr);
  REQUIRE(gemm->roofline);
  const auto& r = *gemm->roofline;
  CHECK(r.precision == "fp32");
  CHECK(r.unit == "vector");
  CHECK(*r.flops == 2 * m * n * k);  // 68,719,476,736,000 exactly
  CHECK(*r.dram_bytes == 807658682624.0);
  CHECK(*r.arithmetic_intensity == Approx(2 * m * n * k / 807658682624.0));
  // The CSV names no GPU (only cc 8.0, which fits four A100 variants): placed against all four,
  // it is under 30% of both roofs on each (19.4% of 19.5 TFLOP/s FP32 scaled from the 1410 MHz
  // boost clock to the 765 MHz of smsp__cycles_elapsed.avg.per_second, 1.2-1.6% of 1555-2039
  // GB/s, which do not scale), so latency-bound on every candidate.
  const double seconds = 25610472227.46 / 764999999.31;
  const double fp32_at_clock = 19.5e12 * 764999999.31 / 1.41e9;
  CHECK(r.ceiling_candidates.size() == 4);
  CHECK(r.bound == gpuperf::report::KernelBound::kLatency);
  CHECK(*r.sm_clock_hz == Approx(764999999.31));
  REQUIRE(r.compute_fraction_range);
  CHECK(r.compute_fraction_range->second == Approx(2 * m * n * k / seconds / fp32_at_clock));
  REQUIRE(r.memory_fraction_range);
  CHECK(r.memory_fraction_range->first == Approx(807658682624.0 / seconds / 2039e9));
  CHECK(r.memory_fraction_range->second == Approx(807658682624.0 / seconds / 1555e9));
  CHECK_FALSE(r.roof_fraction);
  // Its L2 traffic is 50x the DRAM bytes (lts__t_bytes.sum), shown in the class's reason.
  CHECK(*r.l2_bytes / *r.dram_bytes == Approx(50.7).margin(0.05));
  CHECK(gemm->classification.basis == "roofline_candidates");
  CHECK(gemm->classification.reason.find("L2 traffic 50.7x") != std::string::npos);
}

TEST_CASE("ncu corpus: robogoat H100, program output before the header", "[ncu][corpus]") {
  auto path = CorpusFile("ncu/robogoat-h100/metrics.csv");
  if (!path)
    return;
  model::Trace trace = Import(*path);
  REQUIRE(trace.activities.size() == 9);
  CHECK(Count(trace, "ncu_text_lines_skipped") == 12);        // 15 lines before the header, 3 empty
  CHECK(Count(trace, "ncu_launches_without_duration") == 9);  // no duration metric requested
  CHECK(trace.Name(trace.activities[4].name) ==
        "voxelize_occupancy_kernel(const float *, int *, int, float3, float, int, int, int)");
  CHECK(trace.activities[1].block == model::Dim3{128, 1, 1});
  CHECK(trace.activities[1].grid == model::Dim3{1465, 1, 1});
  REQUIRE(trace.devices.size() == 1);
  CHECK(trace.devices[0].compute_major == 9);
}

TEST_CASE("ncu corpus: self-join A100, raw page with and without base units", "[ncu][corpus]") {
  auto scaled = CorpusFile("ncu/self-join-mistic-a100/profile.page_raw.csv");
  auto base = CorpusFile("ncu/self-join-mistic-a100/profile.page_raw.units_base.csv");
  auto details = CorpusFile("ncu/self-join-mistic-a100/profile.page_details.csv");
  if (!scaled || !base || !details)
    return;
  model::Trace a = Import(*scaled);
  model::Trace b = Import(*base);
  model::Trace d = Import(*details);
  REQUIRE(a.activities.size() == b.activities.size());
  REQUIRE(a.activities.size() == d.activities.size());
  // First launch: 0.995519 second (scaled), 995518880 nsecond (base), 995.52 msecond (details).
  CHECK(b.activities[0].duration_ns() == 995518880);
  CHECK(a.activities[0].duration_ns() == 995519000);
  CHECK(d.activities[0].duration_ns() == 995520000);
  for (std::size_t i = 0; i < a.activities.size(); ++i) {
    INFO(i);
    double scaled_ns = static_cast<double>(a.activities[i].duration_ns());
    double base_ns = static_cast<double>(b.activities[i].duration_ns());
    // The scaled page prints this column in "second" with 6 decimals: 1 us resolution.
    CHECK(std::abs(scaled_ns - base_ns) <= 500.0);
    CHECK(a.activities[i].grid == b.activities[i].grid);
    CHECK(a.activities[i].registers_per_thread == b.activities[i].registers_per_thread);
  }
  CHECK(b.activities[0].grid == model::Dim3{2048, 1, 1});
  CHECK(b.activities[0].block == model::Dim3{512, 1, 1});
  CHECK(b.activities[0].registers_per_thread == 30);
  CHECK(b.activities[0].shared_memory_bytes == 0);
  REQUIRE(b.devices.size() == 1);
  CHECK(b.devices[0].name == "NVIDIA A100-PCIE-40GB");
  CHECK(b.devices[0].sm_count == 108);
  CHECK(b.devices[0].l2_bytes == 41943040);
  CHECK(d.activities[0].registers_per_thread == 30);
  // Shared memory: 1.02 Kbyte/block on the scaled page is 1024 bytes with base units.
  CHECK(b.counters[0].metrics.at("launch__shared_mem_per_block_driver") == 1024);
}

TEST_CASE("ncu corpus: RTX 5090 details with rule columns", "[ncu][corpus]") {
  auto path = CorpusFile(
      "ncu/llm-perf-opt-rtx5090/kernel_0001_67bdb7e29d1bb4e0ca0aec954ef18af3/ncu.details.csv");
  if (!path)
    return;
  model::Trace trace = Import(*path);
  REQUIRE(trace.activities.size() == 1);
  CHECK(trace.activities[0].duration_ns() == 6460);  // 6.46 us
  CHECK(trace.activities[0].block == model::Dim3{32, 4, 1});
  CHECK(trace.activities[0].grid == model::Dim3{224, 1, 1});
  const auto& metrics = trace.counters[0].metrics;
  CHECK(metrics.at("dram__bytes_read.sum") == Approx(2.33e6));
  CHECK(metrics.at("dram__bytes_write.sum") == 0);
  CHECK(metrics.at("gpc__cycles_elapsed.max") == 12904);
  CHECK(Count(trace, "ncu_values_not_available") == 3);  // flop_count_hp/sp, one tensor path
  CHECK(trace.devices[0].compute_major == 12);
}

}  // namespace
