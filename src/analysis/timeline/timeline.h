// Where GPU time goes: span, busy (union over all streams), idle, and the computation /
// communication / memcpy split with exposed parts (TraceLens gpu_timeline definitions).
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/core/correlation.h"

namespace gpuperf::analysis {

using ActivityList = std::vector<const model::GpuActivity*>;

struct ActivitySelection {
  bool launched_only = false;          // TraceLens: drop activities without a launch call
  std::optional<std::int32_t> device;  // one device, or all
};

ActivityList SelectActivities(const model::Trace& trace,
                              const CorrelationIndex& index,
                              const ActivitySelection& selection);

// Which kernels are communication: every collective (IsCommunicationKernel), or TraceLens' NCCL
// and RCCL names only (IsNcclKernel), for the timeline compared with TraceLens.
enum class CommunicationKernels { kCollectives, kNcclOnly };

// All quantities of report::Timeline over `activities`; all zero when the list is empty.
// Zero-duration activities count as activities and extend the span but add no busy time.
report::Timeline ComputeTimeline(
    const model::Trace& trace,
    const ActivityList& activities,
    CommunicationKernels communication = CommunicationKernels::kCollectives);

// One entry per device that has activities in `activities`, ascending by device id.
std::vector<report::DeviceTimeline> DeviceTimelines(const model::Trace& trace,
                                                    const ActivityList& activities);

}  // namespace gpuperf::analysis
