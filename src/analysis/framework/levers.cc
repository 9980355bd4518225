#include "analysis/framework/levers.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "analysis/core/names.h"
#include "analysis/findings/findings.h"
#include "analysis/framework/categories.h"
#include "analysis/framework/optimizer_lever.h"
#include "analysis/framework/strided_elementwise.h"
#include "analysis/kernel/device_roofs.h"
#include "analysis/kernel/readable_name.h"
#include "analysis/kernel/shape_model.h"

namespace gpuperf::analysis::framework {
namespace {

// A lever is proposed only for work of at least this share of the GPU time.
constexpr double kMinShare = 0.10;
// The local speedup the name-only AMP lever assumes for FP32 GEMMs and convolutions (its
// Fp32MathByName comment); it is said beside the bound.
constexpr double kAmpAssumedSpeedup = 2.0;

// An NVIDIA GPU of compute capability 7.0 or later has tensor cores, except the Turing GTX 16 and
// MX parts (cc 7.5 without them). AMD devices report gfx9 as 9.x too, so the name must be
// NVIDIA's.
bool HasTensorCores(const model::Device& d) {
  std::string_view name = d.name;
  bool nvidia = ContainsNoCase(name, "NVIDIA") || ContainsNoCase(name, "Tesla") ||
                ContainsNoCase(name, "GeForce") || ContainsNoCase(name, "Quadro") ||
                ContainsNoCase(name, "TITAN");
  return nvidia && d.compute_major >= 7 && !ContainsNoCase(name, "GTX") &&
         !ContainsNoCase(name, " MX");
}

// An FP32 GEMM or convolution kernel by its name: cuBLAS' sgemm, cuDNN's scudnn, a template over
// float; not a tensor-core kernel (h884, s1688, hmma, xmma, tensorop) or a half/bf16 one.
bool Fp32MathKernel(std::string_view name) {
  for (std::string_view tensor :
       {"884", "1688", "16816", "hmma", "xmma", "tensorop", "bf16", "f16", "half", "tf32"}) {
    if (ContainsNoCase(name, tensor))
      return false;
  }
  return ContainsNoCase(name, "sgemm") || ContainsNoCase(name, "scudnn") ||
         name.find("<float") != std::string_view::npos;
}

// "aten::_softmax" -> "_softmax".
std::string_view BaseName(std::string_view op) {
  auto scope = op.rfind("::");
  return scope == std::string_view::npos ? op : op.substr(scope + 2);
}

class LeverFinder {
 public:
  LeverFinder(const model::Trace& trace,
              const DeviceRoofsTable& roofs,
              const report::AnalysisReport& r,
              std::int64_t wall_ns,
              util::Interval window)
      : trace_(trace), roofs_(roofs), r_(r), view_(r.framework), window_(window) {
    wall_ns_ = wall_ns > 0                 ? wall_ns
               : r.predictions.wall_ns > 0 ? r.predictions.wall_ns
                                           : r.timeline.total_ns;
  }

  std::vector<Lever> Find() {
    // The pre-roll (orphan work from before the recording) is outside the window the bounds are
    // over: its GPU time is no share of the work a lever can act on.
    total_gpu_ns_ = view_.total_gpu_ns;
    if (r_.predictions.preroll) {
      for (const auto& [category, ns] : r_.predictions.preroll->category_ns)
        total_gpu_ns_ -= ns;
    }
    if (wall_ns_ <= 0 || total_gpu_ns_ <= 0)
      return {};
    EagerAttention();
    ElementwiseChain();
    LayoutKernels();
    Fp32Gemms();
    Fp32MathByName();
    if (auto optimizer = UnfusedOptimizerLever(
            trace_, window_, static_cast<std::int64_t>(kMinShare * static_cast<double>(wall_ns_))))
      Add(std::move(*optimizer));
    std::stable_sort(levers_.begin(), levers_.end(), [](const Lever& a, const Lever& b) {
      return a.saved_ns > b.saved_ns;
    });
    return levers_;
  }

 private:
  double Share(std::int64_t ns) const {
    return static_cast<double>(ns) / static_cast<double>(total_gpu_ns_);
  }

