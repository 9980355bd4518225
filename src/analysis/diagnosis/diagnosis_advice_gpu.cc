// The advice for the GPU classes (transfer, communication, memory, compute, cache, latency,
// unused tensor cores) and for a dominant kernel nothing classifies: the flat profile, or its
// measurement (steps of the advice table, diagnosis_advice.cc).
#include <fmt/format.h>

#include <cmath>

#include "analysis/diagnosis/diagnosis_advice_steps.h"
#include "analysis/findings/findings.h"

namespace gpuperf::analysis::advice {

namespace {

// The falsifier of "these kernels can be made faster" is their measured place on the roof.
constexpr const char* kFlatFalsifier =
    "The measurement: kernels at 60% or more of the DRAM bandwidth or of the compute peak that "
    "applies are already near their roof, so the 2x the bound assumes is not there, and the "
    "lever becomes less work or fewer launches, not faster kernels.";

}  // namespace

Advice TransferBound(const AdviceInput& in) {
  const std::string& subject = in.subject;
  return {fmt::format("Hide or remove the {} copies: pinned host memory, cudaMemcpyAsync on "
                      "a separate stream overlapped with kernels, or keep the data resident "
                      "on the GPU.",
                      Quoted(subject, "exposed")),
          "Exposed copy time must fall and kernels must run during copies; if copies already "
          "reach the link's bandwidth with pinned memory and cannot overlap, only fewer bytes "
          "help.",
          ""};
}

Advice CommunicationBound(const AdviceInput& /*in*/) {
  return {
      "Run gpuperf ranks over all ranks to split collective time into waiting for the "
      "last rank and transfer; then overlap communication with computation (bucketing, "
      "async collectives) or fix the straggler it names.",
      "If most collective time is waiting for a late rank, the interconnect is not the "
      "bottleneck: the straggler is.",
      ""};
}

Advice MemoryBound(const AdviceInput& in) {
  const ExperimentContext& context = in.context;
  const Tools& tools = in.tools;
  const std::string& kernel = in.kernel;
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

Advice ComputeBound(const AdviceInput& in) {
  const ExperimentContext& context = in.context;
  const Tools& tools = in.tools;
  const std::string& kernel = in.kernel;
  const std::string subject_kernels = KernelsOfStatement(kernel, context);
  return {
      fmt::format("Cut the arithmetic time of {}: {}.", subject_kernels, FasterArithmetic(context)),
      fmt::format("{} on {}: under 60% of the compute peak of {} precision falsifies "
                  "compute-bound.",
                  tools.flop_counters,
                  subject_kernels,
                  context.class_peers > 0 ? "their" : "its"),
      "The FLOPs come from a shape model, not counters; measure them."};
}

Advice NoOnChipReuse(const AdviceInput& in) {
  const ExperimentContext& context = in.context;
  const std::string& kernel = in.kernel;
  return {
      fmt::format("Give {} on-chip reuse: {}. Stage tiles of its inputs in shared memory and keep "
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

Advice LatencyBound(const AdviceInput& in) {
  const ExperimentContext& context = in.context;
  const Tools& tools = in.tools;
  const std::string& kernel = in.kernel;
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

// Its grid leaves most SMs without a block: more blocks is the lever before any change to the
// kernel's code, and the kernel then meets a roof (saxpy: 2 blocks on 108 SMs).
Advice UnderfilledGrid(const AdviceInput& in) {
  // A library's GEMM or convolution takes its grid from the problem and the algorithm it chose
  // (resnet's cuDNN wgrad on 32 blocks of 68 SMs): the lever is another algorithm or shape.
  if (in.context.matrix_shaped)
    return {fmt::format("Run {} on more blocks: its grid, which the library derives from the "
                        "problem shape and the algorithm it chose, leaves most SMs without one. "
                        "Let it choose another (torch.backends.cudnn.benchmark=True, a split-K "
                        "or stream-K GEMM), or give it more parallel work (a larger batch, "
                        "several small problems batched into one call).",
                        in.kernel),
            "The kernel's time must fall about as the SMs it fills grow, until it meets its "
            "DRAM or compute roof; if the library keeps the same grid, the shape leaves it no "
            "other algorithm.",
            ""};
  return {fmt::format("Launch {} on more blocks: its grid leaves most SMs without one. Use at "
                      "least one block per SM, better several (a grid of a few times the SM "
                      "count, cudaDevAttrMultiProcessorCount, with a grid-stride loop over the "
                      "data), or split the work (more, smaller blocks; a split-K or stream-K "
                      "GEMM).",
                      in.kernel),
          "The kernel's time must fall about as the SMs it fills grow, until it meets its DRAM "
          "or compute roof; if it does not fall, each block's work is serial (one block "
          "reducing everything) and the algorithm, not the grid, must change.",
          ""};
}

Advice TensorCoresUnused(const AdviceInput& in) {
  const Tools& tools = in.tools;
  const std::string& kernel = in.kernel;
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
Advice FlatRoutine(const AdviceInput& in) {
  const ExperimentContext& context = in.context;
  const Tools& tools = in.tools;
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
          kFlatFalsifier,
          "No counters and no byte/FLOP model cover the routine's kernels."};
}

Advice FlatKernels(const AdviceInput& in) {
  const ExperimentContext& context = in.context;
  const Tools& tools = in.tools;
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
          kFlatFalsifier,
          "No counters and no byte/FLOP model cover the top kernels."};
}

Advice MeasureDominantKernel(const AdviceInput& in) {
  const ExperimentContext& context = in.context;
  const Tools& tools = in.tools;
  const std::string& kernel = in.kernel;
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
}  // namespace gpuperf::analysis::advice
