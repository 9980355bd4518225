// Every command reads a trace the same way: imported, then a visible-devices remap resolved, so
// compare, predict and ranks find the ceilings analyze finds.
#include <catch2/catch.hpp>

#include "cli/trace_input.h"
#include "cli_test_support.h"

TEST_CASE("trace input: the device remap is applied for every command", "[cli]") {
  gpuperf::testing::TempDir dir;
  std::string path = dir / "remapped.json";
  // One device described as id 0; its kernels ran on id 2 (HIP_VISIBLE_DEVICES=2).
  gpuperf::testing::WriteFile(
      path,
      R"({"deviceProperties": [{"id": 0, "name": "AMD Instinct MI300X", "computeMajor": 9,
          "computeMinor": 4, "numSms": 304}],
          "traceEvents": [
            {"ph": "X", "cat": "kernel", "name": "k", "pid": 2, "tid": 7, "ts": 10, "dur": 5,
             "args": {"device": 2, "stream": 7, "correlation": 1}},
            {"ph": "X", "cat": "kernel", "name": "k", "pid": 2, "tid": 7, "ts": 20, "dur": 5,
             "args": {"device": 2, "stream": 7, "correlation": 2}}]})");
  auto trace = gpuperf::cli::ImportTraceForAnalysis(path);
  REQUIRE(trace.ok());
  REQUIRE(trace->FindDevice(2) != nullptr);
  CHECK(trace->FindDevice(2)->name == "AMD Instinct MI300X");
  CHECK(trace->diagnostics.Has(gpuperf::model::Diagnostic::kAnalysisDeviceRemapped));
  CHECK_FALSE(gpuperf::cli::ImportTraceForAnalysis(dir / "missing.json").ok());
}
