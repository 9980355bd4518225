// The analysis result model: what `gpuperf analyze` computes from a Trace. The analysis also
// writes the report's sentences here (headline, diagnosis support and experiment, finding
// summaries, report.md's labels such as PhaseVerdict::idle_largest_in); writers (JSON, Markdown,
// terminal, CSV, SVG) only lay these values out, format numbers and spell the enum vocabularies
// through their one ToString: every figure a writer shows is a field here, none is computed in a
// writer. The vocabularies that are enum classes: Severity, DiagnosisStatus, DominantKind,
// Bottleneck, KernelBound, QueueVerdict, PhaseClass, CategoryTier, FrameworkCategory,
// InitializationKind, OperatorSource, ShareKind, CeilingsEvidence, TriageQuestion, TriageAnswer,
// RangeKind (gpuperf/report_vocabulary.h), EvidenceTier (gpuperf/evidence.h); compare's Verdict
// and VerdictBasis are in gpuperf/compare.h.
//
// Units are in the names (_ns, _bytes, _percent). Every figure here comes from the trace
// ("source: trace"); later stages (roofline, models) add their own evidence tiers.
#pragma once

#include "gpuperf/framework.h"
#include "gpuperf/occupancy.h"
#include "gpuperf/report_vocabulary.h"
#include "gpuperf/roofline.h"
#include "gpuperf/schema_versions.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuperf::report {

// Summary statistics of a set of durations (or sizes), with `nsys stats` definitions:
// avg = mean, med = median (mean of the two middle values for even counts), stddev = sample
// standard deviation (n - 1; 0 for a single value).
struct Distribution {
  std::int64_t count = 0;
  std::int64_t total = 0;
  double avg = 0;
  double med = 0;
  std::int64_t min = 0;
  std::int64_t max = 0;
  double stddev = 0;
};

// One row per kernel name (nsys cuda_gpu_kern_sum).
struct KernelRow {
  std::string name;
  Distribution duration_ns;
  double time_percent = 0;  // of all kernel time
  double wall_percent = 0;  // of the trace's GPU span (timeline.total_ns)
  // Launch geometry when every instance agrees, else empty.
  std::string grid;
  std::string block;
  std::int64_t short_instances = 0;  // instances shorter than their own launch call
  std::int64_t graph_instances = 0;  // instances run as nodes of a CUDA/HIP graph (since 1.12.0)
  // The framework operator that launched most of this kernel's time (OperatorRow::name); ""
  // when the input records no operators.
  std::string top_operator;
  // When instances have hardware counters: their roofline (gpuperf/roofline.h).
  std::optional<KernelRoofline> roofline;
  // When instances record block size and registers on a device of known compute capability:
  // theoretical occupancy of the most common launch configuration (gpuperf/occupancy.h).
  std::optional<KernelOccupancy> occupancy;
  // When SASS or counters say whether tensor cores ran (gpuperf/roofline.h).
  std::optional<TensorCoreEvidence> tensor_cores;
  KernelClass classification;
  // From Nsight Compute's details page, when the counters hold them (gpuperf/roofline.h).
  std::optional<SpeedOfLight> speed_of_light;
  std::vector<NcuRule> ncu_rules;
  // The framework category of most of this kernel's time (last: positional initialisers of the
  // fields above stay valid); nullopt without a framework view (report.json "").
  std::optional<FrameworkCategory> category{};
  // The name as report.md's tables show it (analysis/kernel/readable_name.h: "void " and the
  // parameter list dropped, template arguments shortened); not in report.json.
  std::string readable_name{};
};

// Whether the kernel has a class (a bound other than kUnknown) or tensor-core evidence (used, or
// expected and unused): report.md's "Kernel classes" lists it, and UnclassifiedKernels counts the
// others.
inline bool HasClassOrTensorCoreEvidence(const KernelRow& k) {
  return k.classification.bound != KernelBound::kUnknown || k.tensor_cores ||
         k.classification.tensor_cores_expected_but_unused;
}

// One roof of a ceilings entry: the peak rate of one precision on one unit.
struct CeilingPeak {
  std::string precision;  // "fp32", "bf16", ...
  std::string unit;       // "vector", "tensor"
  double flops_per_s = 0;
};

