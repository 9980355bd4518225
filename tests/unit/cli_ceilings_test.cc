// `gpuperf ceilings` end to end with the real binary: the no-GPU exit on this machine, a fake
// probe (a shell script printing canned JSON) behind the test-only GPUPERF_TEST_SKIP_GPU_PROBE,
// --show, and `--ceilings` attaching measured entries to a trace.
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "ceilings_test_support.h"
#include "cli/ceilings_option.h"
#include "cli/command.h"
#include "cli_test_support.h"
#include "io/ceilings/ceilings_cache.h"
#include "record/cuda_probe.h"

namespace {

namespace fs = std::filesystem;
using gpuperf::testing::RunGpuperf;
using gpuperf::testing::TempDir;

// The driver check skipped for one scope (the child gpuperf inherits the environment).
class SkipGpuCheck {
 public:
  SkipGpuCheck() { ::setenv("GPUPERF_TEST_SKIP_GPU_PROBE", "1", 1); }
  ~SkipGpuCheck() { ::unsetenv("GPUPERF_TEST_SKIP_GPU_PROBE"); }
  SkipGpuCheck(const SkipGpuCheck&) = delete;
  SkipGpuCheck& operator=(const SkipGpuCheck&) = delete;
};

std::string FakeProbe(const TempDir& tmp, const std::string& body) {
  const std::string path = tmp / "probe.sh";
  gpuperf::testing::WriteFile(path, "#!/bin/sh\n" + body);
  fs::permissions(path, fs::perms::owner_all);
  return path;
}

std::string CannedProbe(const TempDir& tmp) {
  return FakeProbe(tmp,
                   "echo \"$@\" > \"$(dirname \"$0\")/args\"\ncat <<'EOF'\n" +
                       gpuperf::testing::ProbeJson() + "EOF\n");
}

}  // namespace

TEST_CASE("gpuperf ceilings exits 3 within seconds without a GPU", "[ceilings][nogpu]") {
  if (gpuperf::record::ProbeCuda().status == gpuperf::record::ProbeStatus::kOk) {
    WARN("a usable CUDA GPU is present: the no-GPU path cannot be checked on this machine");
    return;
  }
  TempDir tmp;
  const auto start = std::chrono::steady_clock::now();
  auto run = RunGpuperf({"ceilings", "--cache-dir", tmp / "cache"});
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  CHECK(run.exit_code == gpuperf::cli::kExitNoGpu);
  CHECK(run.out.empty());
  REQUIRE(run.ErrLines().size() == 1);
  const std::string line = run.ErrLines()[0];
  CHECK(line.rfind("gpuperf: error: ", 0) == 0);
  CHECK((line.find("no CUDA driver found") != std::string::npos ||
         line.find("no CUDA device visible") != std::string::npos ||
         line.find("driver too old for CUDA 13") != std::string::npos ||
         line.find("failed to initialise") != std::string::npos));
  CHECK_FALSE(fs::exists(tmp / "cache"));
}

TEST_CASE("gpuperf ceilings runs the probe, caches its figures and prints them", "[ceilings]") {
  TempDir tmp;
  SkipGpuCheck skip;
  const std::string probe = CannedProbe(tmp);
  auto run = RunGpuperf({"ceilings", "--cache-dir", tmp / "cache", "--probe", probe});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(gpuperf::testing::ReadFile(tmp / "args") == "--device 0\n");
  const std::string file = tmp / ("cache/" + std::string(gpuperf::testing::kProbeUuid) + ".json");
  CHECK(std::distance(fs::directory_iterator(tmp / "cache"), fs::directory_iterator()) == 1);
  auto cached = gpuperf::io::ceilings::ReadCacheFile(file);
  REQUIRE(cached.ok());
  CHECK(cached->date.size() == 20);
  CHECK_FALSE(cached->gpuperf_version.empty());
  CHECK(cached->fp32_vector.per_s == Approx(6e13));
  // The table: measured beside the H200 datasheet (4.8 TB/s, 67 TFLOP/s FP32).
  CHECK(run.out.find("NVIDIA H200  " + std::string(gpuperf::testing::kProbeUuid) +
                     "  cc 9.0  132 SMs") != std::string::npos);
  CHECK(run.out.find("DRAM bandwidth   4 TB/s") != std::string::npos);
  CHECK(run.out.find("BF16 tensor      600 TFLOP/s     1.98 GHz") != std::string::npos);
  CHECK(run.out.find("file: " + file) != std::string::npos);

  auto show = RunGpuperf({"ceilings", "--show", "--cache-dir", tmp / "cache"});
  CHECK(show.exit_code == 0);
  CHECK(show.err.empty());
  CHECK(show.out.find("FP16 tensor      500 TFLOP/s     1.96 GHz") != std::string::npos);
}

