// `gpuperf analyze TRACE --model FILE` end to end: the modelled kernel in report.json with the
// file's FLOPs and bytes, and one-line errors naming a bad model file (exit 1, no report).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "cli_test_support.h"
#include "corpus.h"

namespace gpuperf::testing {
namespace {

namespace fs = std::filesystem;

// A Kineto trace on an H100: two launches of an SGEMM with geometry, one other kernel.
std::string WriteTrace(const TempDir& dir) {
  std::string path = dir / "trace.json";
  WriteFile(path, R"json({"schemaVersion": 1, "deviceProperties": [{"id": 0,
   "name": "NVIDIA H100 80GB HBM3", "computeMajor": 9, "computeMinor": 0, "numSms": 132}],
  "traceEvents": [
  {"ph": "X", "cat": "kernel", "name": "sgemm_128x64_nn", "pid": 0, "tid": 7, "ts": 10,
   "dur": 2, "args": {"device": 0, "stream": 7, "grid": [32, 16, 1], "block": [256, 1, 1]}},
  {"ph": "X", "cat": "kernel", "name": "sgemm_128x64_nn", "pid": 0, "tid": 7, "ts": 20,
   "dur": 2, "args": {"device": 0, "stream": 7, "grid": [32, 16, 1], "block": [256, 1, 1]}},
  {"ph": "X", "cat": "kernel", "name": "other_kernel", "pid": 0, "tid": 7, "ts": 30,
   "dur": 1, "args": {"device": 0, "stream": 7, "grid": [1, 1, 1], "block": [32, 1, 1]}}
]})json");
  return path;
}

constexpr const char* kModel = R"json({
  "schema": "gpuperf-kernel-model/1",
  "params": {"M": 1024, "N": 512, "K": 256},
  "kernels": [
    {"pattern": "sgemm_(\\d+)x(\\d+)", "flops": "2*M*N*K", "bytes": "4*(M*K + K*N + M*N)",
     "note": "cuBLAS SGEMM, sizes from the benchmark script"}
  ]
})json";

nlohmann::json Kernel(const nlohmann::json& report, const std::string& name) {
  for (const auto& row : report.at("kernels")) {
    if (row.at("name") == name)
      return row;
  }
  FAIL("no kernel " << name);
  return {};
}

TEST_CASE("analyze --model: report.json has the modelled kernel", "[kernel_model]") {
  TempDir dir;
  std::string trace = WriteTrace(dir);
  WriteFile(dir / "model.json", kModel);
  RunResult result = RunGpuperf(
      {"analyze", trace, "--model", dir / "model.json", "--out", dir / "o", "--format", "json"});
  INFO("stderr: " << result.err);
  REQUIRE(result.exit_code == 0);
  auto report = nlohmann::json::parse(ReadFile(dir / "o/report.json"));
  // Per launch 2*1024*512*256 = 268435456 FLOPs, 4*(262144 + 131072 + 524288) = 3670016 bytes.
  nlohmann::json sgemm = Kernel(report, "sgemm_128x64_nn").at("roofline");
  CHECK(sgemm.at("evidence") == "modeled");
  CHECK(sgemm.at("instances") == 2);
  CHECK(sgemm.at("precision") == "fp32");
  CHECK(sgemm.at("unit") == "vector");
  CHECK(sgemm.at("flops").get<double>() == 536870912.0);
  CHECK(sgemm.at("dram_bytes").get<double>() == 7340032.0);
  CHECK(sgemm.at("arithmetic_intensity").get<double>() == Approx(73.1429).epsilon(1e-5));
  CHECK_FALSE(Kernel(report, "other_kernel").contains("roofline"));
  bool noted = false;
  for (const auto& note : report.at("notes"))
    noted = noted || note.get<std::string>().find("roofline (user model " + dir / "model.json" +
                                                  "): 1 kernel name") == 0;
  CHECK(noted);
}

TEST_CASE("analyze --model: a bad model file fails with one line naming it", "[kernel_model]") {
  TempDir dir;
  std::string trace = WriteTrace(dir);
  struct Case {
    std::string text;
    std::string message;
  };
  for (const Case& c : {
           Case{"{", "not JSON ("},
           Case{R"({"schema": "gpuperf-kernel-model/1", "kernels": [{"pattern": "x",
                 "flops": "2*Q"}]})",
                "kernels[0].flops '2*Q': unknown identifier 'Q' at column 3"},
           Case{R"({"schema": "gpuperf-kernel-model/1", "kernels": [{"pattern": "(",
                 "flops": "1"}]})",
                "kernels[0].pattern '(': not a valid ECMAScript regex"},
       }) {
    WriteFile(dir / "model.json", c.text);
    RunResult result =
        RunGpuperf({"analyze", trace, "--model", dir / "model.json", "--out", dir / "o"});
    INFO("stderr: " << result.err);
    CHECK(result.exit_code == 1);
    auto lines = result.ErrLines();
    REQUIRE(lines.size() == 1);
    CHECK(lines[0].rfind("gpuperf: error: " + dir / "model.json" + ": " + c.message, 0) == 0);
    CHECK_FALSE(fs::exists(dir / "o"));
  }
  RunResult missing =
      RunGpuperf({"analyze", trace, "--model", dir / "none.json", "--out", dir / "o"});
  CHECK(missing.exit_code == 1);
  REQUIRE(missing.ErrLines().size() == 1);
  CHECK(missing.ErrLines()[0] ==
        "gpuperf: error: " + dir / "none.json" + ": cannot open: No such file or directory");
}

TEST_CASE("analyze --model on a corpus trace: every instance of the matched names modelled",
          "[kernel_model][corpus]") {
  auto trace = CorpusFile("kineto/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz");
  if (!trace)
    return;
  TempDir dir;
  // Every kernel whose name says "gemm" gets a constant 1e6 FLOPs per launch; grid-based bytes.
  WriteFile(dir / "model.json", R"({"schema": "gpuperf-kernel-model/1", "kernels": [
    {"pattern": "gemm", "flops": "1e6", "bytes": "blocks * 1024", "unit": "tensor",
     "precision": "bf16"}]})");
  RunResult result = RunGpuperf(
      {"analyze", *trace, "--model", dir / "model.json", "--out", dir / "o", "--format", "json"});
  INFO("stderr: " << result.err);
  REQUIRE(result.exit_code == 0);
  auto report = nlohmann::json::parse(ReadFile(dir / "o/report.json"));
  int modelled = 0;
  for (const auto& row : report.at("kernels")) {
    std::string name = row.at("name");
    if (name.find("gemm") == std::string::npos)
      continue;
    INFO(name);
    REQUIRE(row.contains("roofline"));
    const auto& roofline = row.at("roofline");
    CHECK(roofline.at("evidence") == "modeled");
    CHECK(roofline.at("instances") == row.at("instances"));
    CHECK(roofline.at("flops").get<double>() == 1e6 * roofline.at("instances").get<double>());
    ++modelled;
  }
  CHECK(modelled > 0);
}

}  // namespace
}  // namespace gpuperf::testing