  // GPU time of a category's kernels inside the pre-roll.
  std::int64_t PreRollNs(const std::string& category) const {
    if (!r_.predictions.preroll)
      return 0;
    auto it = r_.predictions.preroll->category_ns.find(category);
    return it == r_.predictions.preroll->category_ns.end() ? 0 : it->second;
  }

  void Add(Lever lever) {
    lever.fraction =
        std::min(0.99, static_cast<double>(lever.saved_ns) / static_cast<double>(wall_ns_));
    lever.bound_speedup = 1.0 / (1.0 - lever.fraction);
    levers_.push_back(std::move(lever));
  }

  // The score matrices an eager attention's softmax runs on, from its shape with the most kernel
  // time: " over 3137 x 3137 score matrices ([8,12,3137,3137])"; "" without recorded shapes.
  static std::string ScoreMatrices(const std::vector<const report::OperatorRow*>& ops) {
    const report::OperatorShape* top = nullptr;
    for (const report::OperatorRow* op : ops) {
      if (!ContainsNoCase(BaseName(op->name), "softmax"))
        continue;
      for (const report::OperatorShape& shape : op->shapes) {
        if (!top || shape.kernel_ns > top->kernel_ns)
          top = &shape;
      }
    }
    if (!top)
      return "";
    std::optional<InputDims> dims = ParseInputDims(top->input_dims);
    if (!dims || dims->empty() || !dims->front() || dims->front()->size() < 2)
      return "";
    const std::vector<std::int64_t>& scores = *dims->front();
    return fmt::format(" over {} x {} score matrices (softmax input [{}], trace: operator shapes)",
                       scores[scores.size() - 2],
                       scores.back(),
                       fmt::join(scores, ", "));
  }

  // Attention written as bmm + softmax + elementwise ops (eager): one module class holds a
  // softmax and batched GEMMs, and flash/SDPA attention kernels are not what runs there.
  void EagerAttention() {
    std::map<std::string, std::int64_t> softmax_by_module;
    for (const report::OperatorRow& op : view_.operators) {
      if (op.top_module.empty() || op.kernel_ns == 0)
        continue;
      if (ContainsNoCase(BaseName(op.name), "softmax"))
        softmax_by_module[op.top_module] += op.kernel_ns;
    }
    for (const auto& [module, softmax_ns] : softmax_by_module) {
      std::int64_t gemm_ns = 0, other_ns = 0, attention_ns = 0;
      TensorFloor floor;  // the GEMMs' modelled FLOPs at the tensor roof
      std::set<std::string> names;
      std::vector<const report::OperatorRow*> module_ops;
      for (const report::OperatorRow& op : view_.operators) {
        if (op.top_module != module || op.kernel_ns == 0)
          continue;
        if (op.category == "attention") {
          attention_ns += op.kernel_ns;
        } else if (op.category == "gemm") {
          gemm_ns += op.kernel_ns;
          AddTensorFloor(op, floor);
        } else if (op.category == "elementwise" || op.category == "reduction_normalization") {
          other_ns += op.kernel_ns;
        } else {
          continue;
        }
        names.insert(op.name);
        module_ops.push_back(&op);
      }
      std::int64_t total = gemm_ns + other_ns;
      if (gemm_ns == 0 || attention_ns > softmax_ns || Share(total) < kMinShare)
        continue;
      Lever lever;
      lever.kind = "use_sdpa";
      lever.bottleneck = "memory_bound";
      lever.missing_evidence =
          "DRAM bytes of the softmax and elementwise kernels (Nsight Compute "
          "dram__bytes_read.sum / dram__bytes_write.sum) near the size of the score matrix "
          "would confirm it";
      lever.subject = module;
      lever.time_ns = total;
      // A fused attention kernel does the GEMMs' FLOPs without writing the score matrix. With
      // their FLOPs modelled, it cannot take less than them at the tensor roof: an upper bound on
      // what comes back. Without, the assumption is that it costs what the GEMMs cost now.
      std::int64_t fused_ns = gemm_ns;
      if (floor.known && floor.seconds > 0)
        fused_ns = std::min(gemm_ns, static_cast<std::int64_t>(floor.seconds * 1e9));
      lever.saved_ns = total - fused_ns;
      lever.basis =
          floor.known && floor.seconds > 0
              ? fmt::format(
                    "{} of batched GEMMs, softmax and elementwise ops in {} would fall to "
                    "the GEMMs' modelled FLOPs at the tensor roof, {} (modeled: shape "
                    "models and datasheet ceilings; an upper bound: the fused kernel "
                    "also reads Q, K and V and writes the output)",
                    Ms(total),
                    module,
                    Ms(fused_ns))
              : fmt::format(
                    "{} of softmax and elementwise ops in {} would vanish if a fused "
                    "attention kernel costs no more than its {} of batched GEMMs "
                    "(trace; assumed: the GEMMs' FLOPs are not modelled)",
                    Ms(other_ns),
                    module,
                    Ms(gemm_ns));
      lever.experiment = fmt::format(
          "Replace the eager attention in {} (batched GEMMs + softmax + elementwise ops{}, {} of "
          "GPU time) with torch.nn.functional.scaled_dot_product_attention (flash or "
          "memory-efficient kernel)",
          module,
          ScoreMatrices(module_ops),
          Ms(total));
      lever.falsified_by = fmt::format(
          "A profile after the change: if {}'s GPU time does not fall below {} (half way from "
          "its {} now to the {} the fused kernel would take), the fusion did not pay",
          module,
          Ms(fused_ns + (total - fused_ns) / 2),
          Ms(total),
          Ms(fused_ns));
      ClassFromKernels(lever, module_ops);
      Add(std::move(lever));
    }
  }

