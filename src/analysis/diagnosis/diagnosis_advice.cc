// The advice per bottleneck class: the next experiment, the measurement that would falsify it
// and the evidence a hypothesis lacks (AdviceFor). Part of the next experiment
// (diagnosis_experiments.cc).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analysis/diagnosis/diagnosis.h"
#include "analysis/diagnosis/diagnosis_experiments_parts.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/findings/findings.h"
#include "analysis/predictions/amdahl.h"

namespace gpuperf::analysis {

namespace {

std::string Quoted(const std::string& subject, const char* fallback) {
  return subject.empty() ? std::string(fallback) : "\"" + subject + "\"";
}

}  // namespace

Advice AdviceFor(const report::Diagnosis& d,
                 const std::string& subject,
                 const ExperimentContext& context) {
  const std::string& c = d.bottleneck;
  std::string kernel = "the dominant kernel";
  Tools tools = ToolsFor(context.amd);
  if (c == "initialization" && context.one_shot) {
    return {
        "Build a steady state to profile: one-time work (context creation, module loading, "
        "compilation, autotuning, first library calls) holds most of the window, and the "
        "program runs its work once, so no later iteration shows the steady cost. Run the "
        "work several times in one process (the compiled or cached path is then taken "
        "again) and capture only the repeats, or time them with the one-time work left "
        "out.",
        "The repeats' time per run: if it stays near this window's work, the one-time work "
        "recurs and is steady-state cost.",
        ""};
  }
  if (c == "initialization") {
    return {
        fmt::format("Profile after warm-up: one-time work (context creation, module loading, "
                    "compilation, autotuning, first library calls) holds most of the window, so "
                    "it says little about the steady state. Skip the first iterations ({}) and "
                    "profile several steady steps.",
                    context.pytorch ? "torch.profiler schedule with wait and warmup steps"
                                    : "nsys --delay or a cudaProfilerStart/Stop capture range"),
        "A trace of steady steps whose one-time work is a small share: if the same work "
        "recurs every step, it is not initialization but steady-state cost.",
        ""};
  }
  if (c == "dependency_bound") {
    std::string where =
        context.stream_waits > 0
            ? fmt::format(
                  "the {} cross-stream waits (cudaStreamWaitEvent) and the streams they "
                  "wait on",
                  context.stream_waits)
            : std::string("the events and streams the queued work depends on");
    // Most of the queued idle inside graph launches: the graphs come first.
    if (context.queued_ns > 0 &&
        context.queued_in_graphs_ns > context.queued_ns - context.queued_in_graphs_ns)
      where = fmt::format(
          "{} the CUDA graph launches, which hold {} of the {} of queued idle: trace their "
          "nodes ({}) to see whether the idle holds nodes the trace lacks or event-wait and host "
          "nodes; then {}",
          context.queued_focus.empty() ? "first" : "then",
          Ms(context.queued_in_graphs_ns),
          Ms(context.queued_ns),
          context.amd ? "rocprofv3 with graph node tracing" : "nsys --cuda-graph-trace=node",
          where);
    else if (!context.queued_focus.empty())
      where = "then " + where;
    // A few long stretches ending at the same work: that dependency first.
    if (!context.queued_focus.empty())
      where = fmt::format("first what {} waits for, which ends the longest stretches; {}",
                          context.queued_focus,
                          where);
    return {
        fmt::format(
            "Find what the queued work waits for: {}{}. The whole GPU idled with the work "
            "queued, so it waited on nothing running on this GPU: an event the host records late, "
            "another device or rank, or a copy staged by the host ahead of it in the same stream "
            "(a synchronous copy through pageable memory); the trace does not record which, and "
            "only the first and the last of these are closed by host-side changes.",
            where,
            context.collectives && context.ranks
                ? "; with collectives between them, compare the ranks (gpuperf ranks DIR): a "
                  "slower rank holds every other rank's collective"
            : context.collectives ? "; with collectives between them, the other ranks' progress"
                                  : ""),
        fmt::format("Stream-level timing around the gaps (the producer on the awaited stream, "
                    "{} or the trace's stream rows): if the awaited work ends well before the "
                    "queued work starts, the dependency is not the cause and launch latency or "
                    "the hardware scheduler is.",
                    context.amd ? "rocprofv3" : "nsys"),
        ""};
  }
  if (c == "sync_bound" && context.implicit_sync) {
    return {fmt::format("Stop the implicit synchronization of {}: pin the host buffers "
                        "(cudaHostAlloc, tensor.pin_memory()) and copy with non_blocking=True, "
                        "and read the result only where the host needs it, so that the host "
                        "queues work ahead of the GPU.",
                        Quoted(subject, "the pageable async copies")),
            "GPU idle time in gaps that overlap these copies must fall; if it does not, the "
            "host work between them is the limit (host-bound), not the copies.",
            ""};
  }
  if (c == "sync_bound") {
    return {fmt::format("Remove or defer the host-blocking synchronization {} (replace it with "
                        "events or stream waits, move reads of GPU results off the loop) so "
                        "that the host queues work ahead of the GPU.",
                        Quoted(subject, "calls")),
            "The GPU idle between the synchronizations must fall: the round trip after each and, "
            "in a loop, the idle while the host refilled the drained queue (median step time and "
            "the GPU idle per step); if it does not, the host work between synchronizations is "
            "the limit (host-bound), not the synchronization.",
            ""};
  }
  if (c == "launch_bound" && context.graphs) {
    return {
        "Fuse the short kernels: most kernels already run through graph launches (a good sign: "
        "one call each), so what is left is the kernels' own count and the launches outside "
        "the graphs.",
        "After the change, GPU idle time between those kernels must fall; if it stays with fewer "
        "kernels, launch overhead was not the cause.",
        ""};
  }
  if (c == "launch_bound") {
    return {fmt::format("Cut the number of launches on the hot path: capture the launch loop in {} "
                        "or fuse the short kernels.",
                        tools.graph),
            "After the change, GPU idle time between those kernels and the launch-call count must "
            "fall; if idle time stays with fewer launches, launch overhead was not the cause.",
            ""};
  }
  // The gaps are mostly the data loader waiting for its worker processes: the input pipeline
  // does not keep up (each batch fetched while the GPU idles).
  if (InputPipelineLever(d, context)) {
    return {fmt::format("Speed up the input pipeline: the DataLoader's fetch of the next batch "
                        "(its __next__, {} of the gaps) waits for its worker processes, which do "
                        "not keep up with the GPU. Time the loader alone over the same batches, "
                        "then raise its throughput (more num_workers, persistent_workers=True, "
                        "a larger prefetch_factor, pin_memory=True with non_blocking copies, "
                        "cheaper decoding and augmentation, or GPU-side augmentation); graphs and "
                        "launch batching would not remove it.",
                        Ms(context.loader_ns)),
            "The loader alone must deliver batches faster than one step of GPU work, and the "
            "wait in __next__ must fall with the GPU's idle share; if the loader alone is already "
            "faster, the wait comes from the hand-over (pinning, the queue) or the host thread.",
            ""};
  }
  // Most of that host work precedes the first GPU work (one call, its input prepared first):
  // beside the GPU it would overlap almost nothing, so only making it faster pays.
  if (const std::optional<double>& overlapped = d.bound_speedup_overlapped;
      c == "host_bound" && overlapped && *overlapped < kOverlapPays) {
    std::int64_t rest_ns = context.window_ns - context.host_work_ns;
    // In a loop over inputs the next input's preparation could overlap this one's GPU work,
    // which this window cannot show: the bound without the lead says what that would give.
    double across = BesideGpu(context.window_ns, context.host_work_ns, 0);
    std::string why =
        2 * context.lead_ns >= context.host_work_ns
            ? fmt::format(
                  "{} of it runs before the first GPU work; in a "
                  "loop over inputs, preparing the next input while the GPU runs this "
                  "one would give at most {:.2f}x (window / max(that host work, the "
                  "rest))",
                  Ms(context.lead_ns),
                  across)
            : fmt::format("the rest of the window, which it could overlap, is {} beside its {}",
                          Ms(rest_ns),
                          Ms(context.host_work_ns));
    return {
        fmt::format("Make the host work that fills the gaps faster: {} ({}). Moved beside the "
                    "GPU in this window it would overlap almost nothing: {}. {}, so graphs and "
                    "launch batching would not remove it.",
                    context.host_work_names.empty() ? std::string("the recorded host work")
                                                    : context.host_work_names,
                    "a GPU or vectorised implementation, or less of it: smaller or fewer inputs",
                    why,
                    context.pytorch ? "It runs outside the framework operators"
                                    : "It is not CUDA dispatch"),
        "The named host work's time before and between the GPU work must fall, and the "
        "window with it; if it falls and the window does not, something else holds it.",
        ""};
  }
  if (c == "host_bound" && d.status == "finding" && context.host_outside_ops) {
    return {fmt::format("Move the host work that fills the gaps off the launching thread, or make "
                        "it faster: {} ({}). {}, so graphs and launch batching would not remove "
                        "it.{}",
                        context.host_work_names.empty() ? std::string("the recorded host work")
                                                        : context.host_work_names,
                        context.pytorch ? "a DataLoader worker or another thread or process "
                                          "overlapped with the GPU, a GPU or vectorised "
                                          "implementation"
                                        : "another thread overlapped with the GPU, non-blocking "
                                          "calls (asynchronous I/O, MPI_Isend/MPI_Irecv), a GPU "
                                          "or vectorised implementation",
                        context.pytorch ? "It runs outside the framework operators"
                                        : "It is not CUDA dispatch",
                        SingleProcessLoaderText(context) + InRepeatsText(context)),
            "The named host work's time in the gaps must fall and the GPU's idle share with it; "
            "if the GPU stays idle while that work runs elsewhere, something else holds it.",
            ""};
  }
  if (c == "host_bound" && d.status == "finding") {
    return {
        context.graphs
            ? "Cut the host time between GPU work in the framework operators that fill the gaps: "
              "batch more work per step, or move data preparation off the launching thread (the "
              "launches already run through graphs)."
        : context.vllm
            // vLLM captures its own graphs: the knob is its eager mode, not torch.compile's.
            ? "Cut the host time between GPU work in the framework operators that fill the gaps: "
              "run vLLM with its CUDA graphs (without enforce_eager, with capture sizes that cover "
              "this batch in its compilation config), then time the same request without the "
              "profiler."
            : fmt::format("Cut the host time between GPU work in the framework operators that "
                          "fill the gaps: capture the step in {}{}, batch more work per launch, or "
                          "move data preparation off the launching thread.{}{}",
                          tools.graph,
                          // reduce-overhead captures the compiled module: a training step's
                          // optimizer step and zero_grad stay eager unless compiled as well.
                          context.pytorch ? " (torch.compile mode=\"reduce-overhead\", or "
                                            "torch.cuda.graph around the whole step; in training, "
                                            "compile or capture the optimizer step too)"
                                          : "",
                          SyncsInStepText(context),
                          context.zero_grad.empty()
                              ? std::string()
                              : " The cheapest part first: " + context.zero_grad + "."),
        "Host operator time in the gaps must fall and the GPU's idle share with it; if the "
        "GPU stays idle with less host work, something else (a wait the trace does not "
        "record) holds it.",
        ""};
  }
  if (c == "host_bound") {
    // Never ask for what the input holds: with CPU samples, the sampled functions are named
    // and only ranges around the host code are asked for.
    std::string what =
        context.cpu_samples
            ? "NVTX ranges around the host code between the GPU work: the trace's CPU samples "
              "name functions, not the program steps they serve"
        : context.pytorch
            ? "CPU sampling, NVTX or framework ranges around data loading, Python and I/O"
            : "CPU sampling and NVTX ranges around the host code between the GPU work, such as "
              "I/O, setup and MPI";
    return {
        fmt::format("Profile the host over the idle stretches ({}) and move the work found there "
                    "off the critical path (overlap it with GPU work, prefetch, run it "
                    "asynchronously).",
                    what),
        "Host-side ranges over the gaps: if the host was waiting on the GPU or idle itself "
        "during them, the program is not host-bound.",
        !context.host_sampled_names.empty()
            ? fmt::format("No recorded host work covers most of the gaps; CPU samples put the "
                          "host in {} there (samples: an estimate), which ranges around the "
                          "code that calls them would confirm.",
                          context.host_sampled_names)
        : context.cpu_samples
            ? "The trace shows no CUDA call in the gaps and its CPU samples fall outside them, "
              "so what the host did instead is not recorded; host-side ranges over the gap "
              "windows would show it."
            : "The trace shows no CUDA call in the gaps, not what the host did instead; "
              "host-side ranges or CPU samples over the gap windows would confirm it."};
  }
  if (c == "transfer_bound") {
    return {fmt::format("Hide or remove the {} copies: pinned host memory, cudaMemcpyAsync on "
                        "a separate stream overlapped with kernels, or keep the data resident "
                        "on the GPU.",
                        Quoted(subject, "exposed")),
            "Exposed copy time must fall and kernels must run during copies; if copies already "
            "reach the link's bandwidth with pinned memory and cannot overlap, only fewer bytes "
            "help.",
            ""};
  }
  if (c == "communication_bound") {
    return {
        "Run gpuperf ranks over all ranks to split collective time into waiting for the "
        "last rank and transfer; then overlap communication with computation (bucketing, "
        "async collectives) or fix the straggler it names.",
        "If most collective time is waiting for a late rank, the interconnect is not the "
        "bottleneck: the straggler is.",
        ""};
  }
  if (c == "memory_bound") {
    const std::string subject_kernels = KernelsOfStatement(kernel, context);
    return {fmt::format("Reduce the DRAM bytes of {}: fuse {} with {} producer or consumer, "
                        "use a smaller data type, or reuse data from cache.",
                        subject_kernels,
                        context.class_peers > 0 ? "them" : "it",
                        context.class_peers > 0 ? "their" : "its"),
            fmt::format("{} on {}: achieved bandwidth under 60% of the DRAM peak, or time that "
                        "does not fall with the bytes, falsifies memory-bound.",
                        tools.bytes_counters,
                        subject_kernels),
            "The bytes come from a shape model, not counters; measure them."};
  }
  if (c == "compute_bound") {
    const std::string subject_kernels = KernelsOfStatement(kernel, context);
    return {fmt::format(
                "Cut the arithmetic time of {}: {}.", subject_kernels, FasterArithmetic(context)),
            fmt::format("{} on {}: under 60% of the compute peak of {} precision falsifies "
                        "compute-bound.",
                        tools.flop_counters,
                        subject_kernels,
                        context.class_peers > 0 ? "their" : "its"),
            "The FLOPs come from a shape model, not counters; measure them."};
  }
  if ((c == "cache_bound" || c == "latency_bound") && !context.no_reuse.empty()) {
    return {fmt::format(
                "Give {} on-chip reuse: {}. Stage tiles of its inputs in shared memory and keep "
                "a block of outputs per thread in registers, so that each loaded value feeds "
                "many FMAs{}; l1tex__t_bytes.sum also counts local memory, so rule out register "
                "spills first (Nsight Compute --section MemoryWorkloadAnalysis).",
                kernel,
                context.no_reuse,
                context.matrix_shaped
                    ? "; for this GEMM-shaped kernel a library GEMM (cuBLAS, CUTLASS) does both, "
                      "on tensor cores (TF32/BF16/FP16) where accuracy allows"
                    : ""),
            "The cache bytes (l1tex__t_bytes.sum, lts__t_bytes.sum) and the duration after the "
            "change: the FLOPs per cache byte must rise well above 1 and the time fall with "
            "them; if the traffic falls and the time does not, the cache path was not the "
            "limit and the warp stalls (--section WarpStateStats) come next.",
            "The cache units' throughput against their peak (Nsight Compute --section "
            "SpeedOfLight and MemoryWorkloadAnalysis: l1tex__throughput, lts__throughput) and the "
            "warp stalls (--section WarpStateStats: lg_throttle, mio_throttle) would show whether "
            "the cache path is the limit."};
  }
  if (c == "latency_bound") {
    // Blocks beyond a few waves add no parallelism: never advise a larger grid then.
    std::string more_work =
        context.min_waves && *context.min_waves >= kManyWaves
            ? fmt::format(
                  "; its grid already takes at least {:.0f} waves (blocks over SMs x "
                  "resident blocks per SM), so a larger grid adds nothing: more "
                  "independent work per thread (several outputs each, unrolled loops), "
                  "or fewer registers per thread if occupancy is low",
                  std::floor(*context.min_waves))
            : std::string(
                  "; more independent work per compute unit (larger grid, fewer "
                  "registers) if occupancy is low");
    return {fmt::format("Find what stalls {}: {} (warp stall reasons, the instructions that "
                        "stall, achieved occupancy){}.",
                        kernel,
                        tools.stalls,
                        more_work),
            "If achieved occupancy is near theoretical and the dominant stall is not a "
            "dependency or memory-latency stall, more parallelism will not help.",
            "Both roofs are modeled; counters would confirm the kernel is under both."};
  }
  if (c == "tensor_cores_unused") {
    return {fmt::format("Make {} run on tensor cores: allow TF32/BF16/FP16 math, align the "
                        "matrix dimensions to multiples of 8 (16 for FP8/INT8), or call the "
                        "cuBLAS/cuDNN path.",
                        kernel),
            fmt::format("After the change the kernel must show {} and its time must fall; matrix "
                        "instructions without a speedup mean it was not compute-limited.",
                        tools.matrix_isa),
            ""};
  }
  // The byte/FLOP model the input's own recorder can give: shapes in a PyTorch trace; elsewhere
  // a user model file (per-launch formulas over the launch geometry).
  // The falsifier of "these kernels can be made faster" is their measured place on the roof.
  const char* flat_falsifier =
      "The measurement: kernels at 60% or more of the DRAM bandwidth or of the compute peak that "
      "applies are already near their roof, so the 2x the bound assumes is not there, and the "
      "lever becomes less work or fewer launches, not faster kernels.";
  if (!context.flat_routine.empty()) {
    return {fmt::format("Measure the work of {}'s {} kernels together (the lambdas one routine "
                        "instantiates): {}, one pass with --kernel-name-base demangled -k "
                        "regex:{}, or {} for a byte/FLOP model; no single kernel is worth "
                        "optimising alone, the routine is.",
                        context.flat_routine,
                        context.flat_kernels,
                        tools.roofline,
                        context.flat_routine,
                        context.pytorch && !context.shapes_recorded
                            ? "record shapes (PyTorch record_shapes=True)"
                            : "write their FLOPs and bytes per launch as formulas "
                              "(gpuperf analyze --model FILE)"),
            flat_falsifier,
            "No counters and no byte/FLOP model cover the routine's kernels."};
  }
  if (context.flat_kernels > 0) {
    return {fmt::format("Measure the work of the top {} kernels together ({}): {}, one pass with "
                        "-k regex: over their names, or {} for a byte/FLOP model; {}.",
                        context.flat_kernels,
                        context.flat_names,
                        tools.roofline,
                        context.pytorch && !context.shapes_recorded
                            ? "record shapes (PyTorch record_shapes=True)"
                            : "write their FLOPs and bytes per launch as formulas "
                              "(gpuperf analyze --model FILE)",
                        context.flat_peers
                            ? "they hold similar time, so the top one alone leaves the others "
                              "unexplained"
                            : "no single kernel is worth optimising alone in this flat profile"),
            flat_falsifier,
            "No counters and no byte/FLOP model cover the top kernels."};
  }
  return {fmt::format("Measure the work of {}: {}, or {} for a byte/FLOP model.",
                      kernel,
                      tools.roofline,
                      context.pytorch && !context.shapes_recorded
                          ? "record shapes (PyTorch record_shapes=True)"
                          : "write its FLOPs and bytes per launch as formulas "
                            "(gpuperf analyze --model FILE)"),
          "The measurement: a kernel at 60% or more of the DRAM bandwidth or of the compute peak "
          "that applies is already near its roof, so little of the bound is there, and the lever "
          "becomes less work or fewer launches, not a faster kernel.",
          "No counters and no byte/FLOP model cover the dominant kernel."};
}

}  // namespace gpuperf::analysis
