#include "record/cuda_probe.h"

#include <dlfcn.h>

#include <cstdio>

#include "model/measured_ceilings.h"

namespace gpuperf::record {
namespace {

// The few driver entry points we need, declared by hand (cuda.h is not required to build).
using CuInit = int (*)(unsigned);
using CuDeviceGetCount = int (*)(int*);
using CuDriverGetVersion = int (*)(int*);
using CuDeviceGet = int (*)(int*, int);
using CuDeviceGetName = int (*)(char*, int, int);
using CuDeviceGetAttribute = int (*)(int*, int, int);
using CuDeviceTotalMem = int (*)(std::size_t*, int);
using CuDeviceGetUuid = int (*)(unsigned char*, int);
using CuGetErrorName = int (*)(int, const char**);

// CUresult and CUdevice_attribute values from cuda.h (stable across releases).
constexpr int kCudaSuccess = 0;
constexpr int kCudaErrorStubLibrary = 34;
constexpr int kCudaErrorNoDevice = 100;
constexpr int kAttrClockRate = 13;
constexpr int kAttrSmCount = 16;
constexpr int kAttrPciBusId = 33;
constexpr int kAttrPciDeviceId = 34;
constexpr int kAttrMemoryClockRate = 36;
constexpr int kAttrBusWidth = 37;
constexpr int kAttrL2Size = 38;
constexpr int kAttrPciDomainId = 50;
constexpr int kAttrComputeMajor = 75;
constexpr int kAttrComputeMinor = 76;

struct Driver {
  void* handle = nullptr;
  CuInit init = nullptr;
  CuDeviceGetCount get_count = nullptr;
  CuDriverGetVersion get_version = nullptr;
  CuDeviceGet get_device = nullptr;
  CuDeviceGetName get_name = nullptr;
  CuDeviceGetAttribute get_attribute = nullptr;
  CuDeviceTotalMem total_mem = nullptr;
  CuDeviceGetUuid get_uuid = nullptr;
  CuGetErrorName error_name = nullptr;

  template <typename F>
  void Load(F& slot, const char* symbol) {
    slot = reinterpret_cast<F>(dlsym(handle, symbol));
  }
};

std::string ErrorName(const Driver& driver, int code) {
  const char* name = nullptr;
  if (driver.error_name != nullptr && driver.error_name(code, &name) == kCudaSuccess && name) {
    return name;
  }
  return "CUresult " + std::to_string(code);
}

ProbedDevice ReadDevice(const Driver& driver, int ordinal) {
  ProbedDevice device;
  device.ordinal = ordinal;
  int handle = 0;
  if (driver.get_device(&handle, ordinal) != kCudaSuccess)
    return device;
  auto attribute = [&](int which) {
    int value = 0;
    return driver.get_attribute(&value, which, handle) == kCudaSuccess ? value : 0;
  };
  char name[256] = {};
  if (driver.get_name != nullptr &&
      driver.get_name(name, sizeof(name) - 1, handle) == kCudaSuccess) {
    device.name = name;
  }
  unsigned char uuid[16] = {};
  if (driver.get_uuid != nullptr && driver.get_uuid(uuid, handle) == kCudaSuccess) {
    device.uuid = model::FormatGpuUuid(uuid);
  }
  std::size_t bytes = 0;
  if (driver.total_mem != nullptr && driver.total_mem(&bytes, handle) == kCudaSuccess) {
    device.memory_bytes = static_cast<std::int64_t>(bytes);
  }
  char bus[32];
  std::snprintf(bus,
                sizeof(bus),
                "%08x:%02x:%02x.0",
                attribute(kAttrPciDomainId),
                attribute(kAttrPciBusId),
                attribute(kAttrPciDeviceId));
  device.pci_bus_id = bus;
  device.compute_major = attribute(kAttrComputeMajor);
  device.compute_minor = attribute(kAttrComputeMinor);
  device.sm_count = attribute(kAttrSmCount);
  device.l2_bytes = attribute(kAttrL2Size);
  device.sm_clock_khz = attribute(kAttrClockRate);
  device.memory_clock_khz = attribute(kAttrMemoryClockRate);
  device.bus_width_bits = attribute(kAttrBusWidth);
  device.peak_bandwidth_bytes_per_s =
      2.0 * static_cast<double>(device.memory_clock_khz) * 1e3 * device.bus_width_bits / 8.0;
  return device;
}

}  // namespace

ProbeResult ProbeCuda() {
  ProbeResult result;
  Driver driver;
  driver.handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (driver.handle == nullptr) {
    const char* why = dlerror();
    result.status = ProbeStatus::kNoDriver;
    result.message = std::string("no CUDA driver found (libcuda.so.1 not loadable: ") +
                     (why != nullptr ? why : "unknown reason") + ")";
    return result;
  }
  // The handle stays open: unloading libcuda after cuInit is not supported.
  driver.Load(driver.init, "cuInit");
  driver.Load(driver.get_count, "cuDeviceGetCount");
  driver.Load(driver.get_version, "cuDriverGetVersion");
  driver.Load(driver.get_device, "cuDeviceGet");
  driver.Load(driver.get_name, "cuDeviceGetName");
  driver.Load(driver.get_attribute, "cuDeviceGetAttribute");
  driver.Load(driver.total_mem, "cuDeviceTotalMem_v2");
  driver.Load(driver.get_uuid, "cuDeviceGetUuid_v2");
  driver.Load(driver.error_name, "cuGetErrorName");
  if (!driver.init || !driver.get_count || !driver.get_version || !driver.get_device ||
      !driver.get_attribute) {
    result.status = ProbeStatus::kDriverError;
    result.message = "libcuda.so.1 lacks cuInit/cuDeviceGetCount/cuDriverGetVersion";
    return result;
  }
  if (driver.get_version(&result.driver_api_version) != kCudaSuccess)
    result.driver_api_version = 0;
  const int init = driver.init(0);
  if (init == kCudaErrorStubLibrary) {
    result.status = ProbeStatus::kStubDriver;
    result.message = "no CUDA driver found (the toolkit's stub libcuda is on the library path)";
    return result;
  }
  if (init == kCudaErrorNoDevice) {
    result.status = ProbeStatus::kNoDevice;
    result.message =
        "no CUDA device visible (cuInit: CUDA_ERROR_NO_DEVICE; check CUDA_VISIBLE_DEVICES)";
    return result;
  }
  if (init != kCudaSuccess) {
    result.status = ProbeStatus::kDriverError;
    result.message =
        "the CUDA driver failed to initialise (cuInit: " + ErrorName(driver, init) + ")";
    return result;
  }
  int count = 0;
  if (driver.get_count(&count) != kCudaSuccess || count == 0) {
    result.status = ProbeStatus::kNoDevice;
    result.message = "no CUDA device visible (cuDeviceGetCount: 0)";
    return result;
  }
  if (result.driver_api_version < kMinDriverApiVersion) {
    result.status = ProbeStatus::kDriverTooOld;
    result.message = "driver too old for CUDA 13 (driver API " +
                     std::to_string(result.driver_api_version) + ", needs " +
                     std::to_string(kMinDriverApiVersion) + " or newer)";
    return result;
  }
  for (int ordinal = 0; ordinal < count; ++ordinal)
    result.devices.push_back(ReadDevice(driver, ordinal));
  result.status = ProbeStatus::kOk;
  return result;
}

}  // namespace gpuperf::record
