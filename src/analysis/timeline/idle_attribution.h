// What the host was doing while the GPU was idle (docs/metrics.md, "Diagnosis"): the triage's
// first question after "is the GPU idle?" is whether the idle time is host-, launch- or
// sync-bound, and the trace's host API calls answer it.
#pragma once

#include "gpuperf/trace.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "analysis/core/correlation.h"
#include "analysis/timeline/critical_time.h"
#include "analysis/timeline/run_forward.h"
#include "analysis/timeline/step_windows.h"
#include "analysis/timeline/timeline.h"
#include "util/intervals.h"

namespace gpuperf::analysis {

// Idle time of the recorded window (all devices together: no GPU work anywhere), including the
// stretches before the first and after the last GPU activity, split by cause.
// Each idle stretch ("gap") is either drained by a synchronization (a host-blocking sync call,
// synchronous copy or memset, or a host-blocking sync record overlaps it, and at most 100 us or
// half of it is covered by no API call: the cost is the round trip back to the GPU) or split by
// what covers it: launch calls, other CUDA API calls, or nothing the trace records (the host was
// busy elsewhere; after a synchronization, host work that the synchronization exposed).
// Time inside one-time work (initialization.h) is left out: `excluded_ns` of it was idle. A
// blocking call of at least kCoverageWaitNs during which the GPU ran nothing (nothing running,
// nothing queued that started) waited for work the trace does not record: its whole gap is a
// coverage gap, not a synchronization's cost. Implicit synchronizations (async copies with a
// pageable host side, which block the host) count as synchronizations.
// Before any of that, a gap is cut where the GPU got work: from the end of the launch call of the
// first GPU work that ran after the gap (the earliest such call), the work was queued and the GPU
// still idled, waiting on a device-side dependency (an event recorded on another stream, a
// collective): `queued_ns`, when it was queued from the gap's start or for longer than 100 us
// (a launch's latency stays part of the round trip). Only the part before it, when nothing was
// queued, can the host have caused. With `index` null every gap counts as not queued.
struct IdleAttribution {
  std::int64_t window_ns = 0;  // the recorded window (critical_time.h's TraceWindow)
  // window_ns less the one-time work on the critical path: its intervals where the GPU idled
  std::int64_t steady_window_ns = 0;
  std::int64_t excluded_ns = 0;               // idle time inside one-time work, not attributed
  std::vector<util::Interval> excluded_gaps;  // where that idle lies (sorted, disjoint)
  std::int64_t coverage_gap_ns = 0;           // idle gaps holding a wait for unrecorded work
  std::int64_t coverage_gaps = 0;
  // Before the first GPU activity, the part after its work was launched (queued for longer than
  // 1 ms): nothing recorded ran, yet the work waited, so the GPU ran work launched before
  // the recording or the host and GPU clocks differ. Unobserved, not idle: left out of the idle
  // and of the steady-state window (steady_window_ns), like one-time work.
  std::int64_t unobserved_lead_ns = 0;
  // In a trace of two or more steps, after the last GPU activity and the last step's end, the
  // stretches where the trace records nothing (no GPU work, API call, op, range, frame or OS
  // call), over 1 ms in all: outside the measured steps (untraced code after the loop, the
  // profiler taking its time to stop). Nothing later waited for the GPU there: left out like the
  // lead. A single-shot trace keeps its unrecorded tail as idle (its own post-processing).
  std::int64_t unobserved_tail_ns = 0;
  std::int64_t idle_ns = 0;
  std::int64_t edge_ns = 0;  // of idle_ns: before the first and after the last GPU activity
  std::int64_t lead_ns = 0;  // of edge_ns: before the first GPU activity
  // Of edge_ns: the gaps attributed to the host (host work, launch and other API calls), not to
  // a synchronization's round trip or queued work (sorted, disjoint).
  std::vector<util::Interval> edge_host_gaps;
  std::int64_t gaps = 0;
  std::int64_t sync_ns = 0;  // in gaps a synchronization overlaps
  std::int64_t sync_gaps = 0;
  std::int64_t sync_exposed_gaps = 0;  // overlap a synchronization but hold long host work
  std::int64_t launch_ns = 0;          // other gaps: covered by kernel or graph launch calls
  std::int64_t other_api_ns = 0;       // other gaps: covered by other API calls only
  std::int64_t host_ns = 0;            // other gaps: covered by no recorded API call
  // Idle while the next GPU work had already been launched (queued): no host call causes it.
  std::int64_t queued_ns = 0;
  std::int64_t queued_gaps = 0;  // gaps with a queued part
  // Of queued_ns: inside one CUDA/HIP graph launch (between its nodes) or in the idle stretch that
  // ends at its first node after it was launched: the graph waited (event-wait or host nodes,
  // nodes the trace does not record, a dependency ahead of it in the stream).
  std::int64_t queued_in_graphs_ns = 0;
  std::vector<util::Interval> queued_in_graphs_at;  // sorted, disjoint: queued_in_graphs_ns
  std::int64_t stream_waits = 0;   // cudaStreamWaitEvent-style calls: cross-stream dependencies
  std::int64_t last_busy_end = 0;  // after it the GPU has no work left for a wait to delay
  // Of host_ns: inside recorded host work (host ops, NVTX and record_function ranges shorter
  // than half the window, OS runtime calls of the launching threads), and the names that cover
  // most of it, with the time they cover.
  std::int64_t host_work_ns = 0;
  // Of host_work_ns: the self time of Python frames with no framework operator or CUDA call
  // inside (decoding, numpy, tokenizers) and OS runtime calls (file writes, polling): host work
  // that graphs and fewer launches do not touch.
  std::int64_t host_other_ns = 0;
  // Of host_work_ns: inside a data loader's fetch (PyTorch's "enumerate(DataLoader)#...__next__"
  // range or frame, their union): the input pipeline, which graphs do not touch either; and
  // whether that loader hands batches over from worker processes (it waits on them).
  std::int64_t loader_ns = 0;
  bool loader_multiprocess = false;
  // The worker-process fetches that waited for their batch (ten times the shortest that unpacked
  // one), sorted and disjoint: a host that arrives sooner waits longer there (RunForward).
  std::vector<util::Interval> loader_waits;
  // Of loader_ns: inside the first worker fetch when it waited at least twice as long as any
  // later one: the workers' start-up and first batches, paid once per iterator (per epoch unless
  // persistent_workers=True).
  std::int64_t loader_start_up_ns = 0;
  std::vector<std::pair<std::string, std::int64_t>> top_host_work;
  // Of host_work_ns: inside blocking MPI calls (IsBlockingMpiCall, their union): the host waits
  // for another rank there, which a faster host does not shorten.
  std::int64_t host_comm_ns = 0;
  // Of host_work_ns: inside OS runtime calls of the launching threads (their union), how many
  // calls, and the names that cover most (nsys OSRT: write, ioctl, poll).
  std::int64_t os_call_ns = 0;
  std::int64_t os_calls_in_gaps = 0;
  std::vector<std::pair<std::string, std::int64_t>> top_os_calls;
  // Of host_ns less host_work_ns: an estimate from CPU samples of the launching threads (nsys
  // sampling), each counted as its thread's sampling interval; the functions that hold most.
  std::int64_t sampled_host_ns = 0;
  std::int64_t sampled_host_samples = 0;
  std::int64_t sample_interval_ns = 0;  // the median weight of those samples
  // Of sampled_host_ns: in functions outside the CUDA libraries (the program's own code, MPI,
  // libc): host work that graphs and fewer launches do not touch.
  std::int64_t sampled_other_ns = 0;
  // The functions with the most sampled time; those of the profiler's own libraries say so.
  std::vector<std::pair<std::string, std::int64_t>> top_sampled_host;
  bool has_api_calls = false;  // without them only idle_ns is known
  bool has_host_work_records = false;
  // The gaps by attribution, sorted and disjoint: drained by a synchronization (round trips),
  // and the others (host, launch, API time, synchronization-exposed host work).
  std::vector<util::Interval> round_trip_gaps;
  std::vector<util::Interval> other_gaps;
  // The queued parts of the gaps (queued_ns), sorted and disjoint.
  std::vector<util::Interval> queued_gaps_at;