  std::int64_t CategoryNs(std::string_view name) const {
    for (const report::CategoryRow& c : view_.categories) {
      if (c.name == name)
        return c.kernel_ns;
    }
    return 0;
  }

  // Elementwise (and layout-copy kernels, not DMA copies) that outweigh the GEMMs: memory-bound
  // ops each reading and writing a whole tensor; fused, the intermediates stay on chip.
  void ElementwiseChain() {
    std::int64_t elementwise = CategoryNs("elementwise") - PreRollNs("elementwise");
    std::int64_t copies = 0;
    for (const report::CategoryRow& c : view_.categories) {
      if (c.name == "copy_layout")
        copies = c.kernel_ns - c.by_activity_ns - PreRollNs("copy_layout");
    }
    std::int64_t total = elementwise + copies;
    if (Share(total) < 0.25 || total < CategoryNs("gemm") - PreRollNs("gemm"))
      return;
    std::vector<std::string> top;
    std::vector<std::string> top_timed;
    std::int64_t launches = 0;
    std::int64_t ops_ns = 0;  // of `total`, launched directly by elementwise and copy operators
    std::vector<const report::OperatorRow*> chain_ops;
    for (const report::OperatorRow& op : view_.operators) {
      if (op.category != "elementwise" && op.category != "copy_layout")
        continue;
      chain_ops.push_back(&op);
      launches += op.launches;
      ops_ns += op.kernel_ns;
      if (top.size() < 4 && op.kernel_ns > 0) {
        top.push_back(OperatorDisplayName(op.name, op.source));
        top_timed.push_back(fmt::format("{} {}", top.back(), Ms(op.kernel_ns)));
      }
    }
    ops_ns = std::min(ops_ns, total);
    Lever lever;
    lever.kind = "fuse_elementwise";
    lever.bottleneck = "memory_bound";
    lever.missing_evidence =
        "Counters on the elementwise kernels (Nsight Compute memory throughput near the DRAM "
        "roof, low sm__throughput) would confirm that they are memory-bound";
    lever.subject = fmt::format("{}", fmt::join(top, ", "));
    lever.time_ns = total;
    // A fused chain is not free: it still reads its largest tensor and writes a result of that
    // size once (report::ElementwiseChains, a lower bound on its traffic). Chains without a
    // recorded shape, and kernels outside the chains (other operators, no launch call), are
    // counted as free, so the bound stays an upper bound.
    const report::ElementwiseChains& chains = view_.elementwise_chains;
    std::int64_t bounded_ns = std::min(chains.bounded_kernel_ns, total);
    std::int64_t floor_ns = std::min(chains.floor_ns, bounded_ns);
    lever.saved_ns = total - floor_ns;
    lever.assumed_ns = std::min(lever.saved_ns, total - bounded_ns);
    std::string floor_text =
        floor_ns > 0
            ? fmt::format(
                  "fused, each of the {} run{} of consecutive elementwise and copy kernels "
                  "({} calls in the longest) still reads its largest tensor and writes one of "
                  "that size once, in the narrowest type it holds: for the {} with recorded "
                  "shapes {:.3g} GB, {} at the DRAM bandwidth against the {} their "
                  "kernels take now (modeled: recorded shapes and the datasheet bandwidth, a "
                  "lower bound on the fused traffic); the other {} is counted as free (assumed), "
                  "so at most {} comes back, an upper bound",
                  chains.chains,
                  chains.chains == 1 ? "" : "s",
                  chains.longest_ops,
                  chains.bounded_chains,
                  static_cast<double>(chains.floor_bytes) / 1e9,
                  Ms(floor_ns),
                  Ms(bounded_ns),
                  Ms(total - bounded_ns),
                  Ms(lever.saved_ns))
            : "no recorded shape bounds their fused traffic, so they are counted as free "
              "(assumed; an upper bound: a fused kernel still reads its inputs and writes its "
              "outputs once)";
    if (floor_ns == 0)
      lever.assumed_ns = lever.saved_ns;
    // The time, the names and the launch count say which set each comes from: the category holds
    // kernels launched by other operators or with no launch call in the trace (orphans) too.
    lever.basis = fmt::format(
        "{} of elementwise and layout-copy kernels ({} of GPU time) would fall if fused "
        "into the neighbouring kernels; {} of it launched by elementwise and copy operators "
        "(the first by time: {}), {} by other operators or with no launch call in the trace "
        "(trace); {}",
        Ms(total),
        fmt::format("{:.1f}%", 100 * Share(total)),
        Ms(ops_ns),
        fmt::format("{}", fmt::join(top_timed, ", ")),
        Ms(total - ops_ns),
        floor_text);
    lever.experiment = fmt::format(
        "Fuse the elementwise chain ({}; {} launches by elementwise and copy operators): "
        "torch.compile the model, or fold the ops into the producing GEMM's epilogue",
        lever.subject,
        launches);
    AddStridedPath(lever);
    lever.falsified_by =
        "A profile after the change: if the elementwise kernel count and their summed time do "
        "not fall, the fusion did not happen (check torch.compile's graph breaks)";
    ClassFromKernels(lever, chain_ops);
    Add(std::move(lever));
  }

