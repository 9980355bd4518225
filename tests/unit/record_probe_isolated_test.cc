// ProbeCudaIsolated: the GPU check runs in a child with a deadline, so that a hung cuInit cannot
// hang `gpuperf baseline` (issue: "exits within seconds ... never hangs").
#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>

#include "record/cuda_probe_isolated.h"

using namespace gpuperf::record;

namespace {

ProbeResult TwoDevices() {
  ProbeResult r;
  r.status = ProbeStatus::kOk;
  r.message = "ok \"quoted\" \xff";
  r.driver_api_version = 13000;
  for (int i = 0; i < 2; ++i) {
    ProbedDevice d;
    d.ordinal = i;
    d.name = "NVIDIA H200";
    d.uuid = "GPU-0000000" + std::to_string(i);
    d.compute_major = 9;
    d.sm_count = 132;
    d.memory_bytes = 150'000'000'000;
    d.sm_clock_khz = 1'980'000;
    d.bus_width_bits = 6144;
    d.peak_bandwidth_bytes_per_s = 4.8e12;
    r.devices.push_back(d);
  }
  return r;
}

ProbeResult Hangs() {
  for (;;)
    pause();
}

// A driver that segfaults (cuptiDeviceGetChipName does without cuInit). The test framework's
// own handler is inherited by the forked child: restore the default so the child just dies.
ProbeResult Crashes() {
  std::signal(SIGSEGV, SIG_DFL);
  std::raise(SIGSEGV);
  return {};
}

}  // namespace

TEST_CASE("isolated probe: the child's answer comes back whole", "[record][nogpu]") {
  const ProbeResult r = ProbeCudaIsolated(10'000, &TwoDevices);
  CHECK(r.status == ProbeStatus::kOk);
  CHECK(r.driver_api_version == 13000);
  REQUIRE(r.devices.size() == 2);
  CHECK(r.devices[1].uuid == "GPU-00000001");
  CHECK(r.devices[1].memory_bytes == 150'000'000'000);
  CHECK(r.devices[0].peak_bandwidth_bytes_per_s == 4.8e12);
  CHECK(r.message.rfind("ok \"quoted\" ", 0) == 0);  // invalid UTF-8 replaced, not fatal
}

TEST_CASE("isolated probe: a hung driver is killed at the deadline", "[record][nogpu]") {
  const auto start = std::chrono::steady_clock::now();
  const ProbeResult r = ProbeCudaIsolated(300, &Hangs);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  CHECK(r.status == ProbeStatus::kDriverError);
  CHECK(r.message.find("did not answer within") != std::string::npos);
}

TEST_CASE("isolated probe: a crashing driver is reported, not fatal", "[record][nogpu]") {
  const ProbeResult r = ProbeCudaIsolated(10'000, &Crashes);
  CHECK(r.status == ProbeStatus::kDriverError);
  CHECK(r.message.find("crashed") != std::string::npos);
  CHECK(r.message.find("Segmentation fault") != std::string::npos);
}

TEST_CASE("isolated probe: the real probe on this machine agrees with the in-process one",
          "[record][nogpu]") {
  const ProbeResult direct = ProbeCuda();
  const ProbeResult isolated = ProbeCudaIsolated();
  CHECK(isolated.status == direct.status);
  CHECK(isolated.message == direct.message);
  CHECK(isolated.devices.size() == direct.devices.size());
}

TEST_CASE("isolated probe: unreadable answers are driver errors", "[record][nogpu]") {
  CHECK(ProbeResultFromJson("not json").status == ProbeStatus::kDriverError);
  CHECK(ProbeResultFromJson(R"({"status": 99, "message": "", "driver_api_version": 0,
                                "devices": []})")
            .status == ProbeStatus::kDriverError);
  const ProbeResult back = ProbeResultFromJson(ProbeResultToJson(TwoDevices()));
  CHECK(back.devices.size() == 2);
}
