// The no-GPU path of `gpuperf baseline` on a machine without a CUDA driver (CI, this host):
// a clear message, exit code 3, within seconds, and no output directory.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "cli/baseline_command.h"
#include "record/cuda_probe.h"

namespace {
namespace fs = std::filesystem;
}

TEST_CASE("ProbeCuda explains why no GPU can be used", "[record][nogpu]") {
  const auto start = std::chrono::steady_clock::now();
  const gpuperf::record::ProbeResult probe = gpuperf::record::ProbeCuda();
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  if (probe.status == gpuperf::record::ProbeStatus::kOk) {
    WARN("a usable CUDA GPU is present: the no-GPU path cannot be checked on this machine");
    return;
  }
  CHECK_FALSE(probe.message.empty());
  CHECK((probe.message.find("no CUDA driver found") != std::string::npos ||
         probe.message.find("no CUDA device visible") != std::string::npos ||
         probe.message.find("driver too old for CUDA 13") != std::string::npos ||
         probe.message.find("failed to initialise") != std::string::npos));
}

TEST_CASE("gpuperf baseline exits 3 within seconds without a GPU", "[record][nogpu]") {
  if (gpuperf::record::ProbeCuda().status == gpuperf::record::ProbeStatus::kOk) {
    WARN("a usable CUDA GPU is present: the no-GPU path cannot be checked on this machine");
    return;
  }
  const fs::path out = fs::temp_directory_path() / ("gpuperf-nogpu-" + std::to_string(getpid()));
  fs::remove_all(out);
  CLI::App app{"gpuperf"};
  gpuperf::cli::BaselineCommand command;
  command.Register(app);
  const std::string out_text = out.string();
  std::vector<std::string> args = {"gpuperf", "baseline", "--out", out_text, "--", "/bin/true"};
  std::vector<char*> argv;
  for (auto& arg : args)
    argv.push_back(arg.data());
  app.parse(static_cast<int>(argv.size()), argv.data());
  const auto start = std::chrono::steady_clock::now();
  CHECK(command.Run() == gpuperf::cli::kExitNoGpu);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("gpuperf baseline --metrics: a bad metric list is a usage error before anything runs",
          "[record][counters]") {
  const fs::path out =
      fs::temp_directory_path() / ("gpuperf-badmetrics-" + std::to_string(getpid()));
  fs::remove_all(out);
  for (std::string list : {"rooflin", "roofline,not a metric", ","}) {
    CLI::App app{"gpuperf"};
    gpuperf::cli::BaselineCommand command;
    command.Register(app);
    const std::string out_text = out.string();
    std::vector<std::string> args = {
        "gpuperf", "baseline", "--metrics", list, "--out", out_text, "--", "/bin/true"};
    std::vector<char*> argv;
    for (auto& arg : args)
      argv.push_back(arg.data());
    app.parse(static_cast<int>(argv.size()), argv.data());
    INFO(list);
    CHECK(command.Run() == gpuperf::cli::kExitUsage);
    CHECK_FALSE(fs::exists(out));
  }
}