// The ceilings a report used for one device (report.json `ceilings[]`).
struct CeilingsUsed {
  std::int32_t device = 0;
  std::string device_name;
  std::string entry;  // ceilings entry key ("H100 SXM5 80GB"); "" when none matched
  // the datasheet or a measurement (gpuperf ceilings); meaningful only with an entry
  CeilingsEvidence evidence = CeilingsEvidence::kDatasheet;
  std::string source;  // the vendor document, or the measurement (gpuperf ceilings, date)
  std::optional<double> dram_bytes_per_s;
  std::optional<std::int64_t> l2_bytes;
  std::vector<CeilingPeak> peaks;
  std::string clocks;  // the clocks the ceilings hold at, and what is known of the run's clocks
  std::string reason;  // why no entry matched; "" on a match
};

// One step of the application-level triage (docs/method.md, "Triage order").
struct TriageStep {
  TriageQuestion question = TriageQuestion::kDominantWork;
  TriageAnswer answer = TriageAnswer::kUnknown;
  std::string detail;  // the numbers and their source
};

// Launch-queue depth: how far the host runs ahead of the GPU (kernel start - launch-call end, per
// distinct launch call, its first kernel; 0 when the kernel started before the call returned).
struct LaunchQueue {
  std::int64_t launches = 0;  // distinct launch calls measured
  std::int64_t median_ns = 0;
  std::int64_t p90_ns = 0;
  // kGpuBound, kHostBound, kGpuWaits (deep queue, idle GPU) or kUndetermined (too few launches,
  // slow launch calls, or a program that drains the queue by synchronizing)
  QueueVerdict verdict = QueueVerdict::kUndetermined;
  // The sentence: "GPU-bound: the host runs 1.2 ms ahead ..."; says why when undetermined. Built
  // by the diagnosis (QueueSentence) from the verdict and the fields below.
  std::string sentence;
  // Why kUndetermined (any of them; the timeline sets them, not in report.json): fewer launch
  // calls than the minimum, most kernels starting before their call returned (`started_early`
  // of them: slow calls), at least one host wait for the GPU per two launch calls (`host_syncs`
  // of them: the program drains the queue itself).
  bool too_few_launches = false;
  bool slow_launch_calls = false;
  bool host_drains_queue = false;
  std::int64_t started_early = 0;
  std::int64_t host_syncs = 0;
  // Set by the diagnosis (not in report.json): with kGpuWaits, the share of the steady-state
  // window the GPU idled with its next work queued; with kGpuBound, when the window's idle time
  // is the host's and lies where nothing was launched (host-bound between its GPU phases), that
  // idle time before the first and after the last GPU activity.
  double queued_idle_share = 0;
  std::optional<std::int64_t> between_phases_idle_ns;
  // Launch calls into a deep queue that blocked (timeline/blocked_launches.h, since 1.22.0): how
  // many, their time beyond an unblocked launch, the median count of GPU operations queued
  // (launched, not started) when they returned, the median time from the last GPU operation's end
  // to their return and the same for the deep-queue launches that did not block, and whether the
  // queue was full: the blocked ones return right after an operation ends (a slot frees), so the
  // host waits for the GPU inside its launches.
  std::int64_t blocked_launches = 0;
  std::int64_t blocked_ns = 0;
  std::int64_t queued_at_blocked_return = 0;
  std::int64_t blocked_return_gap_ns = 0;
  std::int64_t unblocked_return_gap_ns = 0;
  bool queue_full = false;
};