TEST_CASE("gpuperf ceilings: probe failures and bad output exit 1 with one line", "[ceilings]") {
  TempDir tmp;
  SkipGpuCheck skip;
  const std::string failing =
      FakeProbe(tmp, "echo 'gpuperf_ceilings_probe: cudaSetDevice: invalid device' >&2; exit 1\n");
  auto run = RunGpuperf({"ceilings", "--cache-dir", tmp / "cache", "--probe", failing});
  CHECK(run.exit_code == 1);
  REQUIRE_FALSE(run.ErrLines().empty());
  CHECK(run.ErrLines().back() == "gpuperf: error: " + failing +
                                     ": exited with code 1: gpuperf_ceilings_probe: "
                                     "cudaSetDevice: invalid device");
  CHECK_FALSE(fs::exists(tmp / "cache"));

  const std::string zero = FakeProbe(
      tmp,
      "cat <<'EOF'\n" + gpuperf::testing::Replace(gpuperf::testing::ProbeJson(), "6.0e14", "0") +
          "EOF\n");
  run = RunGpuperf({"ceilings", "--cache-dir", tmp / "cache", "--probe", zero});
  CHECK(run.exit_code == 1);
  CHECK(run.ErrLines().back().rfind("gpuperf: error: " + zero +
                                        ": printed invalid ceilings: bf16_tensor.flops_per_s: 0 "
                                        "is outside",
                                    0) == 0);
  CHECK_FALSE(fs::exists(tmp / "cache"));

  run = RunGpuperf({"ceilings", "--cache-dir", tmp / "cache", "--probe", tmp / "missing"});
  CHECK(run.exit_code == 1);
  CHECK(run.ErrLines().back() ==
        "gpuperf: error: --probe " + tmp / "missing" + ": not an executable file");
}

TEST_CASE("gpuperf ceilings --show: empty, corrupt and usage", "[ceilings]") {
  TempDir tmp;
  auto run = RunGpuperf({"ceilings", "--show", "--cache-dir", tmp / "none"});
  CHECK(run.exit_code == 0);
  CHECK(run.out == "no measured ceilings in " + tmp / "none" + " (gpuperf ceilings writes them)\n");
  gpuperf::testing::WriteFile(tmp / "x.json", "{");
  run = RunGpuperf({"ceilings", "--show", "--cache-dir", tmp.path().string()});
  CHECK(run.exit_code == 1);
  REQUIRE(run.ErrLines().size() == 1);
  CHECK(run.ErrLines()[0].rfind(
            "gpuperf: error: " + tmp / "x.json" + ": not a gpuperf ceilings cache file: not JSON",
            0) == 0);
  run = RunGpuperf({"ceilings", "--show", "--device", "1"});
  CHECK(run.exit_code == 2);
  run = RunGpuperf({"ceilings", "stray"});
  CHECK(run.exit_code == 2);
}

TEST_CASE("analyze option --ceilings attaches the entry of the trace's GPU", "[ceilings]") {
  TempDir tmp;
  SkipGpuCheck skip;
  REQUIRE(RunGpuperf({"ceilings", "--cache-dir", tmp / "cache", "--probe", CannedProbe(tmp)})
              .exit_code == 0);
  gpuperf::model::Trace trace;
  gpuperf::model::Device h200;
  h200.name = "NVIDIA H200";
  h200.compute_major = 9;
  h200.uuid = "GPU-9F8075AA-E02A-0953-1955-32F638FB2993";
  trace.devices.push_back(h200);
  REQUIRE(gpuperf::cli::AttachCeilingsFiles({tmp / "cache"}, trace).ok());
  REQUIRE(trace.devices[0].measured_ceilings);
  CHECK(trace.devices[0].measured_ceilings->matched_by ==
        "uuid " + std::string(gpuperf::testing::kProbeUuid));
  auto missing = gpuperf::cli::AttachCeilingsFiles({tmp / "nope.json"}, trace);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message == tmp / "nope.json" + ": cannot open: No such file or directory");
  CHECK(gpuperf::cli::AttachCeilingsFiles({}, trace).ok());
}