  // Without a wait the host goes on sooner, and so does the GPU work it launches where the GPU
  // waited for it: set by the analysis (analyze.cc) from the host's waits and the gaps above;
  // until then not ready, and only the idle next to the waits counts (AdjacentIdle).
  RunForward run_forward;

  // GPU idle caused by a set of waits (host intervals blocked on the GPU), next to them: of every
  // gap a wait overlaps, the part from the first such wait's start on, and at most the length of
  // the waits overlapping it (without the waits the host work there would have started that much
  // earlier: a round trip followed by host work shrinks by the wait, not by the round trip).
  // Queued idle is not in these gaps, nor is idle after the last GPU work: no later work was
  // there to be delayed. `data_waits` are waits for data the host then reads (device-to-host
  // copies): without the wait the host work after it could not start earlier, so of a gap that
  // is not a round trip they are credited only the part they overlap, not their length.
  std::int64_t AdjacentIdle(std::vector<util::Interval> waits,
                            std::vector<util::Interval> data_waits = {}) const;
  // The idle next to the waits, and all they cause: the larger of that and the run-forward gain
  // of `waits` (RunForward: later host-paced idle the waits delay; data waits do not run forward,
  // the host needs their data). A finding's gpu_idle_later_ns is caused_ns - adjacent_ns.
  struct WaitIdle {
    std::int64_t adjacent_ns = 0;
    std::int64_t caused_ns = 0;
  };
  WaitIdle CausedSplit(std::vector<util::Interval> waits,
                       std::vector<util::Interval> data_waits = {}) const;
  std::int64_t CausedBy(std::vector<util::Interval> waits,
                        std::vector<util::Interval> data_waits = {}) const {
    return CausedSplit(std::move(waits), std::move(data_waits)).caused_ns;
  }
  // Queued idle inside a set of waits: idle they overlap that no host call caused.
  std::int64_t QueuedDuring(std::vector<util::Interval> waits) const;
};

inline constexpr std::int64_t kCoverageWaitNs = 1'000'000;
// Fewer CPU samples than this in the gaps name nothing: each stands for a whole sampling interval.
inline constexpr std::int64_t kMinHostSamples = 30;

// `steps`: the window's steps (FindWindowSteps: --step-range when given), which bound the
// unobserved tail; null: DefaultSteps.
IdleAttribution AttributeIdle(const model::Trace& trace,
                              const ActivityList& activities,
                              const TraceWindow& window,
                              const std::vector<std::size_t>& implicit_sync_calls = {},
                              const std::vector<util::Interval>& excluded = {},
                              const CorrelationIndex* index = nullptr,
                              const std::vector<StepWindow>* steps = nullptr);

// Sets idle.run_forward from the host's waits (HostWaits::merged), the gaps with no work queued
// (round trips and the others), the steady-state window's end and the GPU's last work's end.
void AttachRunForward(const model::Trace& trace,
                      const std::vector<util::Interval>& host_waits,
                      IdleAttribution& idle);

// Everything the host is recorded doing inside `within`: API calls, framework ops, host ranges
// (except those longer than `enclosing`, which wrap the whole run and say nothing), Python frames
// and OS runtime calls, merged and clipped.
std::vector<util::Interval> RecordedHostWork(const model::Trace& trace,
                                             util::Interval within,
                                             std::int64_t enclosing);

// Async copy calls (cudaMemcpyAsync ...) whose copy has a pageable host side: the runtime stages
// them synchronously, so they block the host like a synchronization. Indices into api_calls.
std::vector<std::size_t> ImplicitSyncCalls(const model::Trace& trace,
                                           const CorrelationIndex& index);

}  // namespace gpuperf::analysis