// The bottleneck statement (docs/method.md, "The bottleneck statement"): report.json `diagnosis`.
struct Diagnosis {
  std::string target_metric;  // what is being minimised, and over which window
  std::string scope;          // workload scope: input, devices, ranks, what the window holds
  std::string baseline;       // the baseline numbers and how they were measured
  DominantKind dominant_kind = DominantKind::kUnset;
  std::string dominant_name;
  double dominant_fraction = 0;  // of the target metric's window
  // The framework lever of an "operators" statement (report_vocabulary.h); kNone otherwise
  // (since 1.14.0).
  LeverKind lever = LeverKind::kNone;
  // The class (report_vocabulary.h); kCacheBound since 1.8.0; kNone without a statement.
  Bottleneck bottleneck = Bottleneck::kNone;
  // The class as the report's prose names it: "memory-bound"; "GPU-bound, kernel class unknown"
  // for an unknown class whose dominant work is kernels (since 1.11.0).
  std::string label;
  DiagnosisStatus status = DiagnosisStatus::kNone;
  EvidenceTier evidence = EvidenceTier::kNone;
  std::vector<std::string> support;     // the evidence, one sentence each, with its source
  std::vector<TriageStep> triage;       // how the class was reached
  std::string next_experiment;          // ONE ranked next step
  std::optional<double> bound_speedup;  // Amdahl bound on the whole program if it fully succeeds
  // When part of bound_speedup rests on an assumption (work without a model counted as free):
  // the bound from the modelled part alone (since 1.10.0).
  std::optional<double> bound_speedup_modeled;
  // A measurement over kernels of unknown class (a flat profile): the program's gain were they
  // made 2x faster, an assumed local speedup. The ranking compares it, not the zero-time
  // bound_speedup, which no change reaches (since 1.11.0).
  std::optional<double> bound_speedup_at_2x;
  // The share of the wall time that bound_speedup_at_2x gives back, 1 - 1 / bound_speedup_at_2x
  // (a fraction, 0..1), as the statement says it; absent without bound_speedup_at_2x.
  std::optional<double> time_removed_fraction_at_2x;
  // A host-bound finding whose host work runs outside the framework operators: the bound if that
  // work only moves beside the GPU, without getting faster (since 1.14.0). bound_speedup is the
  // bound if it took no time.
  std::optional<double> bound_speedup_overlapped;
  // The same finding when most of that host work runs before the first GPU work (one input
  // prepared, then its GPU work): the bound in a loop over inputs that prepares the next input
  // while the GPU runs this one, window / max(that host work, the rest) (since 1.24.0).
  std::optional<double> bound_speedup_across_inputs;
  // The same finding: the bound if only the host work the experiment names (its three largest
  // records, with what they call) took no time, when below bound_speedup, which is over all the
  // host work in the gaps (since 1.23.0).
  std::optional<double> bound_speedup_named;
  // A GPU-bound window whose host is close behind, and a change that cuts launches: the bound if
  // the kernels only got faster and the host launched as many as now, what the host's waits for
  // the GPU give back; bound_speedup needs the host's own time to fall too (fewer launches:
  // fusion, torch.compile, CUDA graphs) (since 1.18.0).
  std::optional<double> bound_speedup_same_launches;
  // The same lever raised to its fewer-launches ceiling (the GPU's idle going with the host's
  // time, its launches captured in a graph as well): the bound with the GPU's idle kept as now,
  // what the change alone gives; bound_speedup is then the raised ceiling (since 1.24.0).
  std::optional<double> bound_speedup_idle_kept;
  // A dependency-bound window whose queued idle lies mostly inside CUDA/HIP graph launches while
  // the host was blocked waiting for the GPU: nothing the trace records could end that idle, so
  // the graphs may hold work it lacks. The bound if they do, only the queued idle outside the
  // graphs removable; bound_speedup counts all of it as idle (since 1.25.0).
  std::optional<double> bound_speedup_unrecorded_graph_work;
  // A host-bound vLLM window whose lever is vLLM's own graph capture: the bound with piecewise
  // capture, which leaves the attention operators eager (vLLM's capture for prefill and mixed
  // batches) and their idle in place; bound_speedup is for the whole forward in one graph
  // (since 1.25.0).
  std::optional<double> bound_speedup_piecewise_graphs;
  // One rank of a multi-rank job whose collectives take far longer than their messages need: the
  // least time it waits in them for other ranks (each call's time beyond its message at 1 GB/s
  // and 100 us of latency), and the bound if only this rank changes, its savings up to that wait
  // absorbed by longer waits; bound_speedup needs every rank to gain alike (since 1.26.0).
  std::int64_t peer_wait_ns = 0;
  std::optional<double> bound_speedup_this_rank_only;
  // A lever whose gain rests on an assumed efficiency at the new roof (FP32 GEMMs moved to TF32
  // at the fraction of peak they reach now): the gain at that assumption, an estimate;
  // bound_speedup is then the ceiling at the roof itself, which no kernel reaches (since 1.20.0).
  std::optional<double> bound_speedup_estimated;
  // The input checked against the model, when the trace shows they differ (a learned embedding
  // resized in the forward pass, since 1.14.0; one loaded input run through the model several
  // times, since 1.15.0): the clauses that say so, and next_experiment starts with the checks.
  // Empty otherwise.
  std::string input_check;
  // The bound if the repeated runs of one loaded input were one computation (since 1.15.0).
  std::optional<double> input_check_bound_speedup;
  // What the diagnosis leads with (since 1.16.0): kInputCheck when the input check bounds more
  // than the statement's own lever (the repeats hold more of the window than the lever could
  // give back), else kBottleneck; kNone without a bottleneck.
  DiagnosisLead lead = DiagnosisLead::kNone;
  std::string falsified_by;          // the measurement that would falsify the hypothesis
  std::string missing_evidence;      // for a hypothesis: what would turn it into a finding
  std::optional<LaunchQueue> queue;  // absent without launch calls joined to kernels
  // The other half of a mixed window (report.json `diagnosis.secondary`): the GPU phase of a
  // window that is also host-bound. Empty, or one statement of the same shape.
  std::vector<Diagnosis> secondary;
};

