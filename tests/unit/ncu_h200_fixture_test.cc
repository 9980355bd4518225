// The range profiler's counter CSVs from the 2026-12-04 H200 run (tests/fixtures/ncu_h200/,
// docs/gpu-validation.md) read back as Nsight Compute input: the FLOPs and bytes the GPU counted
// for kernels whose work the programs know exactly.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

#include "cli_test_support.h"

namespace {

using gpuperf::testing::ReadFile;
using gpuperf::testing::RunGpuperf;
using gpuperf::testing::TempDir;

const std::string kFixtures = std::string(GPUPERF_SOURCE_DIR) + "/tests/fixtures/ncu_h200/";

// report.json of `gpuperf analyze FIXTURE` (an Nsight Compute CSV on its own).
nlohmann::json Analyze(const std::string& fixture) {
  TempDir dir;
  auto result = RunGpuperf({"analyze",
                            kFixtures + fixture,
                            "--gpu",
                            "H200 SXM 141GB",
                            "--out",
                            dir / "out",
                            "--format",
                            "json",
                            "--quiet"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return nlohmann::json::parse(ReadFile(dir.path() / "out" / "report.json"));
}

const nlohmann::json& Kernel(const nlohmann::json& report, const std::string& prefix) {
  for (const auto& kernel : report["kernels"]) {
    if (kernel["name"].get<std::string>().rfind(prefix, 0) == 0)
      return kernel;
  }
  FAIL("no kernel named " << prefix << "...");
  return report;
}

double PerLaunch(const nlohmann::json& kernel, const char* key) {
  const auto& roof = kernel["roofline"];
  return roof[key].get<double>() / roof["instances"].get<double>();
}

}  // namespace

TEST_CASE("ncu h200 fixtures: cuBLAS products count 2 M N K tensor FLOPs", "[ncu][h200]") {
  // torch.matmul at M = N = K = 4096: sm__ops_path_tensor_src_* counts FLOPs, not
  // multiply-adds (1.0000 x 2 M N K on the H200, 2 launches each).
  const nlohmann::json report = Analyze("gemm.counters.csv");
  for (const char* name : {"nvjet_sm90_tst_", "nvjet_sm90_hsh_"}) {
    const auto& kernel = Kernel(report, name);
    INFO(name);
    CHECK(kernel["roofline"]["instances"] == 2);
    CHECK(kernel["roofline"]["unit"] == "tensor");
    CHECK(PerLaunch(kernel, "flops") == 2.0 * 4096 * 4096 * 4096);
    CHECK(kernel["roofline"]["bound"] == "compute");
  }
  CHECK(Kernel(report, "nvjet_sm90_tst_")["roofline"]["precision"] == "bf16");
  CHECK(Kernel(report, "nvjet_sm90_hsh_")["roofline"]["precision"] == "fp16");
}

TEST_CASE("ncu h200 fixtures: the sample's FMA and stream kernels", "[ncu][h200]") {
  // Fma: 2 x 4096 FMAs per thread, 270336 threads, and the two FADDs per thread the SASS holds:
  // 2 x 2214592512 + 540672 FP32 FLOPs per launch.
  const nlohmann::json fma_report = Analyze("fma.counters.csv");
  const auto& fma = Kernel(fma_report, "(anonymous namespace)::Fma");
  CHECK(fma["roofline"]["precision"] == "fp32");
  CHECK(PerLaunch(fma, "flops") == 2.0 * 2214592512 + 540672);
  CHECK(fma["roofline"]["bound"] == "compute");
  // Triad over 64 Mi floats: 12 bytes an element (8 read, 4 written), 805306368 by the program;
  // DRAM counted 814550272 and 813588224 in the two launches (+1.1%).
  const nlohmann::json stream_report = Analyze("stream.counters.csv");
  const auto& triad = Kernel(stream_report, "(anonymous namespace)::Triad");
  CHECK(triad["roofline"]["instances"] == 2);
  CHECK(triad["roofline"]["dram_bytes"].get<double>() == 814550272.0 + 813588224.0);
  CHECK(triad["roofline"]["bound"] == "memory");
}