  // The part of the chain's kernels on PyTorch's strided path: named in the basis and the
  // experiment when it holds a tenth of the lever's time, since contiguous operands or a fused
  // kernel for those operators recover bandwidth without fusing anything else.
  void AddStridedPath(Lever& lever) const {
    StridedElementwise strided = StridedElementwiseOf(r_);
    if (strided.time_ns * 10 < lever.time_ns || strided.top_operators.empty())
      return;
    std::int64_t kernel_ns = 0;
    for (const report::KernelRow& k : r_.kernels)
      kernel_ns += k.duration_ns.total;
    std::vector<std::string> names;
    for (const std::string& op : strided.top_operators)
      names.push_back(OperatorDisplayName(view_, op));
    lever.basis += fmt::format(
        "; {} in {} instances ({:.1f}% of kernel time, the whole trace's kernel table) run "
        "PyTorch's strided elementwise path (at::native::elementwise_kernel: operands that are "
        "not contiguous, such as a transposed, sliced or broadcast view, computed element by "
        "element without vector loads), most launched by {}",
        Ms(strided.time_ns),
        strided.kernels,
        kernel_ns > 0
            ? 100.0 * static_cast<double>(strided.time_ns) / static_cast<double>(kernel_ns)
            : 0.0,
        fmt::join(names, ", "));
    lever.experiment += fmt::format(
        "; at the least, give {} contiguous operands or a fused kernel (a fused rotary "
        "embedding for q/k after a transpose, a fused RMSNorm), which recovers the strided "
        "path's bandwidth",
        fmt::join(names, ", "));
  }