// One-time work found in the window (analysis/diagnosis/initialization.h), aggregated by
// (kind, name).
struct InitializationItem {
  // its kind ("teardown" and "setup" since 1.10.0)
  InitializationKind kind = InitializationKind::kFirstCall;
  std::string name;
  std::int64_t time_ns = 0;  // summed over its instances (clipped to the window)
  std::int64_t count = 0;
  std::string evidence;  // why it is one-time work, with its source
};

// What one phase (an NVTX or annotation range name that holds part of the window) spent its time
// on, and its verdict (since 1.19.0): the diagnosis per phase, beside the window's one.
struct PhaseVerdict {
  std::string name;
  ShareKind kind = ShareKind::kNvtx;  // kNvtx or kUserAnnotation
  std::int64_t instances = 0;
  std::int64_t wall_ns = 0;  // union of its instances in the steady-state window
  // Of wall_ns: GPU kernels (and memsets) running, copies running with no kernel, GPU idle.
  std::int64_t kernel_ns = 0;
  std::int64_t copy_exposed_ns = 0;
  std::int64_t idle_ns = 0;
  // Of idle_ns: with the next GPU work already launched (the GPU waited on a device-side
  // dependency, not on the host: the idle attribution's queued idle); of the rest, what the host
  // was in: blocking waits and their round trips, blocking MPI calls (waits for another rank),
  // launch calls, device allocation calls, other CUDA calls, none (host work).
  std::int64_t idle_queued_ns = 0;
  std::int64_t idle_sync_ns = 0;
  std::int64_t idle_mpi_ns = 0;
  std::int64_t idle_launch_ns = 0;
  std::int64_t idle_alloc_ns = 0;
  std::int64_t idle_other_api_ns = 0;
  std::int64_t idle_host_ns = 0;
  // Of idle_sync_ns: the round trips after the waits (the launch calls and host work between a
  // wait's end and the next GPU work), outside the waits themselves (since 1.20.0).
  std::int64_t idle_round_trip_ns = 0;
  // The GPU idle the phase's waits cause (the idle attribution's CausedBy, as the sync finding
  // counts it): what removing them gives back at most; the round trips' launch calls still take
  // their time without the waits (since 1.20.0).
  std::int64_t wait_removal_ns = 0;
  // The largest of those seven (the first on a tie, in that order): what it is, for report.md's
  // "idle mostly in" ("blocking waits and their round trips"), its time and its percent of
  // idle_ns; "", 0 and 0 when idle_ns is 0 (since 1.20.0).
  std::string idle_largest_in;
  std::int64_t idle_largest_ns = 0;
  double idle_largest_percent = 0;
  // GPU work launched by calls inside the phase, summed, and of it the part that runs inside the
  // phase: a host that runs far ahead leaves its phases' GPU work to run in later ones.
  std::int64_t launched_gpu_ns = 0;
  std::int64_t launched_inside_ns = 0;
  // Of kernel_ns: collective kernels (all-reduce, send/recv, all-to-all, ...) running inside the
  // phase with no computation kernel beside them (exposed communication); the verdict is
  // kCommunicationBound when they hold most of its GPU-busy time (since 1.26.0).
  std::int64_t communication_ns = 0;
  // kRunsBehind (most of its launched GPU work runs after it: the GPU is behind the host, and
  // the phase's wall is host time the program does not wait for), kGpuBound (GPU work runs at
  // least half of it), kTransferBound or kCommunicationBound (copies or collectives are most of
  // that GPU work), else its idle's largest part (report_vocabulary.h)
  PhaseClass verdict = PhaseClass::kHostBound;
};

