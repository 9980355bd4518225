// baseline.json written from the baseline model and read back (io/report): every value compare
// and ranks use comes back as the model held it.
#include <catch2/catch.hpp>

#include <string>

#include "io/report/baseline_json_reader.h"
#include "report/baseline_writer.h"

namespace gpuperf {
namespace {

baseline::Baseline SampleBaseline() {
  baseline::Baseline b;
  baseline::ProbedDevice gpu;
  gpu.ordinal = 0;
  gpu.name = "NVIDIA H100 80GB HBM3";
  gpu.uuid = "GPU-1234";
  gpu.sm_clock_khz = 1980000;
  gpu.memory_clock_khz = 2619000;
  b.gpus.push_back(gpu);
  b.device.ordinal = 0;
  nlohmann::ordered_json state = {{"uuid", "GPU-1234"}, {"sm_mhz", 1980}};
  b.gpu_state_before = nlohmann::ordered_json::array();
  b.gpu_state_before.push_back(state);
  b.host.driver_release = "580.65.06";
  b.cuda_runtime_version = 12040;
  b.command = {"./app", "--size", "4"};
  b.executable_sha256 = "abc123";
  b.input_sha256 = {{"data.bin", "def456"}};
  for (int i = 1; i <= 3; ++i) {
    baseline::MeasuredRun run;
    run.index = i;
    run.outcome.wall_ns = 1'234'567'891LL * i;
    run.figures.complete = i != 2;
    run.trace_files = {"runs/run-00" + std::to_string(i) + "/trace.json.gz"};
    b.runs.push_back(run);
  }
  b.analyzed_run = 3;
  return b;
}

// The analysis of run analyzed_run rides beside the model (the recorder knows no report model).
io::BaselineFile ReadBack(const baseline::Baseline& model, bool analysed = true) {
  const std::optional<report::AnalysisReport> analysis =
      analysed ? std::optional<report::AnalysisReport>(report::AnalysisReport{}) : std::nullopt;
  auto read = io::ParseBaselineJson(report::BaselineJson(model, analysis).dump(2), "baseline.json");
  REQUIRE(read.ok());
  return std::move(read).value();
}

TEST_CASE("baseline.json round trip: the environment comes back as written") {
  const baseline::Baseline model = SampleBaseline();
  const io::BaselineFile back = ReadBack(model);
  CHECK(back.gpus_recorded);
  REQUIRE(back.gpus.size() == 1);
  CHECK(back.gpus[0].name == model.gpus[0].name);
  CHECK(back.gpus[0].max_sm_clock_khz == model.gpus[0].sm_clock_khz);
  CHECK(back.gpus[0].max_memory_clock_khz == model.gpus[0].memory_clock_khz);
  CHECK(back.gpu_state_before == "{\"sm_mhz\":1980,\"uuid\":\"GPU-1234\"}");
  CHECK(back.driver_release == model.host.driver_release);
  CHECK(back.cuda_runtime_version.starts_with("12.4 (12040, "));
  CHECK(back.command == "./app --size 4");
  CHECK(back.executable_sha256 == model.executable_sha256);
  CHECK(back.inputs == model.input_sha256);
}

TEST_CASE("baseline.json round trip: the runs and the analysed run come back") {
  const baseline::Baseline model = SampleBaseline();
  const io::BaselineFile back = ReadBack(model);
  REQUIRE(back.runs.size() == model.runs.size());
  for (std::size_t i = 0; i < model.runs.size(); ++i) {
    CHECK(back.runs[i].index == model.runs[i].index);
    CHECK(back.runs[i].complete == model.runs[i].figures.complete);
    CHECK(back.runs[i].wall_time_s == static_cast<double>(model.runs[i].outcome.wall_ns) / 1e9);
    CHECK(back.runs[i].traces == model.runs[i].trace_files);
  }
  CHECK(back.analyzed_run == 3);
}

TEST_CASE("baseline.json round trip: a skipped GPU check and no analysis read as absent") {
  baseline::Baseline model = SampleBaseline();
  model.gpus.clear();
  model.device.ordinal = -1;
  model.gpu_state_before = nullptr;
  const io::BaselineFile back = ReadBack(model, /*analysed=*/false);
  CHECK_FALSE(back.gpus_recorded);
  CHECK(back.gpus.empty());
  CHECK(back.gpu_state_before.empty());
  CHECK(back.analyzed_run == 0);
}

TEST_CASE("baseline.json reader refuses what is not a JSON object") {
  auto read = io::ParseBaselineJson("[1, 2]", "b/baseline.json");
  REQUIRE_FALSE(read.ok());
  CHECK(read.error().message.starts_with("b/baseline.json: "));
}

TEST_CASE("baseline.json reader refuses nesting deeper than gpuperf writes") {
  // Deep text in a field read as text would otherwise recurse once per level.
  const std::string deep =
      "{\"workload\":{\"command\":" + std::string(100, '[') + std::string(100, ']') + "}}";
  auto read = io::ParseBaselineJson(deep, "b/baseline.json");
  REQUIRE_FALSE(read.ok());
  CHECK(read.error().message.find("nested deeper than") != std::string::npos);
  CHECK(io::ParseBaselineJson("{\"workload\":{\"command\":[[\"python\"]]}}", "b").ok());
}

}  // namespace
}  // namespace gpuperf
