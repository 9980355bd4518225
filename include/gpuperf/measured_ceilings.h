// Ceilings measured on one GPU by `gpuperf ceilings` (kernels/ceilings_probe.cu): sustainable
// DRAM bandwidth, FP32 FMA rate and wmma bf16/fp16 tensor rates, with the facts of the device
// and the clocks they ran at. Part of the trace model: `analyze --ceilings` attaches the entry
// that fits a device to model::Device::measured_ceilings (model/measured_ceilings.h), and the
// roofline prefers it over the datasheet (docs/metrics.md, "Measured ceilings").
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gpuperf::model {

// One measured figure: the best of `reps` launches.
struct MeasuredFigure {
  double per_s = 0;                   // bytes/s (dram) or FLOP/s; > 0 and finite when valid
  double work_per_launch = 0;         // bytes or FLOPs of one launch
  double best_ms = 0;                 // the shortest launch
  double median_ms = 0;               // the median launch
  std::int32_t reps = 0;              // timed launches
  std::optional<double> sm_clock_hz;  // SM clock during the kernel (clock64 / %globaltimer)
};

struct MeasuredCeilings {
  // The device, as the probe read it (cudaDeviceProp / cudaDeviceGetAttribute).
  std::string device_name;  // "NVIDIA H200"
  std::string uuid;         // "GPU-9f8075aa-e02a-0953-1955-32f638fb2993", lower case
  std::int32_t ordinal = 0;
  std::int32_t compute_major = 0;
  std::int32_t compute_minor = 0;
  std::int32_t sm_count = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t memory_bytes = 0;
  double max_sm_clock_hz = 0;  // cudaDevAttrClockRate: the maximum, not the clock of the run
  std::int32_t cuda_runtime_version = 0;  // 13000 = CUDA 13.0
  std::int32_t cuda_driver_version = 0;

  MeasuredFigure dram;         // read + write bytes of a float4 copy
  MeasuredFigure fp32_vector;  // FMA chains on the CUDA cores
  MeasuredFigure bf16_tensor;  // wmma 16x16x16, FP32 accumulate
  MeasuredFigure fp16_tensor;  // wmma 16x16x16, FP32 accumulate
  std::string method;          // the probe's one-paragraph description

  // Of the measurement (the cache file), not of the probe.
  std::string date;             // UTC ISO 8601: "2026-12-01T11:36:05Z"
  std::string gpuperf_version;  // of the gpuperf that ran the probe
  std::string path;             // the cache file it was read from; "" when not read from one

  // Filled when attached to a trace device: how the entry was chosen ("uuid", or "name and
  // compute capability" when the trace records no UUID).
  std::string matched_by;
};

}  // namespace gpuperf::model
