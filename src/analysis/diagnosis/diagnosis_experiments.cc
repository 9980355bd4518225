// The one next experiment per bottleneck class, and the measurement that would falsify it
// (docs/method.md, "The bottleneck statement": one ranked next experiment and the measurement
// that would falsify the hypothesis). Texts name the subject and carry the Amdahl bound the
// diagnosis computed.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "analysis/diagnosis/diagnosis.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/findings/findings.h"
#include "analysis/predictions/amdahl.h"

namespace gpuperf::analysis {
namespace {

// What the copies to the device cost over the steady window: the host time their calls block,
// the GPU idle those calls cause and their copies' time with no kernel beside them. Pinned,
// prefetched copies give back at most the last two (k2106: 1.53 ms of idle and 15.4 ms of
// copies beside 16.6 ms of blocked host time, at most 1.03x).
std::string ToDeviceCostText(const ExperimentContext::SyncCallers& c, std::int64_t window_ns) {
  if (c.to_device_host_ns <= 0 || window_ns <= 0)
    return "";
  std::int64_t back = c.to_device_idle_ns + c.to_device_exposed_copy_ns;
  return fmt::format(
      " (in the steady window their copy and sync calls block the host {} ({} of it) and cause "
      "{} of GPU idle, and their copies run {} with no kernel beside them: pinned buffers with a "
      "prefetch on another stream give back at most both, {:.2f}x (Amdahl; trace: API calls and "
      "copies))",
      Ms(c.to_device_host_ns),
      Pct(Fraction(c.to_device_host_ns, window_ns)),
      Ms(c.to_device_idle_ns),
      Ms(c.to_device_exposed_copy_ns),
      AmdahlLimit(Fraction(back, window_ns)));
}

// A step that blocks the host on the GPU several times cannot be captured whole: a graph holds no
// host wait (hta trace_diff/control: 10 stream synchronizations a step, around data-dependent
// all_to_all splits).
std::string SyncsInStepText(const ExperimentContext& context) {
  if (context.steps < 2 || context.blocking_syncs < 2 * context.steps)
    return "";
  // What they wait for, by the operator around each sync call; the remedy of each.
  const ExperimentContext::SyncCallers& c = context.sync_callers;
  std::string callers;
  auto add = [&](std::int64_t n, std::string_view what) {
    if (n > 0)
      callers += fmt::format("{}{} {}", callers.empty() ? "" : "; ", n, what);
  };
  add(c.copies_to_device,
      fmt::format("inside copy operators (aten::copy_, aten::to) that copy to the device: a copy "
                  "from pageable host memory waits for the GPU, so pin those host tensors "
                  "(DataLoader(pin_memory=True), tensor.pin_memory()) and copy with .to(device, "
                  "non_blocking=True){}",
                  ToDeviceCostText(c, context.window_ns)));
  add(c.copies_to_host,
      "inside copy operators that copy to the host, whose data the host reads: where it needs "
      "the values at once (split sizes for a following all-to-all, a shape) they stay, else "
      "read them later in the step or less often");
  add(c.scalar_reads, "read a scalar (.item()), with the same choice");
  add(c.data_dependent,
      "inside operators whose output size depends on the data (nonzero, masked_select, "
      "unique): give them a static size where the operator allows one");
  return fmt::format(
      " The window holds {} host-blocking synchronizations over its {} steps ({:.0f} a step): a "
      "graph cannot hold a host wait, so only the stretches between them can be captured; {}.",
      context.blocking_syncs,
      context.steps,
      static_cast<double>(context.blocking_syncs) / static_cast<double>(context.steps),
      callers.empty()
          ? std::string("remove the ones that are not needed (.item(), data-dependent sizes) first")
          : fmt::format("of the {} sync calls, {}; remove the ones that are not needed first",
                        c.calls,
                        callers));
}

// The advice sends a GEMM-shaped FP32 kernel to a library GEMM on tensor cores: its bound is at
// the TF32 tensor roof, not at the FP32 floor it was classified against.
bool AdvisesTensorCores(const report::Diagnosis& d, const ExperimentContext& context) {
  if (!context.tensor_local_speedup || !context.matrix_shaped || d.dominant_kind != "kernel")
    return false;
  const std::string& c = d.bottleneck;
  return c == "compute_bound" ||
         ((c == "cache_bound" || c == "latency_bound") && !context.no_reuse.empty());
}

// Under this, moving the host work beside the GPU is not the lever worth naming first.
constexpr double kOverlapPays = 1.05;

// Host work moved beside the GPU still takes its time: the wall is then at least the larger of
// it and the rest of the window, and the first input's preparation (the idle before the first GPU
// work) overlaps nothing. Not for a multi-process DataLoader: its workers already run beside the
// GPU, and the main thread's time in the fetch is waiting for them, not work to overlap.
// window / (lead + max(host - lead, window - host)); a lead of 0 is a loop over inputs, where
// the next input's preparation overlaps this one's GPU work.
double BesideGpu(std::int64_t window_ns, std::int64_t host_ns, std::int64_t lead_ns) {
  double w = static_cast<double>(window_ns);
  double h = static_cast<double>(host_ns);
  double lead = static_cast<double>(lead_ns);
  return w / (lead + std::max(h - lead, w - h));
}

// A single-process DataLoader: workers prepare the next batch beside the GPU. Where a library
// iterates the loader, num_workers is that library's setting (Hugging Face's chunked pipelines,
// zero-shot detection among them, allow one worker: transformers' ChunkPipeline.get_iterator).
std::string SingleProcessLoaderText(const ExperimentContext& context) {
  if (!context.single_process_loader)
    return "";
  if (context.loader_owner.empty())
    return " The trace's DataLoader runs in the launching process (_SingleProcessDataLoaderIter, "
           "num_workers=0): DataLoader(num_workers>0, pin_memory=True) prepares the next batch "
           "while the GPU runs this one.";
  // A Hugging Face pipeline builds its own DataLoader on every call: num_workers is its call's
  // argument, pin_memory is not a setting there.
  if (context.loader_owner.starts_with("transformers/pipelines/"))
    return fmt::format(
        " The trace's DataLoader runs in the launching process (_SingleProcessDataLoaderIter, "
        "num_workers=0) and {} iterates it (trace: Python frames): a Hugging Face pipeline builds "
        "that loader itself on every call, so the setting is the call's num_workers (its chunked "
        "pipelines, zero-shot detection among them, run at most one worker, started anew with "
        "each call; pin_memory is not a setting there); one worker prepares the next chunk while "
        "the GPU runs this one.",
        context.loader_owner);
  return fmt::format(
      " The trace's DataLoader runs in the launching process (_SingleProcessDataLoaderIter, "
      "num_workers=0) and {} iterates it (trace: Python frames): where that code builds the "
      "loader, num_workers>0 (with pin_memory=True) prepares the next batch while the GPU runs "
      "this one.",
      context.loader_owner);
}

// Host work inside repeated runs of one input goes with them: the input check comes first.
std::string InRepeatsText(const ExperimentContext& context) {
  if (context.host_in_repeats_ns <= 0 || context.host_work_ns <= 0)
    return "";
  return fmt::format(
      " {} of the idle this host work fills lies inside the repeated runs that the input check "
      "above names: computing their shared work once removes that part with them.",
      Ms(std::min(context.host_in_repeats_ns, context.host_work_ns)));
}

std::optional<double> OverlapBound(const report::Diagnosis& d, const ExperimentContext& context) {
  if (d.bottleneck != "host_bound" || d.status != "finding" || !context.host_outside_ops ||
      InputPipelineLever(d, context) || context.host_work_ns <= 0 ||
      context.window_ns <= context.host_work_ns)
    return std::nullopt;
  return BesideGpu(context.window_ns, context.host_work_ns, context.lead_ns);
}

// A bf16/fp16 tensor-core kernel on a GPU with FP8 tensor cores: FP8 is the faster precision left.
bool AdvisesFp8(const ExperimentContext& context) {
  return context.roof_unit == "tensor" && context.fp8_tensor_cores &&
         (context.roof_precision == "bf16" || context.roof_precision == "fp16");
}

std::string BoundText(const report::Diagnosis& d, const ExperimentContext& context) {
  if (!d.bound_speedup || !std::isfinite(*d.bound_speedup))
    return "";
  if (const auto& cap = context.host_wait_cap;
      cap && (d.dominant_kind == "kernel" || d.dominant_kind == "operators") &&
      (cap->beside_idle_phase || KeepsLaunchCount(d))) {
    std::int64_t saved = SavedByBound(d, cap->wall_ns);
    if (cap->Binds(saved))
      return CappedBoundText(*cap, saved, d.bound_speedup_at_2x.has_value());
  }
  if (context.class_peers > 0) {
    double f = context.class_peer_fraction;
    const bool fp8 = AdvisesFp8(context) && context.class_peer_half_floor_bound;
    return fmt::format(
        " If it succeeds fully, these kernels at their roofline floors, the whole program is at "
        "most {:.2f}x faster (Amdahl over their floors{}; {} only if they took no time at all).{}",
        *d.bound_speedup,
        fp8 ? fmt::format("; at FP8's roof, twice theirs by the datasheet, {:.2f}x, an upper "
                          "bound that counts no conversion kernels",
                          *context.class_peer_half_floor_bound)
            : "",
        f < 1.0 ? fmt::format("{:.2f}x", 1.0 / (1.0 - f)) : std::string("unbounded"),
        context.class_peer_rest.empty()
            ? ""
            : fmt::format(" They are near their roofs, so little is left in them: {}; the "
                          "larger levers lie there, in the other kernels and the GPU idle.",
                          context.class_peer_rest));
  }
  if (context.roof_local_speedup) {  // name the floor, so the bound matches the Amdahl table's
    double f = d.dominant_fraction;
    std::string limit =
        f < 1.0 ? fmt::format("{:.2f}x", 1.0 / (1.0 - f)) : std::string("unbounded");
    if (AdvisesTensorCores(d, context))
      return fmt::format(
          " If it succeeds fully, the kernel at the TF32 tensor roof ({:.2f}x faster locally{}; "
          "{:.2f}x at its FP32 floor on CUDA cores{}), the whole program is at most {:.2f}x "
          "faster (Amdahl; {} only if the kernel took no time at all).",
          *context.tensor_local_speedup,
          context.no_reuse.empty() ? ""
                                   : ", its FLOPs alone: a tiled GEMM moves far fewer DRAM bytes "
                                     "than this kernel",
          *context.roof_local_speedup,
          context.no_reuse.empty() ? "" : ", which the on-chip reuse alone reaches",
          *d.bound_speedup,
          limit);
    return fmt::format(
        " If it succeeds fully, the kernel at its roofline floor ({:.2f}x faster locally), the "
        "whole program is at most {:.2f}x faster (Amdahl; {} only if the kernel took no time at "
        "all).",
        *context.roof_local_speedup,
        *d.bound_speedup,
        limit);
  }
  if (context.flat_kernels > 0 && d.bound_speedup_at_2x)
    return fmt::format(
        " If the measurement leads to these kernels running 2x faster, the whole program is "
        "{:.2f}x faster (Amdahl at an assumed 2x); at most {:.2f}x only if they took no time.",
        *d.bound_speedup_at_2x,
        *d.bound_speedup);
  std::string text =
      fmt::format(" If it succeeds fully the whole program is at most {:.2f}x faster (Amdahl).",
                  *d.bound_speedup);
  if (const std::optional<double>& overlapped = d.bound_speedup_overlapped)
    text += context.lead_ns > 0
                ? fmt::format(
                      " Overlapped with the GPU work without getting faster, it gives at most "
                      "{:.2f}x (window / (the {} before the first GPU work, which nothing "
                      "overlaps, + max(the rest of that host work, the rest of the window))).",
                      *overlapped,
                      Ms(context.lead_ns))
                : fmt::format(
                      " Overlapped with the GPU work without getting faster, it gives at most "
                      "{:.2f}x (window / max(that host work, the rest)).",
                      *overlapped);
  return text;
}

// "the dominant kernel", or the top kernels of one measured class the statement covers
// (WidenToClassPeers).
std::string KernelsOfStatement(const std::string& kernel, const ExperimentContext& context) {
  return context.class_peers > 0
             ? fmt::format("the top {} kernels ({})", context.class_peers, context.flat_names)
             : kernel;
}

// The faster arithmetic a compute-bound kernel has left, from the precision and unit its
// counters measured: a kernel already on bf16/fp16 tensor cores is not told to use them.
std::string FasterArithmetic(const ExperimentContext& context) {
  const std::string& p = context.roof_precision;
  if (context.roof_unit == "tensor" && (p == "bf16" || p == "fp16"))
    return fmt::format(
        "{} already run{} {} on tensor cores, so what is left is {}fewer FLOPs (smaller or "
        "pruned layers, less recomputation, no redundant work)",
        context.class_peers > 0 ? "they" : "it",
        context.class_peers > 0 ? "" : "s",
        p,
        AdvisesFp8(context) ? "FP8 where accuracy allows (its tensor cores double the BF16/FP16 "
                              "rate; Transformer Engine, torchao), or "
                            : "");
  if (context.roof_unit == "tensor" && (p == "fp8" || p == "int8"))
    return "it already runs the fastest tensor-core precision, so what is left is fewer FLOPs";
  if (context.roof_unit == "tensor" && p == "tf32")
    return "BF16/FP16 tensor cores (autocast) where accuracy allows, twice the TF32 rate, or "
           "fewer FLOPs";
  return "a faster unit or precision (tensor cores, TF32/BF16 where accuracy allows) or fewer "
         "FLOPs";
}

std::string Quoted(const std::string& subject, const char* fallback) {
  return subject.empty() ? std::string(fallback) : "\"" + subject + "\"";
}

struct Advice {
  std::string experiment;
  std::string falsified_by;
  std::string missing;  // for a hypothesis
};

// The vendor's tools: Nsight Compute and SASS on NVIDIA, rocprofv3 / rocprof-compute and the
// ISA on AMD.
struct Tools {
  std::string profiler, bytes_counters, flop_counters, roofline, matrix_isa, stalls, graph;
};

Tools ToolsFor(bool amd) {
  if (amd)
    return {"rocprof-compute (Omniperf)",
            "rocprofv3 --pmc FETCH_SIZE WRITE_SIZE with the kernel's duration",
            "rocprofv3 --pmc SQ_INSTS_VALU_FLOPS_* / SQ_INSTS_MFMA_* counters",
            "rocprof-compute profile --roof-only (or gpuperf analyze TRACE --counters with its "
            "counters)",
            "MFMA instructions in the kernel's ISA",
            "rocprof-compute's wavefront stall and occupancy panels",
            "a HIP graph"};
  return {"Nsight Compute",
          "Nsight Compute (dram__bytes_read.sum, dram__bytes_write.sum, gpu__time_duration.sum)",
          "Nsight Compute (the FLOP counters and sm__throughput)",
          "Nsight Compute with --set roofline (or gpuperf analyze TRACE --counters ncu.csv)",
          "HMMA/HGMMA instructions in the kernel's SASS",
          "Nsight Compute --section WarpStateStats and --section SourceCounters, with achieved "
          "occupancy (--section Occupancy)",
          "a CUDA graph"};
}

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

}  // namespace

bool InputPipelineLever(const report::Diagnosis& d, const ExperimentContext& context) {
  return d.bottleneck == "host_bound" && d.status == "finding" && context.host_outside_ops &&
         context.loader_multiprocess &&
         context.loader_ns > context.host_work_ns - context.loader_ns;  // half, no overflow
}

void SetExperiment(report::Diagnosis& d,
                   const std::string& subject,
                   const ExperimentContext& context) {
  if (d.dominant_kind == "none") {
    d.next_experiment =
        "Record GPU activity: trace the program with gpuperf baseline (or nsys -t cuda, "
        "torch.profiler with CUDA activities).";
    d.falsified_by = "Not applicable: the trace holds no GPU work.";
    d.missing_evidence = "The trace records no kernel, copy or memset.";
    return;
  }
  d.bound_speedup_overlapped = OverlapBound(d, context);  // the advice and its bound read it
  Advice advice = AdviceFor(d, subject, context);
  if (AdvisesTensorCores(d, context) && context.roof_local_speedup)
    d.bound_speedup = std::max(d.bound_speedup.value_or(1.0),
                               AmdahlSpeedup(d.dominant_fraction, *context.tensor_local_speedup));
  d.next_experiment = advice.experiment + BoundText(d, context);
  d.falsified_by = advice.falsified_by;
  if (d.status == "hypothesis")
    d.missing_evidence = advice.missing;
}

}  // namespace gpuperf::analysis