  // NCHW <-> NHWC conversion kernels around convolutions.
  void LayoutKernels() {
    std::int64_t layout = 0;
    for (const report::KernelRow& k : r_.kernels) {
      if (ContainsNoCase(k.name, "nchwtonhwc") || ContainsNoCase(k.name, "nhwctonchw"))
        layout += k.duration_ns.total;
    }
    if (Share(layout) < kMinShare)
      return;
    Lever lever;
    lever.kind = "channels_last";
    lever.bottleneck = "memory_bound";
    lever.subject = "NCHW/NHWC conversion kernels";
    lever.time_ns = layout;
    lever.saved_ns = layout;
    lever.basis = fmt::format("the {} of layout conversions would vanish (trace)", Ms(layout));
    lever.experiment =
        "Keep activations and weights in channels_last (model.to(memory_format="
        "torch.channels_last)) so cuDNN stops converting layouts around each convolution";
    lever.falsified_by =
        "A profile after the change: nchwToNhwc/nhwcToNchw kernels still present means a layer "
        "breaks the layout";
    Add(std::move(lever));
  }

  // FP32 GEMMs (shape models say the operands are float) on a GPU with TF32 tensor cores. No
  // GEMM reaches 100% of a peak: each shape is taken to reach the same fraction of the TF32
  // tensor peak as it reaches of the FP32 vector peak now (measured in this trace: same shape,
  // same library), and never to run faster than its modelled bytes at the DRAM bandwidth.
  void Fp32Gemms() {
    std::int64_t time = 0, saved = 0;
    double tf32_floor_s = 0;  // at 100% of the TF32 peak, for the sentence
    double min_fraction = 1, max_fraction = 0;
    std::vector<std::string> names;
    const model::DeviceCeilings* entry = Tf32Entry();
    if (!entry)
      return;
    std::optional<double> tf32 = entry->Peak(model::Precision::kTf32, model::MathUnit::kTensor);
    std::optional<double> fp32 = entry->Peak(model::Precision::kFp32, model::MathUnit::kVector);
    if (!tf32 || !fp32 || *tf32 <= 0 || *fp32 <= 0)
      return;
    for (const report::OperatorRow& op : view_.operators) {
      if (op.category != "gemm")
        continue;
      for (const report::OperatorShape& s : op.shapes) {
        if (s.precision != "fp32" || !s.flops || *s.flops <= 0 || s.kernel_ns <= 0)
          continue;
        auto flops = static_cast<double>(*s.flops);
        double achieved = flops / (static_cast<double>(s.kernel_ns) * 1e-9);
        // A shape already faster than the FP32 peak is not FP32 SIMT work: no lever for it.
        double fraction = std::min(1.0, achieved / *fp32);
        double floor_s = flops / (*tf32 * fraction);
        if (s.bytes && entry->dram_bytes_per_s.value_or(0) > 0)
          floor_s = std::max(floor_s, static_cast<double>(*s.bytes) / *entry->dram_bytes_per_s);
        auto floor_ns = static_cast<std::int64_t>(floor_s * 1e9);
        time += s.kernel_ns;
        saved += std::max<std::int64_t>(0, s.kernel_ns - floor_ns);
        tf32_floor_s += flops / *tf32;
        min_fraction = std::min(min_fraction, fraction);
        max_fraction = std::max(max_fraction, fraction);
        if (names.empty() || names.back() != op.name)
          names.push_back(op.name);
      }
    }
    if (Share(time) < kMinShare || saved <= 0)
      return;
    Lever lever;
    lever.kind = "tf32_or_amp";
    lever.bottleneck = "tensor_cores_unused";
    lever.missing_evidence =
        "Tensor-pipe counters (sm__pipe_tensor_op_hmma_cycles_active) at zero on the GEMM "
        "kernels would confirm that they run on the FP32 units";
    lever.subject = fmt::format("{}", fmt::join(names, ", "));
    lever.time_ns = time;
    lever.saved_ns = saved;
    std::string fractions =
        max_fraction - min_fraction < 0.005
            ? fmt::format("{:.0f}%", 100 * min_fraction)
            : fmt::format("{:.0f}-{:.0f}%", 100 * min_fraction, 100 * max_fraction);
    lever.basis = fmt::format(
        "the FP32 GEMMs' {} would give back at most {}: each shape at the fraction of peak it "
        "reaches "
        "now on the FP32 units ({} of the {:.1f} TFLOP/s FP32 peak, measured in this trace) "
        "applied to the {:.0f} TFLOP/s TF32 tensor peak, so none more than {:.3g}x faster (the "
        "ratio of the peaks), and never faster than its bytes at the DRAM bandwidth (modeled: "
        "shape models and datasheet ceilings; at 100% of the TF32 peak they would take {}, an "
        "upper bound no GEMM reaches)",
        Ms(time),
        Ms(saved),
        fractions,
        *fp32 / 1e12,
        *tf32 / 1e12,
        *tf32 / *fp32,
        Ms(static_cast<std::int64_t>(tf32_floor_s * 1e9)));
    lever.experiment = fmt::format(
        "Run the FP32 GEMMs ({}) on tensor cores: torch.backends.cuda.matmul.allow_tf32 = True "
        "(or torch.set_float32_matmul_precision('high')), or autocast to bf16; TF32 keeps 10 "
        "mantissa bits and bf16 7, so check the model's outputs or accuracy against the FP32 run "
        "before keeping the change",
        lever.subject);
    lever.falsified_by =
        "Nsight Compute on the GEMM kernels after the change: no tensor-pipe activity "
        "(sm__pipe_tensor_op_hmma_cycles_active) means they still run on the FP32 units; outputs "
        "that differ from the FP32 run beyond the model's tolerance rule the change out";
    Add(std::move(lever));
  }