struct Initialization {
  std::int64_t time_ns = 0;  // union of the items' intervals
  double fraction = 0;       // of the recorded window
  // The window the diagnosis and its bounds are over: the recorded (or measured) window less the
  // one-time work during which the GPU idled (one-time work beside GPU work still had to run).
  std::int64_t steady_window_ns = 0;
  // Also outside the steady window, not one-time work: before the first GPU activity with its
  // work already queued, and after the last one where the trace records nothing (since 1.12.0).
  std::int64_t unobserved_lead_ns = 0;
  std::int64_t unobserved_tail_ns = 0;
  // Since 1.17.0: of time_ns, the part before the steady window, inside what
  // predictions.preroll leaves out (the start-up before the first step, a warm-up step).
  std::int64_t before_window_ns = 0;
  std::vector<InitializationItem> items;  // by time, descending
  std::int64_t items_omitted = 0;
};

// One row per memory operation kind (nsys cuda_gpu_mem_time_sum / cuda_gpu_mem_size_sum).
struct MemoryOpRow {
  std::string operation;  // "[CUDA memcpy HtoD]", "[CUDA memset]", ...
  Distribution duration_ns;
  Distribution size_bytes;
  double time_percent = 0;
};

// One row per API name (nsys cuda_api_sum).
struct ApiRow {
  std::string name;      // version suffix stripped ("cudaMemcpy")
  std::string raw_name;  // as recorded ("cudaMemcpy_v3020")
  Distribution duration_ns;
  double time_percent = 0;
};

// Where GPU time goes (TraceLens gpu_timeline definitions unless stated, see docs/metrics.md).
struct Timeline {
  std::int64_t total_ns = 0;                  // last end - first start of counted GPU work
  std::int64_t busy_ns = 0;                   // union of all counted GPU work
  std::int64_t idle_ns = 0;                   // total - busy
  std::int64_t computation_ns = 0;            // union of non-communication kernels and memsets
  std::int64_t communication_ns = 0;          // union of NCCL/RCCL kernels
  std::int64_t memcpy_ns = 0;                 // union of copies
  std::int64_t memset_ns = 0;                 // union of memsets
  std::int64_t exposed_communication_ns = 0;  // communication not covered by computation
  std::int64_t exposed_memcpy_ns = 0;         // copies not covered by computation or communication
  std::int64_t first_start_ns = 0;
  std::int64_t last_end_ns = 0;
  std::int64_t activities = 0;  // GPU activities counted
};

struct DeviceTimeline {
  std::int32_t device = 0;
  std::string name;
  Timeline timeline;
};

struct FindingRow {
  std::vector<std::string> cells;
};

// What an evidence column's cells hold, so that report.md shows them in human units (report.json
// keeps the raw cells): text; integer or decimal nanoseconds (a duration, perhaps an average); a
// timestamp as the trace records it, in integer ns (often since the epoch), shown from the GPU
// timeline's first activity; a size in bytes.
enum class ColumnUnit { kText, kDurationNs, kStartNs, kBytes };

// A column of a finding's evidence table: its title as report.json `columns` spells it ("Duration
// (ns)") and the unit of its cells, set by the rule that builds the table.
struct FindingColumn {
  std::string title;
  ColumnUnit unit = ColumnUnit::kText;
  // Rules and tests look a column up by its title.
  friend bool operator==(const FindingColumn& column, std::string_view title) {
    return column.title == title;
  }
};

