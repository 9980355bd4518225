// Which of the visible GPUs a rank's program uses, for baseline.json `hardware.device_in_use`.
// gpuperf cannot see inside the program; it records the device the launcher's setup implies and
// says how it decided.
#pragma once

#include "gpuperf/baseline.h"

#include <cstddef>
#include <string>

#include "spool/job_environment.h"

namespace gpuperf::record {

using baseline::DeviceInUse;

// One visible device (the launcher narrowed CUDA_VISIBLE_DEVICES per rank): that one. Several:
// the job's local rank when it is below their count (the cudaSetDevice(LOCAL_RANK) convention of
// torchrun and most MPI programs), unknown when it is not, device 0 (CUDA's default) without a
// rank. None (the GPU check was skipped): unknown.
DeviceInUse SelectDeviceInUse(std::size_t visible_devices, const spool::JobInfo& job);

}  // namespace gpuperf::record
