#include "analysis/timeline/audit.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <vector>

#include "analysis/core/names.h"

namespace gpuperf::analysis {
namespace {

void CountActivities(const model::Trace& trace, report::Audit& audit) {
  std::set<model::NameId> names;
  for (const model::GpuActivity& a : trace.activities) {
    switch (a.kind) {
      case model::ActivityKind::kKernel:
        ++audit.kernel_launches;
        names.insert(a.name);
        break;
      case model::ActivityKind::kMemset:
        ++audit.memsets;
        break;
      case model::ActivityKind::kMemcpy:
        if (a.copy_kind == model::CopyKind::kHtoD) {
          ++audit.memcpy_htod;
        } else if (a.copy_kind == model::CopyKind::kDtoH) {
          ++audit.memcpy_dtoh;
        } else if (a.copy_kind == model::CopyKind::kDtoD) {
          ++audit.memcpy_dtod;
        } else {
          ++audit.memcpy_other;
        }
        break;
    }
  }
  audit.distinct_kernels = static_cast<std::int64_t>(names.size());
}

// correlation -> pids of the blocking sync calls counted.
using SyncCalls = std::unordered_map<std::int64_t, std::vector<std::int64_t>>;

SyncCalls CountApiCalls(const model::Trace& trace,
                        const CorrelationIndex& index,
                        report::Audit& audit) {
  SyncCalls sync_keys;
  CachedNamePredicate is_launch(trace, IsLaunchApi);
  CachedNamePredicate is_graph_launch(trace, IsGraphLaunchApi);
  CachedNamePredicate is_blocking_sync(trace, IsBlockingSyncApi);
  for (std::size_t i = 0; i < trace.api_calls.size(); ++i) {
    if (!index.IsPrimary(i))
      continue;
    const model::ApiCall& call = trace.api_calls[i];
    if (is_launch(call.name))
      ++audit.launch_calls;
    if (is_graph_launch(call.name))
      ++audit.graph_launches;
    if (is_blocking_sync(call.name)) {
      ++audit.synchronizations;
      if (call.correlation != model::kNoId)
        sync_keys[call.correlation].push_back(call.pid);
    }
  }
  return sync_keys;
}

void CountAllocations(const model::Trace& trace,
                      const CorrelationIndex& index,
                      report::Audit& audit) {
  bool device_events = false;
  for (const model::MemoryEvent& e : trace.memory_events) {
    if (e.device < 0)
      continue;
    device_events = true;
    ++(e.op == model::MemoryOp::kAllocate ? audit.allocations : audit.frees);
    if (e.total_allocated != model::kNoId) {
      audit.peak_allocated_bytes = std::max(audit.peak_allocated_bytes, e.total_allocated);
    }
  }
  if (device_events)
    return;
  CachedNamePredicate is_alloc(trace, IsDeviceAllocApi);
  CachedNamePredicate is_free(trace, IsDeviceFreeApi);
  for (std::size_t i = 0; i < trace.api_calls.size(); ++i) {
    if (!index.IsPrimary(i))
      continue;
    model::NameId name = trace.api_calls[i].name;
    if (is_alloc(name))
      ++audit.allocations;
    if (is_free(name))
      ++audit.frees;
  }
}

}  // namespace

bool IsHostBlockingSync(model::SyncKind kind) {
  return kind == model::SyncKind::kEvent || kind == model::SyncKind::kStream ||
         kind == model::SyncKind::kContext;
}

report::Audit ComputeAudit(const model::Trace& trace, const CorrelationIndex& index) {
  report::Audit audit;
  CountActivities(trace, audit);
  auto sync_keys = CountApiCalls(trace, index, audit);
  for (const model::SyncEvent& s : trace.syncs) {
    if (!IsHostBlockingSync(s.kind))
      continue;
    auto it = sync_keys.find(s.correlation);
    bool has_call = it != sync_keys.end() &&
                    std::any_of(it->second.begin(), it->second.end(), [&](std::int64_t pid) {
                      return pid == s.pid || pid == model::kNoId || s.pid == model::kNoId;
                    });
    if (!has_call)
      ++audit.synchronizations;
  }
  CountAllocations(trace, index, audit);
  return audit;
}

}  // namespace gpuperf::analysis