// A rule's result. `rows` carry the evidence with `columns` as header.
struct Finding {
  std::string id;  // stable key: "sync_memcpy", "gpu_gaps", ...
  std::string title;
  Severity severity = Severity::kInfo;
  std::string summary;  // one sentence with numbers
  std::string advice;
  std::string source;  // "trace"
  // What the finding is about, as a field and not a table cell: the API call of its longest wait
  // ("cudaDeviceSynchronize", version suffix stripped), "" when it has no single subject (since
  // 1.11.0).
  std::string subject;
  std::int64_t count = 0;
  std::int64_t time_ns = 0;  // time attributable to the finding (e.g. summed call durations)
  std::vector<FindingColumn> columns;
  std::vector<FindingRow> rows;
  std::int64_t rows_omitted = 0;
  // Amdahl bound were time_ns removed entirely: f = time_ns / predictions.wall_ns and
  // 1 / (1 - f). An upper bound: it assumes all of time_ns lies on the critical path.
  std::optional<double> wall_fraction;
  std::optional<double> bound_speedup_if_removed;
  // Wait-type findings (sync_*, pageable_async_memcpy): the host time the waits blocked and the
  // GPU idle time they caused (idle_attribution.h); the bound above then comes from the idle.
  std::optional<std::int64_t> host_blocked_ns;
  std::optional<std::int64_t> gpu_idle_caused_ns;
  // Of gpu_idle_caused_ns, the part after the waits and their round trips (since 1.22.0): where
  // the GPU waits for the host, the waits delay the host's later work and the GPU work it
  // launches, until a wait the host keeps absorbs the delay (IdleAttribution::CausedBy).
  std::optional<std::int64_t> gpu_idle_later_ns;
  // GPU idle inside the waits while the next GPU work was already queued: the GPU waited on a
  // device-side dependency, not on these calls, so it is not theirs (since 1.10.0).
  std::optional<std::int64_t> gpu_idle_queued_ns;
  // Findings about work a change shortens but does not remove (gemm_misaligned, since 1.19.0):
  // the part of time_ns the change would give back, and how it was bounded; the bound above then
  // comes from it.
  std::optional<std::int64_t> recoverable_ns;
  std::string recoverable_basis;
  // Where the advice removes more than the finding's own calls (since 1.24.0): the GPU idle the
  // whole change gives back and its Amdahl bound (pageable_async_memcpy: pinning with
  // non_blocking also removes the syncs that wait for the copies inside the same operators;
  // pytorch-kineto 2021-06: 1.19 ms for the copies' waits, 16.6 ms with those syncs).
  std::optional<std::int64_t> advice_gpu_idle_ns;
  std::optional<double> advice_bound_speedup;
  // Copy findings (sync_memcpy, pageable_async_memcpy): the copies' own GPU time is not in the
  // wait bound above. What pinned host buffers would take off the steady window's pageable copies
  // of 1 MiB or more at the host link's datasheet peak (0: nothing, the copies are smaller or at
  // that peak already), or null where no datasheet entry gives the device's host link
  // (since 1.25.0).
  std::optional<std::int64_t> pinned_saving_ns;
};

// The kernel-count audit (docs/method.md, "Kernel-count audit").
struct Audit {
  std::int64_t kernel_launches = 0;  // kernel executions on the GPU
  std::int64_t launch_calls = 0;     // host launch API calls (runtime + driver)
  std::int64_t distinct_kernels = 0;
  std::int64_t graph_launches = 0;
  std::int64_t memcpy_htod = 0, memcpy_dtoh = 0, memcpy_dtod = 0, memcpy_other = 0;
  std::int64_t memsets = 0;
  std::int64_t synchronizations = 0;  // host-blocking sync calls and sync records
  std::int64_t allocations = 0;
  std::int64_t frees = 0;
  std::int64_t peak_allocated_bytes = -1;  // -1 when the trace does not record it
};

struct LaunchOverhead {
  std::int64_t launches = 0;  // launch calls joined to a kernel
  Distribution api_ns;        // duration of the launch call
  Distribution queue_ns;      // kernel start - launch call end, only where > 0 (nsys QCount)
  Distribution kernel_ns;     // kernel duration
  Distribution total_ns;      // kernel end - launch call start (nsys TAvg...)
  std::int64_t kernels_shorter_than_launch = 0;  // graph nodes excluded
  double api_to_kernel_ratio = 0;                // total launch-call time / total kernel time
  std::int64_t call_time_ns = 0;                 // summed duration of the distinct launch calls
  std::int64_t graph_launches = 0;               // distinct graph-launch calls joined to kernels
  std::int64_t graph_kernels = 0;                // kernels they ran
};

struct RangeRow {
  std::string name;
  RangeKind kind = RangeKind::kNvtx;
  Distribution duration_ns;
  double time_percent = 0;       // of all ranges of its kind
  std::int64_t gpu_time_ns = 0;  // union of GPU work that falls inside the range's instances
};

struct DiagnosticCount {
  std::string name;
  std::int64_t count = 0;
};

struct SourceInfo {
  std::string path;
  std::string format;
  std::string format_version;
  std::string producer;
  std::vector<std::string> devices;  // "0: NVIDIA H100 80GB HBM3 (cc 9.0, 132 SMs)"
  std::optional<std::int64_t> rank;
  std::optional<std::int64_t> world_size;
  // The trace's model::TraceMetadata::has_timeline; not a report.json key: its reader restores it
  // from `format` (io::FormatHasTimeline).
  bool has_timeline = true;
};

