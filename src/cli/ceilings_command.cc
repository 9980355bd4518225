#include "cli/ceilings_command.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>

#include "cli/app.h"
#include "cli/ceilings_table.h"
#include "cli/errors.h"
#include "cli/staged_output.h"
#include "cli/terminal.h"
#include "io/ceilings/ceilings_cache.h"
#include "io/ceilings/ceilings_json.h"
#include "io/ceilings/ceilings_probe.h"
#include "model/measured_ceilings.h"
#include "record/baseline.h"
#include "record/cuda_probe.h"
#include "record/cuda_probe_isolated.h"

namespace gpuperf::cli {
namespace {

// The probe takes about 10 s on an H200; the rest is headroom for a slow context creation.
constexpr std::chrono::milliseconds kProbeTimeout{300'000};

// Test-only: skips the driver check so that tests can run a fake probe on machines without a
// GPU (tests/unit/cli_ceilings_test.cc). Not for users: the probe then fails on its own.
constexpr const char* kSkipGpuCheckEnv = "GPUPERF_TEST_SKIP_GPU_PROBE";

constexpr const char* kCeilingsFooter = R"(Examples:
  gpuperf ceilings
      Measures device 0, caches ~/.cache/gpuperf/ceilings/GPU-<uuid>.json and prints it.
  gpuperf ceilings --device 1 --cache-dir /shared/ceilings
      Another GPU, another cache directory.
  gpuperf ceilings --show
      Prints the cached entries; needs no GPU.
  gpuperf analyze trace.json --ceilings ~/.cache/gpuperf/ceilings
      Rooflines against the measured ceilings of the trace's GPU (by UUID, else by name).

The probe (gpuperf_ceilings_probe, built from kernels/ with the CUDA toolkit) is found through
--probe, GPUPERF_CEILINGS_PROBE, next to gpuperf, or in ../kernels/ (the build tree); it is killed
after 300 s.
Exit codes: 0 ok, 1 failure (probe missing, failed or printed invalid figures; cache not
written or unreadable), 2 usage error, 3 no usable GPU (no driver, no device, driver too old).)";

// "2026-12-01T11:36:05Z"
std::string UtcNow() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

bool SkipGpuCheck() {
  const char* value = std::getenv(kSkipGpuCheckEnv);
  return value != nullptr && std::string(value) == "1";
}

}  // namespace

CLI::App* CeilingsCommand::Register(CLI::App& app) {
  CLI::App* sub = app.add_subcommand(
      "ceilings",
      "Measure the sustainable DRAM bandwidth, FP32 FMA and bf16/fp16 tensor-core rates of a "
      "local GPU and cache them for reports");
  CLI::Option* device =
      sub->add_option("--device", device_, "CUDA device ordinal to measure (as CUDA numbers them)")
          ->check(CLI::Range(0, 1024))
          ->type_name("N")
          ->capture_default_str();
  sub->add_option("--cache-dir",
                  cache_dir_,
                  "Cache directory (default $XDG_CACHE_HOME/gpuperf/ceilings, else "
                  "~/.cache/gpuperf/ceilings)")
      ->type_name("DIR");
  CLI::Option* probe = sub->add_option("--probe",
                                       probe_,
                                       "The probe program (default: gpuperf_ceilings_probe "
                                       "from GPUPERF_CEILINGS_PROBE, beside gpuperf, or the "
                                       "build tree)")
                           ->type_name("PATH");
  sub->add_flag("--show", show_, "Print the cached entries without measuring (no GPU needed)")
      ->excludes(device)
      ->excludes(probe);
  sub->footer(kCeilingsFooter);
  return sub;
}

int CeilingsCommand::Run() {
  const std::string dir = cache_dir_.empty() ? io::ceilings::DefaultCacheDir() : cache_dir_;
  if (dir.empty()) {
    PrintError("--cache-dir: no default cache directory (neither XDG_CACHE_HOME nor HOME is set)");
    return kExitUsage;
  }
  return show_ ? Show(dir) : Measure(dir);
}

int CeilingsCommand::Show(const std::string& dir) const {
  std::error_code error;
  if (!std::filesystem::exists(dir, error)) {
    fmt::print(Out(), "no measured ceilings in {} (gpuperf ceilings writes them)\n", dir);
    return kExitOk;
  }
  auto listing = io::ceilings::ReadCacheDir(dir);
  if (!listing.ok()) {
    PrintError(listing.error().message);
    return kExitFailure;
  }
  for (std::size_t i = 0; i < listing->entries.size(); ++i)
    fmt::print(Out(), "{}{}", i == 0 ? "" : "\n", CeilingsTable(listing->entries[i]));
  if (listing->entries.empty() && listing->errors.empty())
    fmt::print(Out(), "no measured ceilings in {} (gpuperf ceilings writes them)\n", dir);
  std::fflush(Out());
  for (const std::string& message : listing->errors)
    PrintError(message);
  return listing->errors.empty() ? kExitOk : kExitFailure;
}

int CeilingsCommand::Measure(const std::string& dir) const {
  record::ProbeResult gpu;
  const bool check_gpu = !SkipGpuCheck();
  if (check_gpu) {
    gpu = record::ProbeCudaIsolated();
    if (gpu.status != record::ProbeStatus::kOk) {
      PrintError(gpu.message);
      return kExitNoGpu;
    }
    if (static_cast<std::size_t>(device_) >= gpu.devices.size()) {
      PrintError(
          fmt::format("--device {}: {} CUDA device(s) visible", device_, gpu.devices.size()));
      return kExitUsage;
    }
  }
  auto probe = io::ceilings::LocateProbe(probe_, io::ceilings::SelfExecutable());
  if (!probe.ok()) {
    PrintError(probe.error().message);
    return kExitFailure;
  }
  fmt::print(stderr, "gpuperf: measuring the ceilings of device {} (about 10 s)\n", device_);
  auto measured = io::ceilings::RunProbe(*probe, device_, kProbeTimeout);
  if (!measured.ok()) {
    PrintError(measured.error().message);
    return kExitFailure;
  }
  if (check_gpu) {
    const std::string expected = model::NormalizeGpuUuid(gpu.devices[device_].uuid);
    if (!expected.empty() && expected != measured->uuid) {
      PrintError(fmt::format(
          "{}: measured {}, but device {} is {}", *probe, measured->uuid, device_, expected));
      return kExitFailure;
    }
  }
  measured->date = UtcNow();
  measured->gpuperf_version = Version();
  StagedOutput out(dir, StagedOutput::Mode::kFiles);
  Status written = out.Prepare();
  if (written.ok())
    written =
        out.Stage(io::ceilings::CacheFileName(*measured), io::ceilings::ToCacheJson(*measured));
  if (written.ok())
    written = out.Commit();
  if (!written.ok()) {
    PrintError(written.error().message);
    return kExitFailure;
  }
  measured->path = out.written().front();
  fmt::print(Out(), "{}", CeilingsTable(*measured));
  return std::fflush(Out()) == 0 ? kExitOk : kExitFailure;
}

}  // namespace gpuperf::cli
