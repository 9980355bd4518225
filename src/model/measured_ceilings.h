// Measured ceilings (gpuperf/measured_ceilings.h) against the trace model: GPU UUIDs, which
// measured entry fits a trace device, and the DeviceCeilings the roofline uses for it.
#pragma once

#include "gpuperf/measured_ceilings.h"
#include "gpuperf/trace.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/ceilings.h"

namespace gpuperf::model {

// "GPU-9f8075aa-e02a-0953-1955-32f638fb2993" from the 16 bytes of a CUuuid / cudaUUID_t.
std::string FormatGpuUuid(const std::uint8_t (&bytes)[16]);

// The canonical form of a UUID as tools print it, with or without the "GPU-" prefix (nsys
// writes "9f8075aa-e02a-..."), any case: "GPU-" + 8-4-4-4-12 lower-case hex digits. "" when
// `text` is not one (MIG UUIDs "MIG-..." included).
std::string NormalizeGpuUuid(std::string_view text);

// Which measured entry fits `device`:
//  - the device records a UUID: the entry with the same UUID, nothing else;
//  - it does not: the entries with exactly its name and compute capability; of several, the
//    latest `date` (matched_by says so).
struct MeasuredMatch {
  const MeasuredCeilings* entry = nullptr;
  std::string matched_by;  // "uuid GPU-...", "name and compute capability (...)"; "" if none
};
MeasuredMatch FindMeasuredCeilings(const Device& device, std::span<const MeasuredCeilings> entries);

// Attaches to every device of `trace` its fitting entry (Device::measured_ceilings, with
// matched_by filled). Returns the number of devices that got one.
std::size_t AttachMeasuredCeilings(Trace& trace, std::span<const MeasuredCeilings> entries);

// The measured entry as ceilings the roofline can use: evidence "measured", key the device name
// ("NVIDIA H200"), source "gpuperf ceilings <date> on <uuid>", DRAM bandwidth, FP32 vector and
// BF16/FP16 tensor peaks; every other precision unset (never filled from the datasheet). Its
// boost_clock_hz is the SM clock the compute kernels ran at when they agree within 2% (so that
// counters taken at another clock are rescaled, model::AtSmClock), unset otherwise. The strings
// the entry views live in the returned object.
std::shared_ptr<const DeviceCeilings> AsDeviceCeilings(const MeasuredCeilings& measured);

// The SM clock all compute figures ran at (their mean) when they agree within 2%; nullopt when
// one is unknown or they differ.
std::optional<double> CommonSmClockHz(const MeasuredCeilings& measured);

}  // namespace gpuperf::model
