// Parts of the diagnosis shared by its files (diagnosis.cc, diagnosis_statement.cc).
#pragma once

#include "gpuperf/finding_ids.h"
#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/core/profiler_options.h"
#include "analysis/diagnosis/diagnosis.h"
#include "analysis/kernel/device_roofs.h"
#include "analysis/timeline/idle_attribution.h"
#include "util/intervals.h"

namespace gpuperf::analysis {

// Shared by the diagnosis files (diagnosis.cc defines them).
// The wait-type findings: sized by the GPU idle they cause (findings.h, SetWaitCost).
inline constexpr std::string_view kWaitFindings[] = {report::finding_id::kSyncApi,
                                                     report::finding_id::kSyncMemcpy,
                                                     report::finding_id::kPageableAsyncMemcpy,
                                                     report::finding_id::kSyncMemset};
// A replaced statement's kernel, named in the evidence as the headline names its top kernel.
inline constexpr std::size_t kReplacedKernelChars = 80;
// A statement over kernels: one kernel, or the kernels of one routine (a flat profile's lambdas).
inline bool IsKernelWork(report::DominantKind kind) {
  return kind == report::DominantKind::kKernel || kind == report::DominantKind::kRoutine;
}
double Fraction(std::int64_t part, std::int64_t whole);  // 0 when whole <= 0
std::string Pct(double fraction);                        // "12.3%"
const report::Finding* FindFinding(const report::AnalysisReport& r, std::string_view id);
// What following a wait finding's advice gives back: the GPU idle its calls cause, or more where
// the advice removes more (pageable copies: the syncs in the same operators).
std::int64_t WaitAdviceIdle(const report::Finding& f);
const report::KernelRow* FindKernel(const report::AnalysisReport& r, std::string_view name);
// The kernel with the most critical time (Amdahl's f), else the one with the most total time.
// With `computation_only`, collectives are passed over.
const report::CriticalShare* DominantKernelShare(const report::AnalysisReport& r,
                                                 bool computation_only = false);
// The steady-state window (the recorded window less one-time work), and a share of it.
std::int64_t SteadyWall(const report::AnalysisReport& r, const IdleAttribution& idle);
double WallFraction(const report::AnalysisReport& r, const IdleAttribution& idle, std::int64_t ns);
// The steady window's span in trace time: the recorded window less the pre-roll (or the start-up
// and warm-up step left out) before it and the unobserved tail after it (steady_window.cc).
util::Interval SteadySpan(const model::Trace& trace, const report::AnalysisReport& r);
// The same from a trace window already computed.
util::Interval SteadySpan(const TraceWindow& window, const report::AnalysisReport& r);
// Whether a record belongs to that span: it starts in it.
bool InSteadySpan(std::int64_t start_ns, util::Interval span);
bool InSteadySpan(const model::GpuActivity& a, util::Interval span);
// The timeline of the activities in the steady span: the exposed copies, communication and
// computation the triage weighs against the steady window. r.timeline when nothing is left out.
report::Timeline SteadyTimeline(const model::Trace& trace, const report::AnalysisReport& r);
// The kernels' busy union, sorted and disjoint: what a copy or a wait overlaps of computation.
std::vector<util::Interval> KernelBusy(const model::Trace& trace);

struct ExperimentContext;
// The idle class of the window (diagnosis_idle.cc): dependency-, sync-, launch- or host-bound,
// with the host's records of what it did in the gaps.
void SetIdleClass(const model::Trace& trace,
                  report::Diagnosis& d,
                  const report::AnalysisReport& r,
                  const IdleAttribution& idle,
                  std::string& subject,
                  ExperimentContext& context);

std::string TargetMetric(const report::AnalysisReport& r);
// Input, format, the devices the GPU work uses (of those described), rank, what the window holds.
std::string Scope(const model::Trace& trace, const report::AnalysisReport& r);
// How many leading steps the window leaves out as warm-up outliers (FindStepLead), with 3 or
// more steps; 0 otherwise.
std::size_t WarmUpStepsLeftOut(const report::AnalysisReport& r);
// `trace`: for the iterations it does not mark (UnmarkedIterationsText) when it has no steps.
std::string Baseline(const model::Trace& trace, const report::AnalysisReport& r);
// A window without steps whose kernels repeat the same launches in 3 or more iterations (the
// first kernel's launches anchor them): the iteration period's distribution, else ""
// (unmarked_iterations.cc).
std::string UnmarkedIterationsText(const model::Trace& trace);

// Adds the `initialization` triage step and evidence when the window holds one-time work; true
// when the part of it with the GPU idle holds at least kDominantShare of the window, which makes it
// the diagnosis.
bool InitializationStep(report::Diagnosis& d,
                        const report::AnalysisReport& r,
                        const IdleAttribution& idle);

// The copies of a window whose main statement is its idle time and which has no GPU phase to
// diagnose, when their exposed time holds `triage_share` of the window: their own statement
// (transfer-bound, with the pinned-buffer bound as evidence), so that the ranking weighs them
// against the idle phase's (the H200 sample workload: pageable copies beside 20000 launches).
std::vector<report::Diagnosis> SecondaryTransferStatement(const model::Trace& trace,
                                                          const DeviceRoofsTable& roofs,
                                                          const report::Diagnosis& main,
                                                          const report::AnalysisReport& r,
                                                          double transfer,
                                                          double triage_share,
                                                          std::int64_t window_ns,
                                                          std::int64_t exposed_copy_ns,
                                                          const ExperimentContext& base);

// The framework view in the diagnosis (diagnosis_framework.cc). A kernel is a collective when
// most of its time is in the communication category.
bool IsCollective(const report::AnalysisReport& r, const std::string& kernel);
// The kernel with the most critical time among the collectives (true) or the others (false).
const report::CriticalShare* DominantComputeShare(const report::AnalysisReport& r,
                                                  bool collectives);
// Names the collectives when they hold a tenth of kernel time (NCCL, symmetric-memory and custom
// all-reduce, all-to-all: by launching operator and kernel family).
// `wait`: CollectiveEvidenceOf's wait text, added after.
void AddCollectiveEvidence(report::Diagnosis& d,
                           const report::AnalysisReport& r,
                           const std::string& wait);
// Names exposed copies from a tenth of the window on when no statement is about them (the
// triage stops at its first yes; `triage_share` is its transfer threshold): kinds, bytes, issuing
// operators, the Amdahl bound of overlapping them, and for large copies with a pageable host side
// what pinned buffers would save at the host link's datasheet peak (material_copies.cc). Only the
// copies in the steady span count; `exposed_copy_ns` is theirs (SteadyTimeline). `roofs`: the
// devices' ceilings, for the host link's peak.
void AddMaterialCopies(report::Diagnosis& d,
                       const model::Trace& trace,
                       const DeviceRoofsTable& roofs,
                       const report::AnalysisReport& r,
                       double transfer,
                       double triage_share,
                       std::int64_t window_ns,
                       std::int64_t exposed_copy_ns);
// The hottest kernel is a collective: communication-bound, with gpuperf ranks as the next step.
void SetCollectiveClass(report::Diagnosis& d,
                        const report::AnalysisReport& r,
                        const report::CriticalShare& share,
                        std::string& subject);
// Replaces the experiment with the framework lever (framework/levers.h) when it bounds more than
// the kernel-level one; true when it did.
// `wall_ns`: the steady-state window the diagnosis' shares are of. d.support from
// `kernel_evidence_from` on is about the dominant kernel: when the lever replaces the statement,
// the lever's evidence goes before it and it is labelled as the kernel's, so a memory-bound lever
// is not read as resting on a compute-bound GEMM's roofline.
// `cap`: the GPU phase of an idle-dominated window (HostWaitCap).
bool ApplyLever(report::Diagnosis& d,
                const model::Trace& trace,
                const DeviceRoofsTable& roofs,
                const report::AnalysisReport& r,
                std::int64_t wall_ns,
                std::size_t kernel_evidence_from = SIZE_MAX,
                const HostWaitCap* cap = nullptr);

// Host time the trace's own pinning and unpinning calls take (cudaHostAlloc, cudaMallocHost,
// cudaHostRegister and their frees), each call once; a first call that is one-time work in
// `init` counts at its name's median (material_copies.cc).
std::int64_t PinningCostNs(const model::Trace& trace, const report::Initialization& init);
// The host's blocking waits for the GPU (synchronizations, copies that wait) through
// `stretches` (sorted, disjoint): their union over the stretches, and the call that holds most.
// The host blocked through this many tenths of queued idle rules out a late host event.
inline constexpr std::int64_t kHostBlockedTenths = 8;
struct HostBlocked {
  std::int64_t ns = 0;
  std::string top_api;
  std::vector<std::int64_t> per_stretch;  // the blocked time in each stretch, in their order
};
HostBlocked HostBlockedDuring(const model::Trace& trace,
                              const std::vector<util::Interval>& stretches);
// A dependency-bound window's long queued stretches when they concentrate: the sentence for the
// evidence, and in `focus` the GPU work that ends most of them ("" when there is no such
// signature; queued_stretches.cc).
std::string LongQueuedStretches(const model::Trace& trace,
                                const IdleAttribution& idle,
                                std::int64_t steps,
                                std::string& focus);

// The host's waits for the GPU over `wall_ns` (host_wait_cap.cc), in the steady window's `span`.
// `blocked`: the analysis' blocked launches (blocked_launches.h); null computes them.
HostWaitCap HostWaitsOnGpu(const model::Trace& trace,
                           const CorrelationIndex& index,
                           const report::AnalysisReport& r,
                           util::Interval span,
                           std::int64_t wall_ns,
                           const std::vector<BlockedLaunch>* blocked);
// The bound sentence of a GPU-side change saving `saved_ns` of the window under `cap` (Binds):
// today's gain, held to the waits, and the gain once the idle phase's fix succeeds.
// `assumed_2x`: the saving is at an assumed 2x local speedup, not a limit.
std::string CappedBoundText(const HostWaitCap& cap, std::int64_t saved_ns, bool assumed_2x);
// The evidence line of a GPU-bound window whose host waits for the GPU less than a statement's
// gain: beyond that, the host's own time must fall too.
std::string HostCloseBehindText(const HostWaitCap& cap);
// A change that cuts launches in a window whose host is close behind the GPU: fully successful,
// the host's own time falls too and the GPU's idle in the window can go with it, so d's bound
// (its work removed, the idle kept) rises to the window over the GPU's busy time less that work,
// and the experiment says so (mi300: 1.54x -> 1.89x; a replay of fusion without host gaps gives
// 1.85x). Nothing for a bound at an assumed 2x.
void RaiseToFewerLaunchesCeiling(report::Diagnosis& d, const HostWaitCap& cap);
// The bound RaiseToFewerLaunchesCeiling raises d's to, or nothing where it leaves it (a change
// that keeps the launch count, a phase beside idle, waits that do not bind): the lever's sentence
// then calls its own bound the idle-kept case.
std::optional<double> FewerLaunchesCeiling(const report::Diagnosis& d, const HostWaitCap& cap);
// Holds d's bounds to what the waits give back, when they bind (HostWaitCap::Binds).
void ApplyHostWaitCap(report::Diagnosis& d, const HostWaitCap& cap);
// The time a statement's ranked bound (its gain at an assumed 2x, else its limit) saves of
// `wall_ns`.
std::int64_t SavedByBound(const report::Diagnosis& d, std::int64_t wall_ns);
// The GPU half of a window whose main statement is idle time: empty unless computation covers
// at least 30% of the window.
// `base`: the main statement's context (vendor, framework, whether shapes are recorded).
std::vector<report::Diagnosis> SecondaryGpuStatement(const model::Trace& trace,
                                                     const DeviceRoofsTable& roofs,
                                                     const CorrelationIndex& index,
                                                     const report::Diagnosis& main,
                                                     const report::AnalysisReport& r,
                                                     double compute_share,
                                                     std::int64_t wall_ns,
                                                     const ExperimentContext& base);
// An unknown-class kernel statement in a flat profile (the dominant kernel under 20% of the
// critical kernel time) is widened to the top kernels together: its fraction, bound and the
// experiment's kernels (context.flat_kernels, flat_names). `wall_ns`: the steady-state window.
void WidenToFlatProfile(report::Diagnosis& d,
                        const report::AnalysisReport& r,
                        std::int64_t wall_ns,
                        ExperimentContext& context);
// A measured compute- or memory-bound dominant kernel with close runners-up measured in the same
// class: the statement covers them together, bounded at their roofline floors
// (diagnosis_flat_profile.cc).
void WidenToClassPeers(report::Diagnosis& d,
                       const report::AnalysisReport& r,
                       std::int64_t wall_ns,
                       ExperimentContext& context);

// Collective instances grouped by call site (kernel name and the innermost annotation range
// around the launch): the sites whose instances spread (the longest at least 4x the median) as
// the sign of waits for other ranks, the tight ones beside them; "" when the time above the
// spreading sites' medians is under a tenth of the collectives' (collective_sites.cc).
// One rank of a multi-rank job whose collectives wait for other ranks (`wait`, PeerWait) for 5% of
// the window or more: what it saves alone lengthens those waits, so the statement's bound holds
// only if every rank gains; sets peer_wait_ns and bound_speedup_this_rank_only, with evidence.
void BoundThisRankOnly(report::Diagnosis& d,
                       const PeerWait& wait,
                       const report::AnalysisReport& r,
                       std::int64_t window_ns);

// A communication-bound statement whose collectives spend a quarter or more of its exposed time
// above their sites' fastest calls (`excess_ns`, CollectiveEvidence): waiting, not transfer, so a
// hypothesis, said in its evidence.
void HypothesisWhenCollectivesWait(report::Diagnosis& d,
                                   std::int64_t excess_ns,
                                   std::int64_t exposed_ns);

// The collectives grouped by call site (kernel name, the innermost annotation range around the
// launch, the message size within 2x), read once for both: the sites whose instances spread as
// the sign of waits for other ranks, the tight ones beside them ("" when none is judged), and
// this rank's least wait for the others (collective_sites.cc).
CollectiveEvidence CollectiveEvidenceOf(const model::Trace& trace,
                                        const CorrelationIndex& index,
                                        const report::AnalysisReport& r);

// The blocking sync calls by the operator around them (sync_callers.cc).
ExperimentContext::SyncCallers SyncCallersOf(const model::Trace& trace,
                                             const IdleAttribution& idle,
                                             const util::Interval& span);

// The innermost Python frame outside PyTorch around the first single-process DataLoader fetch:
// the code that iterates the loader, where its num_workers is set; "" without frames or fetch
// (loader_owner.cc).
std::string LoaderOwner(const model::Trace& trace);

// Gradients zeroed with kernels by optimizer.zero_grad (its "Optimizer.zero_grad#..." operator
// around aten::zero_ / aten::fill_): the evidence sentence and the GPU idle inside those calls,
// which zero_grad(set_to_none=True) gives back at most; the calls in `span` (the steady
// window), empty without them (zero_grad.cc).
struct ZeroGrad {
  std::int64_t idle_ns = 0;
  std::string text;
};
ZeroGrad ZeroGradWork(const model::Trace& trace,
                      const IdleAttribution& idle,
                      const util::Interval& span,
                      std::int64_t window_ns);

// The Python frames of thread `thread` (an index into Trace::frame_threads) that enclose
// [start, end], built-ins ("<built-in ...>") left out, innermost first (enclosing_frames.cc).
std::vector<const model::PythonFrame*> EnclosingFrames(const model::Trace& trace,
                                                       std::uint32_t thread,
                                                       model::TimeNs start,
                                                       model::TimeNs end);
// For a Python built-in named by self time, the two innermost enclosing frames that are not
// built-ins around its longest instance ("in scipy/ndimage/_interpolation.py(739): zoom, from
// ..."), where the lever lies; "" for other names or without frames (enclosing_frames.cc).
std::string BuiltinCallers(const model::Trace& trace, std::string_view name);

// Any coverage gap, as evidence (the launch-queue sentence has its own line: diagnosis.queue).
void AddQueueAndCoverage(report::Diagnosis& d, const IdleAttribution& idle);

// The parts of the window's diagnosis (DiagnoseWindow, diagnosis.cc) kept in files of their own.
// The idle half of a window whose main statement is its GPU work: from this share of the steady
// window on, the idle time gets its own statement (its class, experiment and causal bound).
inline constexpr double kSecondaryIdleShare = 0.15;
// A wait finding that bounds at least this much (about 5% of the window in GPU idle it causes) is
// worth its own statement even under kSecondaryIdleShare of idle.
inline constexpr double kMaterialWaitBound = 1.05;
// Shares of kernel time in launch-class kernels, and in small kernels run as graph nodes
// (diagnosis_dominant_work.cc).
double LaunchClassShare(const report::AnalysisReport& r);
double SmallGraphNodeShare(const report::AnalysisReport& r);
// The triage's last step: the dominant work's class (diagnosis_dominant_work.cc).
void ClassifyDominantWork(const model::Trace& trace,
                          const DeviceRoofsTable& roofs,
                          report::Diagnosis& d,
                          const report::AnalysisReport& r,
                          const IdleAttribution& idle,
                          std::string& subject,
                          ExperimentContext& context);
// The idle statement beside a GPU one, the largest wait bound, and the ranking of the two
// statements (diagnosis_secondary.cc).
std::vector<report::Diagnosis> SecondaryIdleStatement(const model::Trace& trace,
                                                      const report::Diagnosis& main,
                                                      const report::AnalysisReport& r,
                                                      const IdleAttribution& idle,
                                                      const ExperimentContext& base);
double LargestWaitBound(const report::AnalysisReport& r);
void RankStatements(report::Diagnosis& d);
// Facts of the whole window: its dominant phase and the launch queue against the idle time
// (diagnosis_window_facts.cc).
void AddPhase(report::Diagnosis& d, const model::Trace& trace, const report::AnalysisReport& r);
void QueueAgainstIdle(report::Diagnosis& d, double queued_idle_share);
void QueueAgainstHostPhases(report::Diagnosis& d, const IdleAttribution& idle);
// The launch queue's sentence, from its verdict and numbers (the timeline's, and those the two
// functions above add): the one place it is written.
// `window_ns`: the steady-state window, against which blocked launches are material (a full
// queue is always said).
std::string QueueSentence(const report::LaunchQueue& q, std::int64_t window_ns);

// The host's records of what it did in the idle, for SetIdleClass (diagnosis_idle_evidence.cc).
// The model's forward: the outermost module frames (nn.Module) of the class that holds the most
// time, merged. vLLM captures this in its CUDA graphs, not the input preparation, sampling or
// logits around it. Empty without module frames.
struct ModelForward {
  std::string module;
  std::vector<util::Interval> spans;
};
ModelForward FindModelForward(const model::Trace& trace);
// Of the host gaps after each span of the forward (until the next span, the host's next wait for
// the GPU, or `window_end`), the part its GPU work (the span less all idle in it) could run
// beside once a captured graph launches the forward at once.
std::int64_t IdleBesideForwardGpu(const std::vector<util::Interval>& forward,
                                  const IdleAttribution& idle,
                                  std::int64_t window_end);
// Whether PyTorch's single-process DataLoader iterator appears under any recorded name.
bool HasSingleProcessLoader(const model::Trace& trace);
// The host time in the gaps that CPU samples explain (0 with too few samples).
std::int64_t SampledHostNs(const IdleAttribution& idle);
// What the host did in the gaps no CUDA call covers: host work and CPU samples, as evidence.
void AddHostWorkEvidence(const model::Trace& trace,
                         report::Diagnosis& d,
                         const IdleAttribution& idle);
// How much of `gaps` the recorded host work named `names` covers with everything it calls (the
// union of its host ops, ranges, Python frames and OS calls of those names): what making only the
// named work free gives back, beside the bound over all host work in the gaps.
std::int64_t NamedHostWorkIn(const model::Trace& trace,
                             const std::vector<std::string>& names,
                             const std::vector<util::Interval>& gaps);
// Each blocking MPI call name's calls inside `steady` (operators and NVTX ranges), as a clause:
// tight (the median within 1.2x the fastest: the transfer's own time) or spread (the time above
// the fastest, the sign of waiting for the other rank). "" without such calls.
std::string BlockingMpiSpread(const model::Trace& trace, const util::Interval& steady);
// A loader-paced window's starved steps against the fed ones, as evidence.
void AddStarvedSteps(report::Diagnosis& d, const report::AnalysisReport& r);

}  // namespace gpuperf::analysis
