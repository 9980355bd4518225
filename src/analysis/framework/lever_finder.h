// LeverFinder, the class behind FindLevers (levers.cc): its state and small helpers here, its
// levers one file per family (levers_attention.cc, levers_elementwise.cc, levers_fp32.cc).
// Internal to src/analysis/framework.
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/trace.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/framework/categories.h"
#include "analysis/framework/levers.h"
#include "analysis/framework/optimizer_lever.h"
#include "analysis/kernel/device_roofs.h"
#include "util/intervals.h"

namespace gpuperf::analysis::framework {

// A lever is proposed only for work of at least this share of the GPU time.
inline constexpr double kMinShare = 0.10;

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
      total_gpu_ns_ -= r_.predictions.preroll->memcpy_ns.value_or(0);
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
  std::int64_t PreRollNs(FrameworkCategory category) const {
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
  static std::string ScoreMatrices(const std::vector<const report::OperatorRow*>& ops);

  // Attention written as bmm + softmax + elementwise ops (eager): one module class holds a
  // softmax and batched GEMMs, and flash/SDPA attention kernels are not what runs there.
  void EagerAttention();

  std::int64_t CategoryNs(FrameworkCategory category) const {
    for (const report::CategoryRow& c : view_.categories) {
      if (c.category == category)
        return c.kernel_ns;
    }
    return 0;
  }

  // Elementwise (and layout-copy kernels, not DMA copies) that outweigh the GEMMs: memory-bound
  // ops each reading and writing a whole tensor; fused, the intermediates stay on chip.
  void ElementwiseChain();

  // The part of the chain's kernels on PyTorch's strided path: named in the basis and the
  // experiment when it holds a tenth of the lever's time, since contiguous operands or a fused
  // kernel for those operators recover bandwidth without fusing anything else.
  void AddStridedPath(Lever& lever) const;

  // NCHW <-> NHWC conversion kernels around convolutions.
  void LayoutKernels();

  // FP32 GEMMs (shape models say the operands are float) on a GPU with TF32 tensor cores. No
  // GEMM reaches 100% of a peak: each shape is taken to reach the same fraction of the TF32
  // tensor peak as it reaches of the FP32 vector peak now (measured in this trace: same shape,
  // same library), and never to run faster than its modelled bytes at the DRAM bandwidth.
  void Fp32Gemms();

  // FP32 GEMM and convolution kernels, known by their names (sgemm, scudnn, <float>) when the
  // trace has no shapes to model them, on a GPU whose FP16 tensor peak is many times its FP32
  // vector peak (V100: 125 against 15.7 TFLOP/s): autocast (AMP) is the first experiment of an
  // FP32 training or inference run. Without shapes there is no roof to bound it by: the bound
  // assumes the kernels run kAmpAssumedSpeedup times faster, and says so.
  void Fp32MathByName();

  struct TensorFloor {
    double seconds = 0;
    bool known = true;  // false once a shape has no model or no peak
  };

  // Adds op's modelled GEMM FLOPs at the tensor peak of their precision to the floor.
  void AddTensorFloor(const report::OperatorRow& op, TensorFloor& floor);

  // The datasheet tensor peak of a modelled precision ("bf16", "fp16", "fp32": TF32), on the
  // trace's first device with ceilings.
  std::optional<double> TensorPeak(std::string_view precision);

  // The datasheet entry of the trace's first device with a TF32 tensor peak.
  const model::DeviceCeilings* Tf32Entry();

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
  void ClassFromKernels(Lever& lever, const std::vector<const report::OperatorRow*>& ops);

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

}  // namespace gpuperf::analysis::framework
