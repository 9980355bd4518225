// The Nsight Compute CSV importer on hand-written inputs in memory: the three layouts, program
// output between rows, malformed and truncated input (docs/formats.md, "Nsight Compute CSV").
#include "gpuperf/import.h"

#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "io/input.h"
#include "io/ncu/ncu_parse.h"
#include "model/ncu_rules.h"

namespace {

namespace model = gpuperf::model;
using gpuperf::io::ImportTraceMemory;

const char* kLongHeader =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\","
    "\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\","
    "\"Metric Unit\",\"Metric Value\"\n";

std::string LongRow(int id,
                    const std::string& kernel,
                    const std::string& metric,
                    const std::string& unit,
                    const std::string& value) {
  return "\"" + std::to_string(id) + "\",\"42\",\"app\",\"127.0.0.1\",\"" + kernel +
         "\",\"1\",\"7\",\"(32, 4, 1)\",\"(224, 2, 1)\",\"0\",\"8.0\",\"Command line profiler "
         "metrics\",\"" +
         metric + "\",\"" + unit + "\",\"" + value + "\"\n";
}

model::Trace Import(const std::string& csv) {
  auto trace = ImportTraceMemory(csv, "test.csv");
  INFO((trace.ok() ? std::string("ok") : trace.error().message));
  REQUIRE(trace.ok());
  return std::move(trace).value();
}

const model::KernelCounters& CountersOf(const model::Trace& trace, std::size_t activity) {
  for (const auto& c : trace.counters) {
    if (c.activity == activity)
      return c;
  }
  FAIL("no counters for activity " << activity);
  return trace.counters.front();
}

std::int64_t Count(const model::Trace& trace, const std::string& name) {
  auto diagnostic = gpuperf::model::FindDiagnostic(name);  // a catalogue name
  REQUIRE(diagnostic);
  return trace.diagnostics.Get(*diagnostic);
}

TEST_CASE("ncu long format: one kernel per ID, values in base units", "[ncu]") {
  std::string csv =
      std::string("==PROF== Connected to process 42 (/app)\nhello from the app\n") + kLongHeader +
      LongRow(0, "k(float *)", "gpu__time_duration.sum", "usecond", "1.50") +
      LongRow(0, "k(float *)", "dram__bytes_read.sum", "Mbyte", "2.33") +
      "program output between rows\n" +
      LongRow(1, "k(float *)", "gpu__time_duration.sum", "nsecond", "2,000") +
      LongRow(2, "other", "smsp__cycles_elapsed.avg", "cycle", "1,000") +
      LongRow(2, "other", "smsp__cycles_elapsed.avg.per_second", "cycle/usecond", "500") +
      "==ERROR== Failed to profile \"x\" in process 42\n";
  model::Trace trace = Import(csv);
  CHECK(trace.metadata.format == "ncu-csv");
  CHECK_FALSE(trace.metadata.has_timeline);  // the importer's trait, not the name, says so
  CHECK(trace.metadata.format_version == "metrics");
  REQUIRE(trace.activities.size() == 3);
  REQUIRE(trace.counters.size() == 3);
  const model::GpuActivity& k0 = trace.activities[0];
  CHECK(trace.Name(k0.name) == "k(float *)");
  CHECK(k0.kind == model::ActivityKind::kKernel);
  CHECK(k0.block == model::Dim3{32, 4, 1});
  CHECK(k0.grid == model::Dim3{224, 2, 1});
  CHECK(k0.stream == 7);
  CHECK(k0.pid == 42);
  // Back to back from 0: 1500 ns, then 2000 ns, then 1000 cycles at 500 MHz = 2000 ns.
  CHECK(k0.start_ns == 0);
  CHECK(k0.end_ns == 1500);
  CHECK(trace.activities[1].start_ns == 1500);
  CHECK(trace.activities[1].end_ns == 3500);
  CHECK(trace.activities[2].start_ns == 3500);
  CHECK(trace.activities[2].end_ns == 5500);
  CHECK(CountersOf(trace, 0).metrics.at("dram__bytes_read.sum") == Approx(2.33e6));
  CHECK(Count(trace, "ncu_durations_from_cycles") == 1);
  CHECK(Count(trace, "ncu_error_lines") == 1);
  CHECK(Count(trace, "ncu_text_lines_skipped") == 3);
  REQUIRE(trace.devices.size() == 1);
  CHECK(trace.devices[0].compute_major == 8);
  CHECK(trace.devices[0].compute_minor == 0);
  bool synthetic_note = false;
  for (const auto& note : trace.diagnostics.notes)
    synthetic_note = synthetic_note || note.find("synthetic timeline") != std::string::npos;
  CHECK(synthetic_note);
}

TEST_CASE("ncu details page: labels map to raw names, rule rows are kept", "[ncu]") {
  std::string header =
      "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Kernel Time\","
      "\"Context\",\"Stream\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\","
      "\"Rule Name\",\"Rule Type\",\"Rule Description\"\n";
  auto row = [](const char* section, const char* label, const char* unit, const char* value) {
    return std::string(
               "\"0\",\"1\",\"main\",\"h\",\"kern\",\"2022-Jul-13 15:20:53\",\"1\",\"15\",\"") +
           section + "\",\"" + label + "\",\"" + unit + "\",\"" + value + "\",\n";  // 13 fields
  };
  std::string csv =
      header + row("GPU Speed Of Light Throughput", "Duration", "msecond", "1.50") +
      row("GPU Speed Of Light Throughput", "SM Frequency", "cycle/usecond", "773.76") +
      row("GPU Speed Of Light Throughput", "DRAM Throughput", "%", "12.5") +
      row("Launch Statistics", "Registers Per Thread", "register/thread", "30") +
      row("Launch Statistics", "Function Cache Configuration", "", "cudaFuncCachePreferNone") +
      row("Occupancy", "Block Limit SM", "block", "32") +
      "\"0\",\"1\",\"main\",\"h\",\"kern\",\"t\",\"1\",\"15\",\"SpeedOfLight\",\"\",\"\","
      "\"\",\"SOLBottleneck\",\"WRN\",\"Low \"\"throughput\"\", see below\"\n";
  model::Trace trace = Import(csv);
  CHECK(trace.metadata.format_version == "details");
  REQUIRE(trace.activities.size() == 1);
  CHECK(trace.activities[0].duration_ns() == 1500000);
  CHECK(trace.activities[0].registers_per_thread == 30);
  const auto& metrics = CountersOf(trace, 0).metrics;
  CHECK(metrics.at("gpc__cycles_elapsed.avg.per_second") == Approx(773.76e6));
  CHECK(metrics.at("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed") == Approx(12.5));
  CHECK(metrics.at("launch__occupancy_limit_blocks") == 32);
  // The rule row is kept as text with the trace, quotes and all.
  CHECK(trace.diagnostics.counts ==
        std::map<model::Diagnostic, std::int64_t>{{model::Diagnostic::kNcuRuleRows, 1}});
  auto rules = gpuperf::model::LoadNcuRules(trace.metadata, 0);
  REQUIRE(rules.size() == 1);
  CHECK(rules[0].section == "SpeedOfLight");
  CHECK(rules[0].name == "SOLBottleneck");
  CHECK(rules[0].type == "WRN");
  CHECK(rules[0].description == "Low \"throughput\", see below");
  CHECK_FALSE(rules[0].estimated_speedup_percent);
}

TEST_CASE("ncu raw page: a column per metric, a units row, device attributes", "[ncu]") {
  std::string csv =
      "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Kernel Time\","
      "\"Context\",\"Stream\",\"device__attribute_display_name\","
      "\"device__attribute_multiprocessor_count\",\"dram__bytes_read.sum\","
      "\"gpu__time_duration.sum\",\"launch__grid_dim_x\",\"launch__grid_dim_y\","
      "\"launch__grid_dim_z\",\"launch__registers_per_thread\"\n"
      "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"Kbyte\",\"usecond\",\"\",\"\",\"\","
      "\"register/thread\"\n"
      "\"0\",\"9\",\"main\",\"h\",\"a\",\"t\",\"1\",\"15\",\"NVIDIA A100-PCIE-40GB\",\"108\","
      "\"1.5\",\"2.5\",\"2048\",\"2\",\"1\",\"30\"\n"
      "\"1\",\"9\",\"main\",\"h\",\"b\",\"t\",\"1\",\"15\",\"NVIDIA A100-PCIE-40GB\",\"108\","
      "\"n/a\",\"1\",\"1\",\"1\",\"1\",\"16\"\n";
  model::Trace trace = Import(csv);
  CHECK(trace.metadata.format_version == "raw");
  REQUIRE(trace.activities.size() == 2);
  CHECK(trace.activities[0].grid == model::Dim3{2048, 2, 1});
  CHECK(trace.activities[0].registers_per_thread == 30);
  CHECK(trace.activities[0].duration_ns() == 2500);
  CHECK(trace.activities[1].start_ns == 2500);
  CHECK(CountersOf(trace, 0).metrics.at("dram__bytes_read.sum") == Approx(1500));
  CHECK(CountersOf(trace, 1).metrics.count("dram__bytes_read.sum") == 0);
  CHECK(Count(trace, "ncu_values_not_available") == 1);
  REQUIRE(trace.devices.size() == 1);
  CHECK(trace.devices[0].name == "NVIDIA A100-PCIE-40GB");
  CHECK(trace.devices[0].sm_count == 108);
}

TEST_CASE("ncu long format: device attributes asked for with --metrics name the device", "[ncu]") {
  std::string csv = std::string(kLongHeader) +
                    LongRow(0, "k", "device__attribute_display_name", "", "NVIDIA H100 80GB HBM3") +
                    LongRow(0, "k", "device__attribute_multiprocessor_count", "", "132") +
                    LongRow(0, "k", "gpu__time_duration.sum", "usecond", "1.50");
  model::Trace trace = Import(csv);
  REQUIRE(trace.devices.size() == 1);
  CHECK(trace.devices[0].name == "NVIDIA H100 80GB HBM3");
  CHECK(trace.devices[0].sm_count == 132);
  // Attributes describe the device, not the kernel: they are not counters.
  CHECK(CountersOf(trace, 0).metrics.count("device__attribute_display_name") == 0);
}

TEST_CASE("ncu malformed rows are counted, never fatal", "[ncu]") {
  std::string csv = std::string(kLongHeader) +
                    LongRow(0, "k", "gpu__time_duration.sum", "nsecond", "100") +
                    "\"x\",\"not\",\"a\",\"row\"\n" +                       // too short
                    LongRow(1, "k", "dram__bytes.sum", "byte", "banana") +  // not a number
                    "\"nan\",\"42\",\"app\",\"h\",\"k\",\"1\",\"7\",\"(1, 1, 1)\",\"(1, 1, 1)\","
                    "\"0\",\"8.0\",\"s\",\"m\",\"byte\",\"1\"\n" +  // bad ID
                    LongRow(2, "k", "gpu__time_duration.sum", "nsecond", "50").substr(0, 60);
  model::Trace trace = Import(csv);
  CHECK(trace.activities.size() == 2);  // IDs 0 and 1; the truncated last row is dropped
  CHECK(Count(trace, "ncu_malformed_rows") == 3);
  CHECK(Count(trace, "ncu_malformed_values") == 1);
  CHECK(Count(trace, "ncu_launches_without_duration") == 1);
}

TEST_CASE("ncu header only, or a truncated header, still imports cleanly", "[ncu]") {
  model::Trace empty = Import(std::string("==ERROR== ERR_NVGPUCTRPERM\n") + kLongHeader);
  CHECK(empty.activities.empty());
  CHECK(empty.diagnostics.Get(gpuperf::model::Diagnostic::kNcuErrorLines) == 1);
  // Cut in the middle of the header: the probe still sees it, the header is malformed.
  std::string header = kLongHeader;
  std::string cut = header.substr(0, header.find("\"Block Size\"") + 4);  // inside a quote
  auto trace = ImportTraceMemory(cut, "cut.csv");
  REQUIRE_FALSE(trace.ok());
  CHECK(trace.error().message.rfind("cut.csv: no Nsight Compute CSV header", 0) == 0);
}

TEST_CASE("a CSV that is not ncu output keeps the sniffed one-line error", "[ncu]") {
  auto trace = ImportTraceMemory(
      "Time (%),Total Time (ns),Instances,Name\n62.5,1500000,10,gemm_kernel\n", "sum.csv");
  REQUIRE_FALSE(trace.ok());
  // An nsys stats table: the one-line error names it and the export to use instead.
  CHECK(trace.error().message.rfind("sum.csv: not a trace gpuperf reads: an `nsys stats` summary "
                                    "CSV",
                                    0) == 0);
  CHECK_THAT(trace.error().message, Catch::Contains("nsys export --type sqlite"));
  CHECK_FALSE(gpuperf::io::ncu::LooksLikeNcuCsv("\"ID\",\"Name\"\n1,2\n"));
  CHECK(gpuperf::io::ncu::LooksLikeNcuCsv(std::string("\xEF\xBB\xBF") + kLongHeader));
}

}  // namespace
