// The framework view of a report: GPU time by operator, category, module and step (docs/method.md,
// "Report hierarchically": kernel -> operator -> module -> step). Computed by
// src/analysis/framework, written by the report writers as report.json `operators[]`,
// `categories[]`, `modules[]`, `module_tree[]`, `steps[]` and `step_summary`; docs/metrics.md
// "Framework view" defines every figure and where it differs from TraceLens, HTA and nsys.
#pragma once

#include "gpuperf/evidence.h"
#include "gpuperf/report_vocabulary.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuperf::report {

// Calls of one operator with one input signature ("Input Dims" and "Input type" as recorded).
struct OperatorShape {
  std::string input_dims;   // raw JSON text, "" when not recorded
  std::string input_types;  // raw JSON text
  std::int64_t calls = 0;   // instances that launched GPU work directly
  std::int64_t kernel_ns = 0;
  // From the shape models (evidence "modeled") when the op and its arguments are modelled:
  // totals over `calls`, and the achieved rates over kernel_ns.
  std::optional<std::int64_t> flops;
  std::optional<std::int64_t> bytes;
  std::optional<double> achieved_flops_per_s;
  std::optional<double> achieved_bytes_per_s;
  std::string precision;  // the modelled arithmetic, "bf16"; "" without a model
  EvidenceTier evidence = EvidenceTier::kNone;  // kModeled with flops, kNone without
};

// One framework operator (PyTorch cpu_op, or an NVTX range where the input has no operators),
// aggregated by name. TraceLens' ops_summary definitions: a GPU activity belongs directly to the
// innermost operator around its launch call on the launching thread (python frames and the
// pass-through "execute" skipped); launches outside any operator form a row named after the
// launch call.
struct OperatorRow {
  std::string name;
  OperatorSource source = OperatorSource::kCpuOp;  // never kNone
  std::int64_t calls = 0;      // instances that launched GPU work directly (TraceLens `Count`)
  std::int64_t instances = 0;  // instances of the name in the trace, with or without GPU work
  // GPU time (kernels, copies, memsets) launched directly by its instances: per instance the
  // union of its activities' intervals, summed over instances (TraceLens
  // total_direct_kernel_time_sum).
  std::int64_t kernel_ns = 0;
  // The same for everything launched under its instances, summed over the instances not nested
  // in an instance of the same name (TraceLens total_subtree_kernel_time_sum, which sums over
  // launcher instances only); >= kernel_ns.
  std::int64_t subtree_kernel_ns = 0;
  // Per call (launcher instance): the direct GPU time's mean, median and sample standard
  // deviation (nsys stats definitions), for compare's per-operator statistics.
  double call_avg_ns = 0;
  double call_med_ns = 0;
  double call_stddev_ns = 0;
  std::int64_t launches = 0;        // GPU activities launched directly
  std::int64_t graph_launches = 0;  // distinct graph-launch calls made directly
  std::int64_t host_total_ns = 0;   // summed duration of its instances
  std::int64_t host_self_ns = 0;    // minus the time of child operators
  double fraction = 0;              // kernel_ns / framework total GPU time
  FrameworkCategory category = FrameworkCategory::kOther;  // see CategoryRow
  CategoryTier category_tier = CategoryTier::kNone;        // which rule decided `category`
  std::string top_kernel;  // the kernel name with most of its direct time
  std::string top_module;  // the innermost nn.Module class around most of its direct time, or ""
  std::vector<OperatorShape> shapes;  // by kernel_ns, at most a few
  std::int64_t shapes_omitted = 0;
  // As report.md shows them (not in report.json): the name, "(no operator) via
  // cudaLaunchKernel" for a launch_call row; top_kernel as a readable kernel name.
  std::string display_name;
  std::string top_kernel_readable;
};

// Every GPU activity's time in exactly one category (FrameworkCategory, report.json `name`).
// The launching operator's name decides first, the kernel name second (copies and memsets by
// their activity kind); the tiers say how much time each rule decided.
struct CategoryRow {
  FrameworkCategory category = FrameworkCategory::kOther;
  std::int64_t kernel_ns = 0;  // summed activity durations
  std::int64_t launches = 0;
  double fraction = 0;  // of the summed duration of all GPU activities
  std::int64_t by_operator_ns = 0;
  std::int64_t by_kernel_name_ns = 0;
  std::int64_t by_activity_ns = 0;
  std::vector<std::string> top_operators;  // at most three, by time
  // The same as report.md shows them (OperatorRow::display_name); not in report.json.
  std::vector<std::string> top_operators_display;
};

