// The texts the advice per class is built from: the syncs in a step and what copies to the device
// cost, a single-process DataLoader, host work inside repeated runs, the kernels a statement
// covers, the faster arithmetic left, and the vendor's tools. Part of the next experiment
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

// What the copies to the device cost over the steady window: the host time their calls block,
// the GPU idle those calls cause next to them and their copies' time with no kernel beside them.
// Pinned, prefetched copies give back at most the last two (k2106: 1.53 ms of idle and 15.4 ms
// of copies beside 16.6 ms of blocked host time, at most 1.03x), or, where the GPU waits for the
// host, the host time the waits delay the work after them by (run forward), when that is more.
std::string ToDeviceCostText(const ExperimentContext::SyncCallers& c, std::int64_t window_ns) {
  if (c.to_device_host_ns <= 0 || window_ns <= 0)
    return "";
  const std::int64_t both = c.to_device_idle_ns + c.to_device_exposed_copy_ns;
  const std::int64_t back = std::max(both, c.to_device_caused_ns);
  return fmt::format(
      " (in the steady window their copy and sync calls block the host {} ({} of it) and cause "
      "{} of GPU idle next to them, and their copies run {} with no kernel beside them: pinned "
      "buffers with a prefetch on another stream give back at most both{}, {:.2f}x (Amdahl; "
      "trace: API calls and copies))",
      Ms(c.to_device_host_ns),
      Pct(Fraction(c.to_device_host_ns, window_ns)),
      Ms(c.to_device_idle_ns),
      Ms(c.to_device_exposed_copy_ns),
      back > both ? fmt::format(", or {} where the GPU waits for the host and the waits delay "
                                "the host's later work and the GPU work it launches",
                                Ms(back))
                  : std::string(),
      AmdahlLimit(Fraction(back, window_ns)));
}

}  // namespace

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

}  // namespace gpuperf::analysis
