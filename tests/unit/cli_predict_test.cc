// `gpuperf predict`'s output is a CI contract: its JSON keys and its text stay exactly as they
// were before the predict model and its writers moved out of the CLI. The expected files were
// written by the CLI that built the JSON by hand (tests/fixtures/predict).
#include <catch2/catch.hpp>

#include <string>

#include "cli_test_support.h"

namespace gpuperf::testing {
namespace {

std::string PredictFixture(const std::string& name) {
  return std::string(GPUPERF_SOURCE_DIR) + "/tests/fixtures/predict/" + name;
}

}  // namespace

TEST_CASE("predict: the output from a trace is unchanged, JSON and text", "[predict][cli]") {
  const std::string trace = PredictFixture("critical_trace.json");
  RunResult json =
      RunGpuperf({"predict", trace, "--kernel", "gemm", "--speedup", "1.5", "--format", "json"});
  REQUIRE(json.exit_code == 0);
  CHECK(json.out == ReadFile(PredictFixture("trace.expected.json")));
  RunResult text = RunGpuperf({"predict", trace, "--kernel", "gemm|soft", "--speedup", "1.5"});
  REQUIRE(text.exit_code == 0);
  CHECK(text.out == ReadFile(PredictFixture("trace.expected.txt")));
}

TEST_CASE("predict: the output from a report is unchanged, JSON and text", "[predict][cli]") {
  TempDir dir;
  const std::string out = dir / "report";
  REQUIRE(RunGpuperf({"analyze", PredictFixture("critical_trace.json"), "--out", out}).exit_code ==
          0);
  RunResult json =
      RunGpuperf({"predict", out, "--kernel", "gemm|soft", "--speedup", "1.5", "--format", "json"});
  REQUIRE(json.exit_code == 0);
  CHECK(json.out == ReadFile(PredictFixture("report.expected.json")));
  RunResult text =
      RunGpuperf({"predict", out + "/report.json", "--kernel", "gemm", "--speedup", "3"});
  REQUIRE(text.exit_code == 0);
  CHECK(text.out == ReadFile(PredictFixture("report.expected.txt")));
}

}  // namespace gpuperf::testing