  // FP32 GEMM and convolution kernels, known by their names (sgemm, scudnn, <float>) when the
  // trace has no shapes to model them, on a GPU whose FP16 tensor peak is many times its FP32
  // vector peak (V100: 125 against 15.7 TFLOP/s): autocast (AMP) is the first experiment of an
  // FP32 training or inference run. Without shapes there is no roof to bound it by: the bound
  // assumes the kernels run kAmpAssumedSpeedup times faster, and says so.
  void Fp32MathByName() {
    if (std::any_of(
            levers_.begin(), levers_.end(), [](const Lever& l) { return l.kind == "tf32_or_amp"; }))
      return;  // the shape models bound it
    const model::DeviceCeilings* entry = nullptr;
    const model::Device* tensor_device = nullptr;  // known by its compute capability alone
    for (const model::Device& d : trace_.devices) {
      const model::DeviceCeilings* e = EntryOf(d.id);
      if (e && e->Peak(model::Precision::kFp16, model::MathUnit::kTensor) &&
          e->Peak(model::Precision::kFp32, model::MathUnit::kVector)) {
        entry = e;
        break;
      }
      if (!e && !tensor_device && HasTensorCores(d))
        tensor_device = &d;
    }
    std::string gpu;
    if (entry) {
      double ratio = *entry->Peak(model::Precision::kFp16, model::MathUnit::kTensor) /
                     *entry->Peak(model::Precision::kFp32, model::MathUnit::kVector);
      if (ratio < kAmpAssumedSpeedup * 2)
        return;
      gpu = fmt::format("a {} whose FP16 tensor peak is {:.0f}x its FP32 vector peak (datasheet)",
                        entry->key,
                        ratio);
    } else if (tensor_device) {
      gpu = fmt::format(
          "a {} (compute capability {}.{}: tensor cores; no datasheet entry gives "
          "its peaks)",
          tensor_device->name,
          tensor_device->compute_major,
          tensor_device->compute_minor);
    } else {
      return;
    }
    // Their critical time: the part of their time nothing else on the GPU overlaps (copies,
    // collectives, other streams), which is all their speedup can give back. A kernel outside
    // the predictions' kept rows counts nothing (an understatement, never an overstatement).
    std::unordered_map<std::string_view, std::int64_t> critical;
    for (const report::CriticalShare& s : r_.predictions.kernels)
      critical.emplace(s.name, s.critical_ns);
    std::int64_t time = 0, convolution_ns = 0;
    std::vector<std::string> names;
    for (const report::KernelRow& k : r_.kernels) {
      if ((k.category != "gemm" && k.category != "convolution") || !Fp32MathKernel(k.name))
        continue;
      auto it = critical.find(k.name);
      if (it == critical.end() || it->second <= 0)
        continue;
      time += it->second;
      if (k.category == "convolution")
        convolution_ns += it->second;
      if (names.size() < 3)
        names.push_back(std::string(ReadableKernelName(k.name)));
    }
    if (Share(time) < kMinShare)
      return;
    Lever lever;
    lever.kind = "amp";
    lever.bottleneck = "tensor_cores_unused";
    // What the kernels serve, by their launching operators' category (nine tenths of their time
    // names them): cuDNN runs convolutions
    // as SGEMM kernels too (nsres: volta_sgemm under convolution_backward), which are no GEMMs
    // of the model's.
    bool convolutions_only = convolution_ns * 10 >= time * 9;
    bool gemms_only = convolution_ns * 10 <= time;
    lever.subject = convolutions_only ? "FP32 convolutions"
                    : gemms_only      ? "FP32 GEMMs"
                                      : "FP32 GEMMs and convolutions";
    const char* kernels_of = convolutions_only ? "convolution kernels (by their launching "
                                                 "operators; cuDNN's include SGEMM-based ones)"
                             : gemms_only      ? "GEMM kernels"
                                               : "GEMM and convolution kernels";
    // Never ask for what the input holds: with shapes recorded, what is missing is a model.
    bool shapes = std::any_of(trace_.host_ops.begin(),
                              trace_.host_ops.end(),
                              [](const model::HostOp& op) { return op.input_dims != 0; });
    lever.missing_evidence = fmt::format(
        "Tensor-pipe counters (sm__pipe_tensor_op_hmma_cycles_active) at zero on the {} would "
        "confirm that they run on the FP32 units; {} would bound the change by the tensor roof",
        kernels_of,
        shapes ? "a FLOP model of these kernels (gpuperf analyze --model FILE; the shape models "
                 "do not cover their operators' recorded shapes)"
               : "recorded shapes (record_shapes=True)");
    lever.time_ns = time;
    lever.saved_ns =
        static_cast<std::int64_t>(static_cast<double>(time) * (1.0 - 1.0 / kAmpAssumedSpeedup));
    lever.assumed_ns = lever.saved_ns;
    lever.assumed_local_speedup = kAmpAssumedSpeedup;
    lever.basis = fmt::format(
        "{} of critical time in {} that run in FP32 by their names ({}{}) on {}; no shape model "
        "covers them, so the bound assumes they run {:.0f}x faster (an assumption)",
        Ms(time),
        kernels_of,
        fmt::join(names, ", "),
        names.size() < 3 ? "" : ", …",
        gpu,
        kAmpAssumedSpeedup);
    lever.experiment = fmt::format(
        "Run the {} on tensor cores: autocast to fp16 (torch.autocast, with a GradScaler when "
        "training){}, then compare step times; check the outputs or accuracy against the FP32 "
        "run before keeping it",
        lever.subject,
        gemms_only ? "" : " and keep convolutions in channels_last");
    lever.falsified_by = fmt::format(
        "A profile after the change: the {} must become tensor-core kernels (h884/s884/hmma/xmma "
        "in their names, or sm__pipe_tensor_op_hmma_cycles_active above zero) and their time "
        "must fall; if it does not, they were not compute-limited",
        kernels_of);
    Add(std::move(lever));
  }