// One nn.Module class ("nn.Module: TimeSformerAttention_3" python frames, the instance suffix
// dropped).
struct ModuleRow {
  std::string name;
  std::int64_t calls = 0;      // outermost instances (frames not nested in the same class)
  std::int64_t kernel_ns = 0;  // summed duration of GPU work launched inside, forward+backward
  std::int64_t forward_ns = 0;
  std::int64_t backward_ns = 0;  // backward work linked to the module by autograd sequence number
  double fraction = 0;           // kernel_ns / framework total GPU time
  std::int32_t depth = 0;        // the smallest nesting depth of its instances (0 = outermost)
};

// One node of the module tree, instances aggregated by their path of classes:
// "Qwen2Model/Qwen2DecoderLayer/Qwen2Attention" holds the 24 attention instances of 24 layers.
struct ModuleTreeNode {
  std::string path;
  std::string name;  // the last path element
  std::int32_t depth = 0;
  std::int64_t calls = 0;      // module frames with this path
  std::int64_t kernel_ns = 0;  // forward work launched inside (backward: ModuleRow)
  double fraction = 0;
};

// One training or inference step (ProfilerStep#N, or a range named by --step-range).
struct StepRow {
  std::string name;
  std::int64_t start_ns = 0;     // relative to the trace window's start
  std::int64_t wall_ns = 0;      // the step range's host duration
  std::int64_t gpu_busy_ns = 0;  // union of GPU activity inside the step's window, all devices
  std::int64_t idle_ns = 0;      // wall_ns - gpu_busy_ns
  std::int64_t kernel_ns = 0;    // summed duration of GPU work launched inside the step
  std::int64_t launches = 0;
  // The busy union of the GPU work launched inside the step, wherever it ran (since 1.16.0): a
  // step's cost on the GPU when the host runs ahead and its markers shift with the queue.
  std::int64_t launched_busy_ns = 0;
  std::optional<std::int64_t> flops;  // modelled FLOPs of the operators launched inside
  // Of kernel_ns: GEMM, convolution and attention kernels (the FLOPs an MFU counts) launched by
  // operators without a FLOP model, or by none (since 1.12.0).
  std::int64_t unmodeled_math_ns = 0;
  double unmodeled_math_fraction = 0;  // of kernel_ns; 0 when that is 0 (since 1.21.0)
  // Model FLOPs utilisation: sum over modelled ops of flops / peak(precision, unit) divided by
  // wall_ns (each op against the roof of the arithmetic it runs); absent without a model or roof,
  // and when unmodeled_math_ns is over 10% of kernel_ns: a figure missing those FLOPs would
  // understate the utilisation (pytorch-kineto 2021-06 models its FC layer, not its
  // convolutions).
  std::optional<double> mfu;
};

struct StepSummary {
  std::string source;  // "ProfilerStep", or "--step-range REGEX"
  std::int64_t steps = 0;
  double median_wall_ns = 0;
  double p95_wall_ns = 0;
  double mad_wall_ns = 0;  // median absolute deviation of wall_ns
  // The first step is a warm-up outlier: more than max(3 * 1.4826 * MAD, 10% of the median)
  // above the median of the others.
  bool first_step_outlier = false;
  // Since 1.18.0: how many steps from the first are warm-up outliers (LeadingOutliers: each
  // tested so against the steps after it); 0 when the first is not one.
  std::int64_t warmup_steps = 0;
  std::optional<double> median_mfu;
  // Since 1.25.0: why there is no median_mfu when unmodelled math is the reason: the first step's
  // unmodeled_math_fraction, set when no step has an MFU, the first step has modelled FLOPs and
  // its unmodelled GEMM, convolution and attention kernels hold over 10% of its GPU time.
  std::optional<double> no_mfu_unmodeled_math_fraction;
};

// The fusion lever's units (since 1.13.0): maximal runs of consecutive kernels launched by
// elementwise and layout-copy operators on one thread, no other kernel launched between them.
// Fused, a chain still reads its largest tensor once and writes a result of that size once, in
// the narrowest floating-point type its operators' "Input type" records: the floor below is a
// lower bound on a fused chain's DRAM traffic, so the time above it bounds the gain from above.
struct ElementwiseChains {
  std::int64_t chains = 0;
  std::int64_t kernel_ns = 0;    // their elementwise and layout-copy kernels
  std::int64_t longest_ops = 0;  // operator calls in the longest chain
  // Chains with a recorded float tensor shape and a device with a DRAM bandwidth:
  std::int64_t bounded_chains = 0;
  std::int64_t bounded_kernel_ns = 0;
  std::int64_t floor_bytes = 0;  // 2 x largest tensor's elements x narrowest element size, summed
  std::int64_t floor_ns = 0;     // per chain min(kernel time, floor bytes / DRAM bandwidth), summed
};

