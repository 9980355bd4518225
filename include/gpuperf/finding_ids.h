// The stable ids of report.json's findings[] (docs/metrics.md, "Findings"): a contract for CI
// jobs that gate on them, so each is declared once here; the rules set them and the diagnosis
// looks findings up by them, never by a literal of its own.
#pragma once

#include <string_view>

namespace gpuperf::report::finding_id {

inline constexpr std::string_view kSyncMemcpy = "sync_memcpy";
inline constexpr std::string_view kPageableAsyncMemcpy = "pageable_async_memcpy";
inline constexpr std::string_view kSyncMemset = "sync_memset";
inline constexpr std::string_view kSyncApi = "sync_api";
inline constexpr std::string_view kGpuGaps = "gpu_gaps";
inline constexpr std::string_view kGpuLowUtilization = "gpu_low_utilization";
inline constexpr std::string_view kLaunchOverhead = "launch_overhead";
inline constexpr std::string_view kGpuIdleDominant = "gpu_idle_dominant";
inline constexpr std::string_view kGemmMisaligned = "gemm_misaligned";
inline constexpr std::string_view kSmallGrid = "small_grid";
inline constexpr std::string_view kHostOsCalls = "host_os_calls";
inline constexpr std::string_view kDeviceAllocChurn = "device_alloc_churn";

}  // namespace gpuperf::report::finding_id