  struct TensorFloor {
    double seconds = 0;
    bool known = true;  // false once a shape has no model or no peak
  };

  // Adds op's modelled GEMM FLOPs at the tensor peak of their precision to the floor.
  void AddTensorFloor(const report::OperatorRow& op, TensorFloor& floor) {
    if (op.shapes.empty())
      floor.known = false;
    for (const report::OperatorShape& s : op.shapes) {
      if (!floor.known)
        return;
      std::optional<double> peak = TensorPeak(s.precision);
      if (!s.flops || !peak || *peak <= 0) {
        floor.known = false;
        return;
      }
      floor.seconds += static_cast<double>(*s.flops) / *peak;
    }
  }

  // The datasheet tensor peak of a modelled precision ("bf16", "fp16", "fp32": TF32), on the
  // trace's first device with ceilings.
  std::optional<double> TensorPeak(std::string_view precision) {
    model::Precision p;
    if (precision == "bf16")
      p = model::Precision::kBf16;
    else if (precision == "fp16")
      p = model::Precision::kFp16;
    else if (precision == "fp32" || precision == "tf32")
      return Tf32Peak();
    else
      return std::nullopt;
    for (const model::Device& d : trace_.devices) {
      if (const model::DeviceCeilings* entry = EntryOf(d.id)) {
        if (auto peak = entry->Peak(p, model::MathUnit::kTensor))
          return peak;
      }
    }
    return std::nullopt;
  }