// A learned embedding resized in the forward pass (since 1.14.0): an interpolation operator
// (aten::upsample_*) inside a module whose class names an embedding, growing a tensor whose batch
// dimension is 1 (a parameter, not a batch of inputs). Hugging Face's ViT-family models do this
// when the input holds more positions (frames, patches, tokens) than the checkpoint was built
// for: TimeSformer's time embeddings, ViT's interpolate_pos_encoding.
struct ResizedEmbedding {
  std::string module;              // the module class: "TimesformerEmbeddings"
  std::string op;                  // "aten::upsample_nearest1d"
  std::vector<std::int64_t> from;  // the positions per resized axis (the dims after N and C)
  std::vector<std::int64_t> to;    // the same axes after resizing
  std::int64_t calls = 0;
  // Positions after over positions before (the products over the axes); 0 without positions.
  double Growth() const {
    double before = 1, after = 1;
    for (std::int64_t n : from)
      before *= static_cast<double>(n);
    for (std::int64_t n : to)
      after *= static_cast<double>(n);
    return from.empty() || before <= 0 ? 0.0 : after / before;
  }
};

// One forward run several times on the same operator shapes from one loaded input (since
// 1.15.0): the outermost module class of the window's forwards has N >= 2 instances, each holding
// the same operators with the same input shapes, while the window loads its input (an image,
// video or audio file) fewer than N times. A pipeline that loops over labels, prompts or crops of
// one input (Hugging Face's zero-shot pipelines) prepares and encodes the same data each time;
// whether the runs see the same data the trace cannot show (it records shapes, not values).
struct RepeatedForward {
  // The module class that repeats whole: the outermost one ("Owlv2ForObjectDetection"), or
  // when its runs differ elsewhere (text of other lengths), the part of it that repeats with the
  // most host time, one instance in each run.
  std::string module;
  std::string within;          // the outermost class when `module` is a part of it; else ""
  std::string call;            // the innermost Python frame around all runs; "" when none
  std::int64_t runs = 0;       // the outermost class's instances
  std::int64_t operators = 0;  // operator calls in each
  std::string load;            // the load function, as its Python frame names it
  std::int64_t loads = 0;      // its calls (outermost ones), fewer than runs
  // From the end of the first run to the end of the last: the repeats with the host work between
  // them (host frame ends; the first run's GPU tail is counted in it).
  std::int64_t repeats_start_ns = 0;
  std::int64_t repeats_ns = 0;
};

// GPU work launched outside any operator from a thread that records none while another thread
// of its process does (NVTX-only recordings: PyTorch's autograd thread beside ranges on the main
// thread), per thread (since 1.19.0).
struct UnmarkedThread {
  std::int64_t pid = 0;
  std::int64_t tid = 0;
  std::int64_t launches = 0;  // GPU activities it launched
  std::int64_t gpu_ns = 0;    // their summed durations
};

struct FrameworkView {
  OperatorSource op_source = OperatorSource::kNone;  // kCpuOp, kNvtx, or kNone: neither
  std::int64_t total_gpu_ns = 0;  // summed duration of every GPU activity (categories' base)
  // Of it, activities without a launch call in the trace (orphans): no operator, module or step
  // can hold them.
  std::int64_t orphan_gpu_ns = 0;
  double orphan_fraction = 0;  // orphan_gpu_ns / total_gpu_ns; 0 when that is 0 (since 1.21.0)
  std::vector<OperatorRow> operators;       // by kernel_ns then subtree_kernel_ns, descending
  std::vector<CategoryRow> categories;      // the nine, by kernel_ns, zero rows omitted
  std::vector<ModuleRow> modules;           // by kernel_ns
  std::vector<ModuleTreeNode> module_tree;  // depth-first, nodes >= 1% of total_gpu_ns
  std::vector<StepRow> steps;
  std::optional<StepSummary> step_summary;
  ElementwiseChains elementwise_chains;
  std::vector<ResizedEmbedding> resized_embeddings;  // by growth, descending
  std::optional<RepeatedForward> repeated_forward;
  std::vector<UnmarkedThread> unmarked_threads;  // by gpu_ns, descending
  // Summed over unmarked_threads, and that GPU time's share of total_gpu_ns (0 when it is 0)
  // (since 1.20.0).
  std::int64_t unmarked_launches = 0;
  std::int64_t unmarked_gpu_ns = 0;
  double unmarked_fraction = 0;
};

}  // namespace gpuperf::report
