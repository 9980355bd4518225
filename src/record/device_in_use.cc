#include "record/device_in_use.h"

namespace gpuperf::record {

DeviceInUse SelectDeviceInUse(std::size_t visible_devices, const spool::JobInfo& job) {
  const std::string count = std::to_string(visible_devices);
  if (visible_devices == 0)
    return {-1, "not available (GPU check skipped)"};
  if (visible_devices == 1)
    return {0, "the only device visible to the program"};
  if (job.local_rank >= 0 && static_cast<std::size_t>(job.local_rank) < visible_devices) {
    return {static_cast<int>(job.local_rank),
            "local rank " + std::to_string(job.local_rank) + " of " + count +
                " visible devices (the cudaSetDevice(LOCAL_RANK) convention; the program may "
                "choose another)"};
  }
  if (job.local_rank >= 0) {
    return {-1,
            "unknown: local rank " + std::to_string(job.local_rank) + " but only " + count +
                " devices visible"};
  }
  return {0,
          "device 0, CUDA's default, of " + count +
              " visible devices (the program may choose another)"};
}

}  // namespace gpuperf::record
