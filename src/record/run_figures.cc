// ComputeRunFigures (run_figures.h): the per-run counts of baseline.json.
#include "record/run_figures.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "spool/demangle.h"

namespace gpuperf::record {
namespace {

using spool::Event;
using spool::EventKind;

// Peak of (allocated - released) over time, per device, summed over devices. Releases of memory
// allocated before tracing started would go negative; the running value is floored at 0.
std::int64_t PeakDeviceMemory(const std::vector<const Event*>& memory_events) {
  std::vector<const Event*> sorted = memory_events;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Event* a, const Event* b) {
    return a->start_ns < b->start_ns;
  });
  std::map<std::int32_t, std::pair<std::int64_t, std::int64_t>> per_device;  // current, peak
  for (const Event* e : sorted) {
    auto& [current, peak] = per_device[e->device];
    current += e->a == spool::kMemoryRelease ? -e->bytes : e->bytes;
    current = std::max<std::int64_t>(current, 0);
    peak = std::max(peak, current);
  }
  std::int64_t total = 0;
  for (const auto& [device, value] : per_device)
    total += value.second;
  return total;
}

void CountProcess(const io::SpoolContents& p,
                  RunFigures& figures,
                  std::vector<const Event*>& memory) {
  // Graph launches: the recorder traces graphs node by node (GRAPH_TRACE off), so one launch is
  // the set of node records sharing its correlation id; GRAPH_TRACE records count themselves.
  std::set<std::int64_t> graph_correlations;
  std::int64_t graph_records = 0;
  for (const Event& e : p.events) {
    const bool graph_node = (e.kind == EventKind::kKernel || e.kind == EventKind::kMemcpy ||
                             e.kind == EventKind::kMemset) &&
                            e.graph_id >= 0;
    if (graph_node)
      graph_correlations.insert(e.correlation);
    switch (e.kind) {
      case EventKind::kKernel:
        ++figures.kernels;
        figures.kernel_time_ns += e.end_ns - e.start_ns;
        figures.kernel_total_ns[spool::Demangle(p.String(e.name))] += e.end_ns - e.start_ns;
        break;
      case EventKind::kMemcpy:
        ++figures.memcpys;
        figures.memcpy_bytes += e.bytes;
        break;
      case EventKind::kMemset:
        ++figures.memsets;
        break;
      case EventKind::kRuntimeApi:
      case EventKind::kDriverApi:
        ++figures.api_calls;
        break;
      case EventKind::kSync:
        ++figures.syncs;
        break;
      case EventKind::kGraphLaunch:
        ++graph_records;
        break;
      case EventKind::kOverhead:
        figures.cupti_overhead_ns += e.end_ns - e.start_ns;
        break;
      case EventKind::kMarker:
        break;
      case EventKind::kMemory:
        // Device memory only: host allocations (device -1) are not "peak device memory".
        if (e.device < 0)
          break;
        if (e.a == spool::kMemoryRelease) {
          ++figures.frees;
        } else {
          ++figures.allocations;
        }
        memory.push_back(&e);
        break;
    }
  }
  figures.graph_launches +=
      graph_records > 0 ? graph_records : static_cast<std::int64_t>(graph_correlations.size());
}

}  // namespace

RunFigures ComputeRunFigures(const std::vector<io::SpoolContents>& processes) {
  RunFigures figures;
  figures.processes = static_cast<std::int64_t>(processes.size());
  std::vector<const Event*> memory;
  for (const io::SpoolContents& p : processes) {
    CountProcess(p, figures, memory);
    const std::string who = "process " + std::to_string(p.header.pid);
    if (p.has_footer) {
      figures.dropped_records += static_cast<std::int64_t>(p.footer.dropped_records);
      figures.incomplete_records += p.footer.incomplete_records;
      if (p.footer.incomplete_records > 0) {
        figures.problems.push_back(who + ": " + std::to_string(p.footer.incomplete_records) +
                                   " CUPTI record(s) without timestamps or incomplete, left out");
      }
      figures.cuda_runtime_version =
          std::max(figures.cuda_runtime_version, p.footer.cuda_runtime_version);
      if (p.footer.reason == static_cast<std::int32_t>(spool::EndReason::kSignal)) {
        figures.problems.push_back(who + " was stopped by signal " +
                                   std::to_string(p.footer.signal) +
                                   "; records up to then were flushed");
        figures.complete = false;
      }
    } else {
      figures.complete = false;
      figures.problems.push_back(who +
                                 " ended without the recorder's exit handler (killed, _exit or "
                                 "crash): records after the last completed buffer are lost");
    }
    if (p.truncated_bytes > 0) {
      figures.complete = false;
      figures.problems.push_back(who + ": last " + std::to_string(p.truncated_bytes) +
                                 " bytes of the recording were cut short and not read");
    }
    for (const io::SpoolStatus& status : p.statuses) {
      if (status.level == spool::StatusLevel::kError) {
        figures.complete = false;
        figures.problems.push_back(who + ": " + status.message);
      }
    }
  }
  figures.peak_device_memory_bytes = PeakDeviceMemory(memory);
  return figures;
}

}  // namespace gpuperf::record