  // The datasheet entry of the trace's first device with a TF32 tensor peak.
  const model::DeviceCeilings* Tf32Entry() {
    if (tf32_checked_)
      return tf32_entry_ ? &*tf32_entry_ : nullptr;
    tf32_checked_ = true;
    for (const model::Device& d : trace_.devices) {
      const model::DeviceCeilings* entry = EntryOf(d.id);
      if (entry && entry->Peak(model::Precision::kTf32, model::MathUnit::kTensor)) {
        tf32_entry_ = *entry;
        break;
      }
    }
    return tf32_entry_ ? &*tf32_entry_ : nullptr;
  }

  // The ceilings of `device`, as analyze.cc resolved them.
  const model::DeviceCeilings* EntryOf(std::int32_t device) const {
    return roofs_.Of(device).match.entry;
  }

  std::optional<double> Tf32Peak() {
    const model::DeviceCeilings* entry = Tf32Entry();
    if (!entry)
      return std::nullopt;
    return entry->Peak(model::Precision::kTf32, model::MathUnit::kTensor);
  }

  // The class the lever's kernels hold most of their time in (the kernel table's classes, by
  // each operator's top kernel and its GPU time): when one class holds over half of the
  // classified time, the lever treats that class, so the statement never contradicts the kernel
  // table (eager attention whose softmax is latency-bound is not called memory-bound); the split
  // is said in the basis.
  void ClassFromKernels(Lever& lever, const std::vector<const report::OperatorRow*>& ops) {
    if (kernel_rows_.empty()) {
      for (const report::KernelRow& k : r_.kernels)
        kernel_rows_.emplace(k.name, &k);
    }
    std::map<std::string, std::int64_t> by_class;
    std::int64_t classified = 0;
    for (const report::OperatorRow* op : ops) {
      auto it = kernel_rows_.find(op->top_kernel);
      if (it == kernel_rows_.end() || op->kernel_ns <= 0)
        continue;
      const std::string& bound = it->second->classification.bound;
      if (bound.empty() || bound == "unknown")
        continue;
      by_class[bound] += op->kernel_ns;
      classified += op->kernel_ns;
    }
    if (classified <= 0)
      return;
    std::vector<std::pair<std::string, std::int64_t>> split(by_class.begin(), by_class.end());
    std::stable_sort(split.begin(), split.end(), [](const auto& a, const auto& b) {
      return a.second > b.second;
    });
    std::vector<std::string> parts;
    for (const auto& [bound, ns] : split)
      parts.push_back(fmt::format("{} {}", bound, Ms(ns)));
    lever.basis += fmt::format("; its operators' top kernels by class (kernel table): {}",
                               fmt::join(parts, ", "));
    const std::string& top = split.front().first;
    if (split.front().second * 2 <= classified || top == "launch" ||
        top + "_bound" == lever.bottleneck)
      return;
    lever.bottleneck = top + "_bound";
    lever.missing_evidence = fmt::format(
        "Nsight Compute on its kernels (Speed of Light, warp-state stalls) would show what "
        "limits them; the kernel table classes most of their time {}",
        top);
  }

  const model::Trace& trace_;
  const DeviceRoofsTable& roofs_;
  const report::AnalysisReport& r_;
  const report::FrameworkView& view_;
  util::Interval window_;
  std::int64_t wall_ns_ = 0;
  std::int64_t total_gpu_ns_ = 0;  // the view's GPU time less the pre-roll's
  std::vector<Lever> levers_;
  std::unordered_map<std::string_view, const report::KernelRow*> kernel_rows_;
  bool tf32_checked_ = false;
  std::optional<model::DeviceCeilings> tf32_entry_;
};

}  // namespace

std::vector<Lever> FindLevers(const model::Trace& trace,
                              const DeviceRoofsTable& roofs,
                              const report::AnalysisReport& report,
                              std::int64_t wall_ns,
                              util::Interval window) {
  return LeverFinder(trace, roofs, report, wall_ns, window).Find();
}

}  // namespace gpuperf::analysis::framework