// Amdahl inputs for one kernel name or phase (docs/metrics.md, "Predictions").
// What a given local speedup of one kernel or phase would give the whole program (Amdahl):
// report.json `predictions.*.illustrative_gains`, the "gain at" columns of report.md.
struct IllustrativeGain {
  double local_speedup = 1;        // s
  double bound_speedup = 1;        // 1 / ((1 - f) + f / s)
  std::int64_t time_saved_ns = 0;  // critical_ns * (1 - 1 / s), per trace window
};

// A kernel's time alone on its device inside one run of queued GPU work the program waited for
// (analysis/timeline/critical_time.h): `run` indexes Predictions::run_budget_ns.
struct RunTime {
  std::int32_t run = 0;
  std::int64_t ns = 0;
};

struct CriticalShare {
  std::string name;
  ShareKind kind = ShareKind::kKernel;  // kKernel, or the range kind for a phase
  std::int64_t instances = 0;
  std::int64_t total_ns = 0;            // summed duration of its instances
  std::int64_t exclusive_ns = 0;        // it runs and nothing else on its device does (kernels)
  std::int64_t critical_ns = 0;         // exclusive time the program waited for: Amdahl's f * wall
  double fraction = 0;                  // f = critical_ns / (wall_ns * device_groups)
  std::optional<double> limit_speedup;  // 1 / (1 - f); absent when f = 1
  // With a roofline floor (the roofline issue's floor_ns): the largest local speedup the roof
  // allows (total_ns / floor_ns), the whole-program bound at that speedup, and the wall time
  // that would come back (critical_ns * (1 - 1 / max_local_speedup)).
  std::optional<std::int64_t> floor_ns;
  std::optional<double> max_local_speedup;
  std::optional<double> bound_speedup_at_roof;
  std::optional<std::int64_t> recoverable_ns;
  EvidenceTier floor_evidence = EvidenceTier::kNone;  // kNone without a floor
  // One entry per Predictions::illustrative_speedups, in that order.
  std::vector<IllustrativeGain> illustrative_gains;
  // Not in report.json: critical_ns by run, so that a speedup's gain is the run's budget or the
  // time it removes there, whichever is smaller (GainNs, analysis/core/run_gains.h), and
  // several kernels of one run share its budget. `unbounded_ns`: the part in runs without a
  // budget (the device's last work with no host call to compare, unknown launches).
  std::vector<RunTime> runs;
  std::int64_t unbounded_ns = 0;
};

// GPU work from before the recording (analysis/preroll.h), left out of the window: orphan GPU
// activities that ran from the window's start until the trace's first launch call.
struct PreRollSummary {
  std::int64_t time_ns = 0;     // [window start, its end): left out of Predictions::wall_ns
  std::int64_t gpu_ns = 0;      // the busy union of its activities inside it
  std::int64_t activities = 0;  // orphan GPU activities that start in it
  // Their summed durations per framework category of the kernel name (memsets kMemset), for the
  // levers' shares of the window; the copies' apart, in memcpy_ns (nullopt without a copy).
  // report.json's category_ns holds both, keyed by their spellings ("elementwise", ...; copies
  // "memcpy", memsets "memset") in the order of the spellings.
  std::map<FrameworkCategory, std::int64_t> category_ns;
  std::optional<std::int64_t> memcpy_ns;
  // Set when what is left out is the first step, a warm-up outlier (since 1.15.0): its name, its
  // wall and the median wall of the other steps. `activities` then counts every GPU activity
  // that starts in it.
  std::string warmup_step;
  std::int64_t warmup_step_wall_ns = 0;
  std::int64_t other_steps_median_ns = 0;
  // Since 1.17.0: the start-up before the first of two or more marked steps (ProfilerStep or
  // --step-range), when the steps begin at least 1% into the window, and that step's name; 0 and
  // "" otherwise. `activities` then counts every GPU activity that starts in what is left out.
  std::int64_t lead_in_ns = 0;
  std::string first_step;
  // Since 1.18.0: how many leading steps are left out as warm-up outliers (each tested against
  // the steps after it, LeadingOutliers); warmup_step_wall_ns is then their walls together.
  std::int64_t warmup_steps = 0;
  // Since 1.18.0: of lead_in_ns, the longest stretch in which the trace records nothing (no GPU
  // work, API call, operator, frame, OS call or range shorter than the lead), when it holds half
  // of the lead or more, and its start from the window's start; 0 otherwise.
  std::int64_t lead_in_unrecorded_ns = 0;
  std::int64_t lead_in_unrecorded_start_ns = 0;
};

