// The terminal table of `gpuperf ceilings`: one measured entry beside the datasheet entry of
// its GPU (when gpuperf knows it) and the measured / datasheet ratio.
#pragma once

#include "gpuperf/measured_ceilings.h"

#include <string>

namespace gpuperf::cli {

// Example:
//   NVIDIA H200  GPU-9f8075aa-e02a-0953-1955-32f638fb2993  cc 9.0  132 SMs
//   measured 2026-12-01T11:36:05Z by gpuperf 0.1.0, CUDA runtime 13.0, driver 13.0
//   ceiling          measured       SM clock   datasheet H200   measured/datasheet
//   DRAM bandwidth   4.21 TB/s      -          4.80 TB/s        87.7%
//   ...
//   file: /home/u/.cache/gpuperf/ceilings/GPU-9f8075aa-....json
std::string CeilingsTable(const model::MeasuredCeilings& measured);

}  // namespace gpuperf::cli
