// The up-front GPU check of `gpuperf baseline`, and the device facts for baseline.json. libcuda
// is opened with dlopen at run time: gpuperf has no link-time dependency on the driver, so it
// starts (and fails clearly) on machines without one.
#pragma once

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

struct ProbedDevice {
  std::int32_t ordinal = 0;
  std::string name;
  std::string uuid;  // "GPU-xxxxxxxx-xxxx-...", as nvidia-smi prints it
  std::string pci_bus_id;
  std::int32_t compute_major = 0;
  std::int32_t compute_minor = 0;
  std::int32_t sm_count = 0;
  std::int64_t memory_bytes = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t sm_clock_khz = 0;      // peak
  std::int64_t memory_clock_khz = 0;  // peak
  std::int32_t bus_width_bits = 0;
  // 2 (DDR) x memory clock x bus width / 8; 0 when an attribute is missing.
  double peak_bandwidth_bytes_per_s = 0;
};

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