struct Predictions {
  // Amdahl's denominator: the trace window, less the pre-roll (orphan work from before the
  // recording) when there is one
  std::int64_t wall_ns = 0;
  std::string wall_source;  // how wall_ns was measured
  std::int64_t device_groups = 0;
  // wall_ns x device_groups (at least 1): the critical time a share's fraction is of, which
  // report.md names beside the top kernel's (since 1.21.0).
  std::int64_t summed_wall_ns = 0;
  std::string method;                  // one paragraph: how critical time is attributed
  std::string ranking;                 // "recoverable_ns" or "critical_ns"
  std::vector<CriticalShare> kernels;  // ranked, at most `kernels_kept`
  std::int64_t kernels_omitted = 0;
  // The same rows on the GPU's own timeline, for the GPU phase of a window whose idle phase
  // holds the wall (not in report.json): each kernel's time alone on its device outside the
  // pre-roll as its critical time, what becomes critical once the host keeps ahead of the GPU;
  // ranked and kept alike.
  std::vector<CriticalShare> gpu_timeline_kernels;
  // Set on the diagnosis' copy whose kernels are gpu_timeline_kernels (never in report.json):
  // its sentences say "GPU-phase time" where they would say "critical time".
  bool on_gpu_timeline = false;
  // Not in report.json: what each run of queued GPU work gives back at most (CriticalShare::runs).
  std::vector<std::int64_t> run_budget_ns;
  std::vector<CriticalShare> phases;      // NVTX / user-annotation ranges by host time
  std::optional<PreRollSummary> preroll;  // since 1.8.0
  // The local speedups every kernel's and phase's illustrative_gains are computed at.
  std::vector<double> illustrative_speedups;
};

// `analyze --counters`: how the Nsight Compute launches joined the trace's kernels
// (report.json `counters_join`).
struct CounterJoin {
  std::int64_t ncu_launches = 0;      // launches in the --counters files
  std::int64_t joined = 0;            // attached to a trace kernel
  std::int64_t no_kernel = 0;         // no trace kernel of that name left to take them
  std::int64_t config_mismatch = 0;   // kernels of that name, none with the same grid and block
  std::vector<std::string> examples;  // up to three launches that did not join, with why
};

// The kernels without a class: no roofline bound ("unknown") and no tensor-core evidence (used,
// or expected and unused); report.md's class table leaves them out and says so (since 1.20.0).
struct UnclassifiedKernels {
  std::int64_t kernels = 0;
  double time_percent = 0;  // their summed KernelRow::time_percent
};

struct AnalysisReport {
  SourceInfo source;
  std::string headline;            // where the time goes, one paragraph with numbers
  std::vector<std::string> notes;  // definitions that differ, caveats
  Timeline timeline;
  std::vector<DeviceTimeline> devices;
  // The same quantities with TraceLens' gpu_timeline selection: only activities whose correlation
  // has a launch call in the trace. `orphan_activities` is how many the default keeps beyond it.
  Timeline timeline_tracelens;
  std::int64_t orphan_activities = 0;
  std::vector<KernelRow> kernels;  // sorted by total time, descending
  UnclassifiedKernels unclassified_kernels;
  std::vector<MemoryOpRow> memory_ops;
  std::vector<ApiRow> api;
  LaunchOverhead launch;
  Audit audit;
  std::vector<RangeRow> ranges;
  FrameworkView framework;  // operators, categories, modules, steps (gpuperf/framework.h)
  std::vector<Finding> findings;
  Predictions predictions;
  std::vector<CeilingsUsed> ceilings;        // per device with kernels placed on a roofline
  std::optional<CounterJoin> counters_join;  // only with analyze --counters
  Diagnosis diagnosis;
  Initialization initialization;
  std::vector<PhaseVerdict> phase_verdicts;  // by wall_ns, descending (since 1.19.0)
  std::vector<DiagnosticCount> diagnostics;
  std::vector<std::string> diagnostic_notes;
};

}  // namespace gpuperf::report
