// The FP32 math levers: TF32 for FP32 GEMMs the shape models see, AMP for FP32 GEMM and
// convolution kernels known only by their names; and the tensor peaks they are bounded by. Part of
// LeverFinder (lever_finder.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "analysis/core/critical_term.h"
#include "analysis/core/names.h"
#include "analysis/core/run_gains.h"
#include "analysis/findings/findings.h"
#include "analysis/framework/categories.h"
#include "analysis/framework/lever_finder.h"
#include "analysis/framework/optimizer_lever.h"
#include "analysis/framework/strided_elementwise.h"
#include "analysis/kernel/device_roofs.h"
#include "analysis/kernel/readable_name.h"
#include "analysis/kernel/shape_model.h"

namespace gpuperf::analysis::framework {

namespace {

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

}  // namespace

void LeverFinder::Fp32Gemms() {
  std::int64_t time = 0, saved = 0;
  std::int64_t ceiling_saved = 0;  // at 100% of the TF32 peak (or the DRAM bandwidth)
  double min_fraction = 1, max_fraction = 0;
  std::vector<std::string> names;
  const model::DeviceCeilings* entry = Tf32Entry();
  if (!entry)
    return;
  std::optional<double> tf32 = entry->Peak(model::Precision::kTf32, model::MathUnit::kTensor);
  std::optional<double> fp32 = entry->Peak(model::Precision::kFp32, model::MathUnit::kVector);
  if (!tf32 || !fp32 || *tf32 <= 0 || *fp32 <= 0)
    return;
  // Only a GEMM's critical time comes back (the time it runs alone while the program waits for
  // it, predictions.kernels), run by run at most the run's budget (GainNs): the operators' top
  // kernels made as much faster as the shapes' time over their floors says. An operator whose
  // top kernel is outside the table's kept rows counts nothing (an understatement).
  std::unordered_map<std::string_view, const report::CriticalShare*> shares;
  for (const report::CriticalShare& k : r_.predictions.kernels)
    shares.emplace(k.name, &k);
  std::vector<const report::CriticalShare*> rows;
  std::int64_t floor_total = 0, roof_total = 0;
  for (const report::OperatorRow& op : view_.operators) {
    if (op.category != FrameworkCategory::kGemm)
      continue;
    auto share = shares.find(op.top_kernel);
    bool counted = false;
    for (const report::OperatorShape& s : op.shapes) {
      if (s.precision != "fp32" || !s.flops || *s.flops <= 0 || s.kernel_ns <= 0)
        continue;
      auto flops = static_cast<double>(*s.flops);
      double achieved = flops / (static_cast<double>(s.kernel_ns) * 1e-9);
      // A shape already faster than the FP32 peak is not FP32 SIMT work: no lever for it.
      double fraction = std::min(1.0, achieved / *fp32);
      double bytes_s = s.bytes && entry->dram_bytes_per_s.value_or(0) > 0
                           ? static_cast<double>(*s.bytes) / *entry->dram_bytes_per_s
                           : 0.0;
      auto floor_ns =
          static_cast<std::int64_t>(std::max(flops / (*tf32 * fraction), bytes_s) * 1e9);
      auto roof_ns = static_cast<std::int64_t>(std::max(flops / *tf32, bytes_s) * 1e9);
      time += s.kernel_ns;
      floor_total += std::min(s.kernel_ns, floor_ns);
      roof_total += std::min(s.kernel_ns, roof_ns);
      counted = true;
      min_fraction = std::min(min_fraction, fraction);
      max_fraction = std::max(max_fraction, fraction);
      if (names.empty() || names.back() != op.name)
        names.push_back(op.name);
    }
    if (counted && share != shares.end() &&
        std::find(rows.begin(), rows.end(), share->second) == rows.end())
      rows.push_back(share->second);
  }
  // An operator launches more kernels than its top one (addmm: sgemm 128x64 and 128x32 by shape):
  // every FP32 GEMM kernel by its name counts, each once.
  for (const report::KernelRow& k : r_.kernels) {
    auto share = shares.find(k.name);
    if (k.category == FrameworkCategory::kGemm && Fp32MathKernel(k.name) && share != shares.end() &&
        std::find(rows.begin(), rows.end(), share->second) == rows.end())
      rows.push_back(share->second);
  }
  // The shapes' time over their floors: the local speedup the estimate and the ceiling assume.
  auto speedup_over = [&](std::int64_t floor) {
    return floor > 0 ? static_cast<double>(time) / static_cast<double>(floor) : kFree;
  };
  const std::int64_t critical_time = GainNs(r_.predictions, rows, kFree);
  saved = GainNs(r_.predictions, rows, speedup_over(floor_total));
  ceiling_saved = GainNs(r_.predictions, rows, speedup_over(roof_total));
  if (Share(time) < kMinShare || saved <= 0)
    return;
  Lever lever;
  lever.kind = report::LeverKind::kTf32OrAmp;
  lever.bottleneck = report::Bottleneck::kTensorCoresUnused;
  lever.missing_evidence =
      "Tensor-pipe counters (sm__pipe_tensor_op_hmma_cycles_active) at zero on the GEMM "
      "kernels would confirm that they run on the FP32 units";
  lever.subject = fmt::format("{}", fmt::join(names, ", "));
  lever.time_ns = time;
  lever.saved_ns = saved;
  lever.ceiling_saved_ns = ceiling_saved;
  std::string fractions =
      max_fraction - min_fraction < 0.005
          ? fmt::format("{:.0f}%", 100 * min_fraction)
          : fmt::format("{:.0f}-{:.0f}%", 100 * min_fraction, 100 * max_fraction);
  lever.basis = fmt::format(
      "the FP32 GEMMs' {} ({} of it {} time, the part a faster GEMM gives back) would "
      "give back about {} if each shape reached the fraction of peak it reaches now on the FP32 "
      "units ({} of the {:.1f} TFLOP/s FP32 peak: modeled FLOPs over "
      "the kernels' time in this trace) on the {:.0f} TFLOP/s TF32 tensor peak (an assumption, so "
      "none more than {:.3g}x "
      "faster: the ratio of the peaks), and at most {} at the TF32 peak itself, the ceiling no "
      "GEMM reaches; never faster than their bytes at the DRAM bandwidth (modeled: shape models "
      "and datasheet ceilings)",
      Ms(time),
      Ms(critical_time),
      CriticalAdjective(r_.predictions),
      Ms(saved),
      fractions,
      *fp32 / 1e12,
      *tf32 / 1e12,
      *tf32 / *fp32,
      Ms(ceiling_saved));
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

namespace {

// How the tensor-core kernels of an architecture name themselves, for the falsifier: Volta's
// cuBLAS tiles say 884, Turing's 1688 (resnet's RTX 2080 Ti was told h884/s884).
std::string TensorKernelMarks(std::int32_t major, std::int32_t minor) {
  if (major == 7 && minor < 5)
    return "h884/s884/hmma";
  if (major == 7)
    return "h1688/s1688/hmma";
  if (major == 8)
    return "16816/tensorop/xmma";
  if (major == 9)
    return "gmma/wgmma/sm90_xmma/nvjet";
  if (major >= 10)
    return "tcgen05/sm100/nvjet/tensorop";
  return "hmma/xmma/tensorop";
}

}  // namespace

void LeverFinder::Fp32MathByName() {
  if (std::any_of(levers_.begin(), levers_.end(), [](const Lever& l) {
        return l.kind == report::LeverKind::kTf32OrAmp;
      }))
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
  const std::string marks = entry ? TensorKernelMarks(entry->compute_major, entry->compute_minor)
                            : tensor_device ? TensorKernelMarks(tensor_device->compute_major,
                                                                tensor_device->compute_minor)
                                            : TensorKernelMarks(0, 0);
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
  // collectives, other streams) while the program waits for it, which is all their speedup can
  // give back; kernels of one run share its budget (GainNs). A kernel outside the predictions'
  // kept rows counts nothing (an understatement, never an overstatement).
  std::unordered_map<std::string_view, const report::CriticalShare*> critical;
  for (const report::CriticalShare& s : r_.predictions.kernels)
    critical.emplace(s.name, &s);
  std::vector<const report::CriticalShare*> rows, convolutions;
  std::vector<std::string> names;
  for (const report::KernelRow& k : r_.kernels) {
    if ((k.category != FrameworkCategory::kGemm && k.category != FrameworkCategory::kConvolution) ||
        !Fp32MathKernel(k.name))
      continue;
    auto it = critical.find(k.name);
    if (it == critical.end() || it->second->critical_ns <= 0)
      continue;
    rows.push_back(it->second);
    if (k.category == FrameworkCategory::kConvolution)
      convolutions.push_back(it->second);
    if (names.size() < 3)
      names.push_back(std::string(ReadableKernelName(k.name)));
  }
  const std::int64_t time = GainNs(r_.predictions, rows, kFree);
  const std::int64_t convolution_ns = GainNs(r_.predictions, convolutions, kFree);
  if (Share(time) < kMinShare)
    return;
  Lever lever;
  lever.kind = report::LeverKind::kAmp;
  lever.bottleneck = report::Bottleneck::kTensorCoresUnused;
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
  lever.saved_ns = GainNs(r_.predictions, rows, kAmpAssumedSpeedup);
  lever.assumed_ns = lever.saved_ns;
  lever.assumed_local_speedup = kAmpAssumedSpeedup;
  lever.basis = fmt::format(
      "{} of {} time in {} that run in FP32 by their names ({}{}) on {}; no shape model "
      "covers them, so the bound assumes they run {:.0f}x faster (an assumption)",
      Ms(time),
      CriticalAdjective(r_.predictions),
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
      "A profile after the change: the {} must become tensor-core kernels ({} in their names, "
      "or sm__pipe_tensor_op_hmma_cycles_active above zero) and their time must fall; if it "
      "does not, they were not compute-limited",
      kernels_of,
      marks);
  Add(std::move(lever));
}

void LeverFinder::AddTensorFloor(const report::OperatorRow& op, TensorFloor& floor) {
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

std::optional<double> LeverFinder::TensorPeak(std::string_view precision) {
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

const model::DeviceCeilings* LeverFinder::Tf32Entry() {
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

}  // namespace gpuperf::analysis::framework
