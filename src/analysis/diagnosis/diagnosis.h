// The bottleneck statement (docs/method.md, "The bottleneck statement"; docs/metrics.md,
// "Diagnosis"): target metric and scope, baseline, dominant phase or kernel, the application's
// bottleneck class reached in the triage order of docs/method.md ("Triage order": GPU idle ->
// host, launch or sync; transfer; communication; else the dominant kernel's roofline class), ONE
// next experiment and the measurement that would falsify it. A class without confirming evidence
// is a "hypothesis" that names the measurement that would test it, never a finding.
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <optional>
#include <string>

#include "analysis/core/correlation.h"
#include "analysis/kernel/device_roofs.h"
#include "analysis/timeline/blocked_launches.h"
#include "analysis/timeline/idle_attribution.h"

namespace gpuperf::analysis {

// A bucket of the GPU span holds at least this share to dominate the triage.
inline constexpr double kDominantShare = 0.5;

// Needs every other part of `report` (timeline, kernels with their classes, findings,
// predictions, audit) computed first.
// `queue` (launch_overhead.h's LaunchQueueDepth) decides GPU- versus host-bound when idle time
// is the largest share but not the majority; one-time work (report.initialization) holding at
// least kDominantShare of the window is the diagnosis itself. `roofs`: the devices' ceilings
// analyze.cc resolved, for the levers and the pinned-copy bound.
report::Diagnosis Diagnose(const model::Trace& trace,
                           const DeviceRoofsTable& roofs,
                           const CorrelationIndex& index,
                           const report::AnalysisReport& report,
                           const IdleAttribution& idle,
                           std::optional<report::LaunchQueue> queue = std::nullopt,
                           const std::vector<BlockedLaunch>* blocked = nullptr);

// Sets the copy findings' pinned_saving_ns (sync_memcpy, pageable_async_memcpy): what pinned
// host buffers would take off the steady window's pageable copies of 1 MiB or more at the host
// link's datasheet peak, which their wait bound leaves out (material_copies.cc). Needs the
// report's predictions and initialization (the steady span).
// `window`: the trace window analyze.cc computed (not scanned again).
void AttachPinnedSavings(const model::Trace& trace,
                         const DeviceRoofsTable& roofs,
                         const TraceWindow& window,
                         report::AnalysisReport& report);

// What a GPU-side change can give back in a window whose idle time the host sets (the GPU
// phase of an idle-dominated window). The host's timeline is the wall: a faster GPU shortens it
// only where the host waits for the GPU's kernels, so on today's timeline the gain is at most
// those waits (synchronizations and copies while kernels ran, launches blocked on a full queue,
// summed over threads, plus the kernels after the host's last call). Once
// the idle phase's fix succeeds, the window falls toward the GPU's busy time.
struct HostWaitCap {
  std::int64_t waits_ns = 0;
  std::int64_t wall_ns = 0;      // the steady-state window
  std::int64_t gpu_busy_ns = 0;  // the GPU's busy time in it
  // The recorded host work in the gaps (IdleAttribution::host_work_ns): overlapped rather than
  // removed, it sets the window where it outlasts the GPU.
  std::int64_t host_work_ns = 0;
  // Of host_work_ns: before the first GPU work, which nothing can overlap (ExperimentContext's
  // lead_ns): the overlapped window is this plus the longer of the rest and the GPU's part.
  std::int64_t lead_ns = 0;
  // Beside an idle phase (the GPU half of a host-bound window); false: a GPU-bound window whose
  // host is close behind, where only changes that keep the launch count are held to the waits
  // (KeepsLaunchCount): fewer launches cut the host's own time too.
  bool beside_idle_phase = true;
  // A change saving `saved_ns` of GPU time gives back more than the waits allow.
  bool Binds(std::int64_t saved_ns) const { return wall_ns > 0 && saved_ns > waits_ns; }
};

// The next experiment, its falsifying measurement and (for a hypothesis) the missing evidence of
// a bottleneck class (diagnosis_experiments.cc). `subject` names the kernel, sync call or copy
// kind the class is about; `diagnosis` holds the class, status and evidence already.
// The least time this rank's collectives waited for other ranks: each call's time beyond its
// message (as its marker records it) at 1 GB/s plus 100 us, slower than any link between GPUs,
// summed; and the call waiting longest, said ("the longest, SendRecv of 24.6 kB
// (nccl:all_to_all) in ## alltoall_fwd_single ## taking 2.15 ms (...)"). 0 and "" without
// collectives whose message is recorded (collective_sites.cc).
struct PeerWait {
  std::int64_t ns = 0;
  std::string evidence;
};

// The collectives grouped by call site, read once (CollectiveEvidenceOf): the wait text, the time
// above the spreading sites' fastest calls, and this rank's least wait for the others.
struct CollectiveEvidence {
  std::string wait_text;
  std::int64_t excess_ns = 0;  // above the spreading sites' fastest calls (with the wait text)
  PeerWait peer_wait;
};

// What the advice depends on beyond the class.
struct ExperimentContext {
  // The analysis' launches blocked in a deep queue (blocked_launches.h), computed once; null
  // where a caller has none (tests), and the users compute them.
  const std::vector<BlockedLaunch>* blocked_launches = nullptr;
  // The steady window's span (SteadySpan), computed once per diagnosis: each computation is a
  // pass over the whole trace.
  util::Interval steady_span{};
  bool amd = false;              // name the ROCm tools (rocprofv3, rocprof-compute), not NVIDIA's
  bool pytorch = false;          // a PyTorch profiler trace (IsPyTorchTrace): name its options
  bool shapes_recorded = false;  // its operators carry input shapes: never ask for them
  bool vllm = false;             // vLLM's operators (vllm::...): its own graph capture is the knob
  bool training = false;  // an optimizer step or autograd's backward in the trace: a training step
  bool graphs = false;    // most kernels run through graph launches, or the program captures
                          // graphs: never advise graphs
  bool implicit_sync = false;  // the sync is an async copy with a pageable host side
  bool ranks = false;          // the trace is one rank of a job: other ranks can be compared
  bool collectives = false;    // the window holds communication kernels
  CollectiveEvidence collective_evidence;  // CollectiveEvidenceOf, once per diagnosis
  std::int64_t stream_waits = 0;           // cross-stream waits (cudaStreamWaitEvent) in the trace
  // Dependency-bound: the queued idle, and the part of it inside graph launches.
  std::int64_t queued_ns = 0;
  std::int64_t queued_in_graphs_ns = 0;
  std::string queued_focus;  // the GPU work ending most long queued stretches (may be empty)
  // Over half of the queued idle lies in graph launches while the host was blocked waiting for
  // the GPU: no recorded work could end it, so tracing the graphs' nodes comes first (0: not so).
  std::int64_t graph_gaps_unexplained_ns = 0;
  // Host-bound: most recorded host work in the gaps lies outside framework operators (Python
  // preprocessing, data loading), which graphs and launch batching do not remove; its top names.
  bool host_outside_ops = false;
  // The trace names PyTorch's single-process DataLoader iterator (num_workers=0), and the code
  // that iterates it (LoaderOwner: where num_workers is set), "" when unknown.
  bool single_process_loader = false;
  std::string loader_owner;
  // Of the idle the host work fills, the part inside repeated runs of one input
  // (HostWorkInRepeats): the input check removes it before any host lever.
  std::int64_t host_in_repeats_ns = 0;
  // Gradients zeroed with kernels each step (ZeroGradWork): its sentence, "" when none.
  std::string zero_grad;
  // The data loader's fetch in the gaps, and whether it waits on worker processes.
  std::int64_t loader_ns = 0;
  std::int64_t loader_start_up_ns = 0;  // of it, the first fetch's wait for the workers' start
  bool loader_multiprocess = false;
  std::string host_work_names;
  // The functions CPU samples find in the gaps no recorded host work covers, and whether the
  // input holds CPU samples at all (then they are never asked for).
  std::string host_sampled_names;
  bool cpu_samples = false;
  // That host work's time in the gaps and the steady window: overlapping it with the GPU bounds
  // the wall at max(it, the rest), below removing it.
  std::int64_t host_work_ns = 0;
  std::int64_t window_ns = 0;
  // Of the gaps, what the named recorded host work covers with everything it calls
  // (NamedHostWorkIn); 0 when a sampled function is among the names.
  std::int64_t named_host_work_ns = 0;
  // Of it, the idle before the first GPU activity: the first input's preparation, which no
  // pipeline overlaps with GPU work.
  std::int64_t lead_ns = 0;
  // The dominant kernel (kernel-level classes only). Its counters show cache traffic without
  // on-chip reuse (cache_reuse.h): that sentence, else "".
  std::string no_reuse;
  bool matrix_shaped = false;  // GEMM-, convolution- or attention-shaped by name
  // The fewest waves its largest grid takes (kernel_class.h, MinWaves): from kManyWaves on, a
  // larger grid is never the lever.
  std::optional<double> min_waves;
  // Its class rests on its grid (kernel_class.h, GridUnderfills): most SMs hold no block, so the
  // lever is a larger grid, not the kernel's code.
  bool grid_underfills = false;
  // The local speedup its roofline floor allows when the diagnosis bound rests on it (Amdahl at
  // the floor, not at zero time).
  std::optional<double> roof_local_speedup;
  // An FP32 GEMM-shaped kernel on a GPU with TF32 tensor cores: the local speedup at the TF32
  // tensor roof, which the advised library GEMM with TF32 reaches beyond the FP32 floor.
  std::optional<double> tensor_local_speedup;
  // A flat profile: no kernel of unknown class dominates, so the experiment measures the top
  // kernels together (their count and readable names), not the first of many alike.
  std::size_t flat_kernels = 0;
  std::string flat_names;
  double flat_fraction = 0;  // their summed critical time over the steady-state window
  bool flat_peers = false;   // not flat: runners-up hold nearly as much as the top kernel
  // Flat by name, but the kernels are one routine's lambdas (LambdaRoutine): its name.
  std::string flat_routine;
  // Measured compute- or memory-bound with close runners-up of the same class
  // (WidenToClassPeers): how many kernels the statement covers (their names in flat_names) and
  // their summed f; 0 otherwise.
  std::size_t class_peers = 0;
  double class_peer_fraction = 0;
  // Their bound at half their floors: FP8's tensor roof, twice the BF16/FP16 one (datasheets).
  std::optional<double> class_peer_half_floor_bound;
  // When their floors leave under 1.05x: the share of the window outside them and the next
  // kernels by critical time ("47.9% of the window lies outside them: ..."), else "".
  std::string class_peer_rest;
  // The dominant kernel's measured roof (precision, unit) and whether its GPU has FP8 tensor
  // cores (compute capability 8.9 and later): the compute-bound advice names the next precision.
  std::string roof_precision;
  std::string roof_unit;
  bool fp8_tensor_cores = false;
  // Host-blocking synchronizations in the window and the steps they recur in: a graph cannot
  // hold a host wait, so a step that synchronizes is captured only between them.
  std::int64_t blocking_syncs = 0;
  // Of the blocking sync calls, those inside a copy operator (aten::copy_, aten::to) that copies
  // to the device (a copy from pageable host memory waits) or to the host (the host reads the
  // data), a scalar read (.item()) or an operator whose output size depends on the data
  // (nonzero, masked_select, unique): SyncCallersOf.
  struct SyncCallers {
    std::int64_t calls = 0;
    std::int64_t copies_to_device = 0;
    std::int64_t copies_to_host = 0;
    std::int64_t scalar_reads = 0;
    std::int64_t data_dependent = 0;
    // The copy operators to the device, in the steady window: the host time their copy and sync
    // calls block, the GPU idle those calls cause (IdleAttribution::CausedBy) and their copies'
    // time no kernel overlaps: together what pinned, prefetched copies give back at most.
    std::int64_t to_device_host_ns = 0;
    std::int64_t to_device_idle_ns = 0;  // next to the waits (IdleAttribution::AdjacentIdle)
    // All the waits cause, carried forward where the GPU waits for the host (CausedBy).
    std::int64_t to_device_caused_ns = 0;
    std::int64_t to_device_exposed_copy_ns = 0;  // their copies' time no kernel overlaps
  } sync_callers;
  std::int64_t steps = 0;
  // No repeated region: fewer than two steps, and the kernel with the most time ran fewer than
  // kOneShotInstances times (a test or a single call): there is no later iteration to profile,
  // one must be built.
  bool one_shot = false;
  // The GPU phase of an idle-dominated window: its bound composes with the idle phase's.
  std::optional<HostWaitCap> host_wait_cap;
};

// A statement whose change makes the GPU's work faster without cutting its launches: a kernel
// made faster, the top kernels measured together, FP32 math moved to tensor cores (autocast adds
// casts), communication overlapped with computation. Fusion, SDPA and layout changes remove
// launches, and with them host time.
bool KeepsLaunchCount(const report::Diagnosis& d);

inline constexpr std::int64_t kOneShotInstances = 3;

// A grid of at least this many waves keeps every SM busy: more blocks do not add parallelism.
inline constexpr double kManyWaves = 4.0;
void SetExperiment(report::Diagnosis& diagnosis,
                   const std::string& subject,
                   const ExperimentContext& context = {});
// A host-bound finding whose gaps a multi-process DataLoader's fetch mostly fills: the lever is
// the input pipeline, and its bound counts only the idle inside the fetch.
bool InputPipelineLever(const report::Diagnosis& d, const ExperimentContext& context);

// What the input is, the same for every statement of a window: its vendor, framework (PyTorch,
// vLLM) and whether its operators carry shapes (diagnosis_vendor.cc).
ExperimentContext InputContext(const model::Trace& trace);
// A fresh context for another statement of the same window: `base`'s input traits only.
ExperimentContext SameInput(const ExperimentContext& base);

// An AMD GPU trace: a device or API name says so (HIP calls, "AMD", "Instinct", "gfx").
bool IsAmdTrace(const model::Trace& trace);

// A PyTorch profiler trace: a framework profiler's format (TraceMetadata::framework_profiler)
// with operators (cpu_op). Only there do PyTorch's options (record_shapes, torch.profiler
// schedules, torch.compile) apply.
bool IsPyTorchTrace(const model::Trace& trace);

// For a trace without GPU activities: names a device kind gpuperf does not analyse (MTIA) when
// the trace mentions one, else "".
std::string UnsupportedDevice(const model::Trace& trace);

// With hardware counters on the dominant kernel (diagnosis_counters.cc): its Nsight Compute rule
// of the largest estimated speedup as evidence, and for "unknown" exactly what its counters lack
// instead of a request for the roofline set.
// Nothing without counters on `row`.
void AdviseFromCounters(report::Diagnosis& diagnosis, const report::KernelRow& row);

// An input whose kernels have no durations (an Nsight Compute CSV without
// gpu__time_duration.sum or cycles): "unknown", never a time split it cannot measure.
void DiagnoseWithoutDurations(report::Diagnosis& diagnosis, const report::AnalysisReport& report);

}  // namespace gpuperf::analysis
