// The up-front GPU check of `gpuperf baseline`, and the device facts for baseline.json. libcuda
// is opened with dlopen at run time: gpuperf has no link-time dependency on the driver, so it
// starts (and fails clearly) on machines without one.
#pragma once

#include "gpuperf/baseline.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpuperf::record {

enum class ProbeStatus {
  kOk,
  kNoDriver,      // libcuda.so.1 not loadable
  kStubDriver,    // the toolkit's stub libcuda is on the library path
  kNoDevice,      // cuInit says no device, or none is visible
  kDriverTooOld,  // cuDriverGetVersion < 13000
  kDriverError,   // any other cuInit / cuDeviceGetCount failure
};

using baseline::ProbedDevice;

struct ProbeResult {
  ProbeStatus status = ProbeStatus::kNoDriver;
  std::string message;         // one line for the user ("no CUDA driver found: ...")
  int driver_api_version = 0;  // cuDriverGetVersion, e.g. 13000
  std::vector<ProbedDevice> devices;
};

// Checks in order: dlopen("libcuda.so.1"), cuInit(0), cuDeviceGetCount, cuDriverGetVersion, then
// reads each device's attributes. Returns in well under a second on a machine without a driver.
ProbeResult ProbeCuda();

// The lowest driver API version the recorder supports (CUDA 13.0).
inline constexpr int kMinDriverApiVersion = 13000;

}  // namespace gpuperf::record
