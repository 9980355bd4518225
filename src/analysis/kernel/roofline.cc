#include "analysis/kernel/roofline.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "analysis/kernel/roofline_candidates.h"

namespace gpuperf::analysis {
namespace {

using model::MathUnit;
using model::Precision;

std::optional<double> Find(const std::map<std::string, double>& metrics, const std::string& name) {
  auto it = metrics.find(name);
  if (it == metrics.end())
    return std::nullopt;
  return it->second;
}

// smsp__sass_thread_inst_executed_op_<op>_pred_on.sum (or the sm__ rollup of the same count).
std::optional<double> SassOp(const std::map<std::string, double>& metrics, const char* op) {
  std::string tail = std::string("sass_thread_inst_executed_op_") + op + "_pred_on.sum";
  if (auto value = Find(metrics, "smsp__" + tail))
    return value;
  return Find(metrics, "sm__" + tail);
}

// add + mul + fma_weight x fma, scaled by `scale`; nullopt unless all three counters exist.
std::optional<double> Family(const std::map<std::string, double>& metrics,
                             const char* add,
                             const char* mul,
                             const char* fma,
                             double scale,
                             double fma_weight) {
  auto a = SassOp(metrics, add);
  auto m = SassOp(metrics, mul);
  auto f = SassOp(metrics, fma);
  if (!a || !m || !f)
    return std::nullopt;
  return scale * (*a + *m) + fma_weight * *f;
}

// "sm__ops_path_tensor_src_bf16_dst_fp32.sum" -> bf16; int4/int1 and op_ breakdowns: nullopt.
std::optional<Precision> TensorSource(std::string_view name) {
  constexpr std::string_view kPrefix = "sm__ops_path_tensor_src_";
  if (name.rfind(kPrefix, 0) != 0 || name.size() < 4 || name.substr(name.size() - 4) != ".sum")
    return std::nullopt;
  std::string_view type = name.substr(kPrefix.size());
  static constexpr std::pair<std::string_view, Precision> kTypes[] = {
      {"fp16", Precision::kFp16},
      {"bf16", Precision::kBf16},
      {"tf32", Precision::kTf32},
      {"fp8", Precision::kFp8},
      {"int8", Precision::kInt8},
      {"fp64", Precision::kFp64},
  };
  for (const auto& [prefix, precision] : kTypes) {
    if (type.rfind(prefix, 0) == 0)
      return precision;
  }
  return std::nullopt;
}

std::string PercentText(double fraction) {
  return fmt::format("{:.0f}%", fraction * 100);
}

// The run time of a launch with counters: a replay span is not one, so Nsight Compute's
// gpu__time_duration.sum stands in when recorded, else -1 (unknown).
std::int64_t RunDuration(const model::GpuActivity& a, const model::KernelCounters& counters) {
  if (!counters.replay_span)
    return a.duration_ns();
  auto it = counters.metrics.find("gpu__time_duration.sum");
  return it != counters.metrics.end() && it->second >= 0 ? std::llround(it->second) : -1;
}

}  // namespace

std::optional<std::map<PrecisionUnit, double>> LaunchFlops(
    const std::map<std::string, double>& metrics) {
  std::map<PrecisionUnit, double> flops;
  bool known = false;
  auto add = [&](Precision p, MathUnit u, std::optional<double> value) {
    if (!value)
      return;
    known = true;
    flops[{p, u}] += *value;
  };
  add(Precision::kFp32, MathUnit::kVector, Family(metrics, "fadd", "fmul", "ffma", 1, 2));
  add(Precision::kFp64, MathUnit::kVector, Family(metrics, "dadd", "dmul", "dfma", 1, 2));
  add(Precision::kFp16, MathUnit::kVector, Family(metrics, "hadd", "hmul", "hfma", 2, 4));
  bool ops_path = false;
  for (const auto& [name, value] : metrics) {
    if (auto precision = TensorSource(name)) {
      ops_path = true;
      if (value > 0)  // a zero tensor count says nothing about the vector units
        add(*precision, MathUnit::kTensor, value);
    }
  }
  if (!ops_path) {
    auto instructions = Find(metrics, "sm__inst_executed_pipe_tensor.sum");
    if (!instructions)
      instructions = Find(metrics, "smsp__inst_executed_pipe_tensor.sum");
    // On GA100 this pipe also counts FP16 and FP64 vector instructions (an FP32 SGEMM's HFMA2
    // moves show up as "tensor"): trust it only when both vector families are recorded as zero.
    auto fp16 = Family(metrics, "hadd", "hmul", "hfma", 2, 4);
    auto fp64 = Family(metrics, "dadd", "dmul", "dfma", 1, 2);
    bool vector_free = fp16 && *fp16 == 0 && fp64 && *fp64 == 0;
    if (instructions && *instructions > 0 && vector_free)
      add(Precision::kFp16, MathUnit::kTensor, 512 * *instructions);
  }
  if (!known)
    return std::nullopt;
  return flops;
}

std::optional<double> LaunchDramBytes(const std::map<std::string, double>& metrics) {
  auto read = Find(metrics, "dram__bytes_read.sum");
  auto write = Find(metrics, "dram__bytes_write.sum");
  if (read && write)
    return *read + *write;
  return Find(metrics, "dram__bytes.sum");
}

report::KernelRoofline ComputeRoofline(const std::vector<RooflineInstance>& instances,
                                       const model::DeviceCeilings* ceilings) {
  std::vector<InstanceWork> work;
  work.reserve(instances.size());
  for (const RooflineInstance& instance : instances) {
    work.push_back(
        {instance.duration_ns, LaunchFlops(*instance.metrics), LaunchDramBytes(*instance.metrics)});
  }
  report::KernelRoofline r = RooflineFromWork(work, ceilings);
  // The cache levels: summed only when every instance recorded them, like the DRAM bytes.
  auto level = [&](const char* metric) -> std::optional<double> {
    double sum = 0;
    for (const RooflineInstance& instance : instances) {
      auto value = Find(*instance.metrics, metric);
      if (!value)
        return std::nullopt;
      sum += *value;
    }
    return instances.empty() ? std::nullopt : std::optional<double>(sum);
  };
  r.l2_bytes = level("lts__t_bytes.sum");
  r.l1_bytes = level("l1tex__t_bytes.sum");
  if (r.flops && r.l2_bytes && *r.l2_bytes > 0)
    r.l2_arithmetic_intensity = *r.flops / *r.l2_bytes;
  if (r.flops && r.l1_bytes && *r.l1_bytes > 0)
    r.l1_arithmetic_intensity = *r.flops / *r.l1_bytes;
  if (r.l2_bytes && r.dram_bytes && *r.dram_bytes > 0)
    r.l2_over_dram_bytes = *r.l2_bytes / *r.dram_bytes;
  return r;
}

report::KernelRoofline RooflineFromWork(const std::vector<InstanceWork>& instances,
                                        const model::DeviceCeilings* ceilings) {
  report::KernelRoofline r;
  r.instances = static_cast<std::int64_t>(instances.size());
  std::map<PrecisionUnit, double> flops;
  std::vector<std::map<PrecisionUnit, double>> per_instance_flops;
  std::vector<double> per_instance_bytes;
  bool flops_known = true, bytes_known = true;
  double bytes = 0, seconds = 0;
  bool durations_known = true;
  for (const InstanceWork& instance : instances) {
    durations_known = durations_known && instance.duration_ns >= 0;
    seconds += static_cast<double>(instance.duration_ns) * 1e-9;
    const auto& f = instance.flops;
    const auto& b = instance.bytes;
    flops_known = flops_known && f.has_value();
    bytes_known = bytes_known && b.has_value();
    if (f) {
      for (const auto& [key, value] : *f)
        flops[key] += value;
      per_instance_flops.push_back(*f);
    }
    if (b) {
      bytes += *b;
      per_instance_bytes.push_back(*b);
    }
  }
  if (!durations_known)
    seconds = 0;  // no achieved rates, no roof fraction, bound "unknown"
  // 0 when unknown (plain doubles: GCC 12 misreads optionals here as maybe-uninitialized).
  double bw = ceilings && ceilings->dram_bytes_per_s ? *ceilings->dram_bytes_per_s : 0.0;
  if (ceilings) {
    r.ceiling_source = fmt::format(
        "{} {}: {}", report::ToString(ceilings->evidence), ceilings->key, ceilings->source);
  }
  if (bw > 0)
    r.peak_bytes_per_s = bw;
  if (bytes_known) {
    r.dram_bytes = bytes;
    if (seconds > 0)
      r.achieved_bytes_per_s = bytes / seconds;
  }
  if (!flops_known)
    return r;

  // The precision and unit the kernel spends the most time on at their peak rates (largest FLOPs
  // without ceilings): an FP32 SGEMM that also issues a few HFMA2 moves is an FP32 kernel.
  std::optional<PrecisionUnit> chosen;
  std::optional<double> peak;
  double best = 0;
  for (const auto& [key, value] : flops) {
    if (value <= 0)
      continue;
    std::optional<double> key_peak =
        ceilings ? ceilings->Peak(key.first, key.second) : std::nullopt;
    double score = key_peak ? value / *key_peak : 0;
    bool better = !chosen || (key_peak && (!peak || score > best)) ||
                  (!key_peak && !peak && value > flops[*chosen]);
    if (better) {
      chosen = key;
      peak = key_peak;
      best = score;
    }
  }
  double f = chosen ? flops[*chosen] : 0.0;
  r.flops = f;
  r.peak_flops_per_s = peak;
  if (chosen) {
    r.precision = std::string(model::ToString(chosen->first));
    r.unit = std::string(model::ToString(chosen->second));
  }
  if (seconds > 0)
    r.achieved_flops_per_s = f / seconds;
  if (!bytes_known)
    return r;
  if (bytes > 0)
    r.arithmetic_intensity = f / bytes;
  // Below this the kernel has no roof: FLOPs on a unit without a datasheet peak, or no bandwidth.
  double pk = peak ? *peak : 0.0;
  if (bw <= 0 || (f > 0 && pk <= 0) || per_instance_flops.size() != per_instance_bytes.size())
    return r;

  double floor_s = 0;
  for (std::size_t i = 0; i < per_instance_bytes.size(); ++i) {
    double fi = chosen ? per_instance_flops[i][*chosen] : 0.0;
    double compute_s = fi > 0 ? fi / pk : 0.0;
    floor_s += std::max(compute_s, per_instance_bytes[i] / bw);
  }
  r.floor_ns = std::llround(floor_s * 1e9);
  if (seconds <= 0)
    return r;
  double memory_fraction = bytes / seconds / bw;
  double compute_fraction = f > 0 ? f / seconds / pk : 0.0;
  // Left of the ridge point (AI < peak / bandwidth) the roof is the bandwidth slope.
  bool memory_side = f == 0 || (bytes > 0 && f / bytes < pk / bw);
  r.roof_fraction = memory_side ? memory_fraction : compute_fraction;
  if (memory_fraction < report::kLatencyBoundFraction &&
      compute_fraction < report::kLatencyBoundFraction) {
    r.bound = report::KernelBound::kLatency;
  } else {
    r.bound = memory_side ? report::KernelBound::kMemory : report::KernelBound::kCompute;
  }
  return r;
}

std::string DescribeCeilings(const std::map<std::int32_t, model::CeilingMatch>& matches) {
  std::string out;
  for (const auto& [device, match] : matches) {
    out += fmt::format("{}device {}: {}",
                       out.empty() ? "" : "; ",
                       device,
                       match.entry ? fmt::format("{} {} ({})",
                                                 report::ToString(match.entry->evidence),
                                                 match.entry->key,
                                                 match.entry->source)
                                   : "no datasheet ceilings (" + match.reason + ")");
  }
  return out;
}

void AttachRooflines(const model::Trace& trace,
                     const DeviceRoofsTable& table,
                     std::vector<report::KernelRow>& kernels,
                     std::vector<std::string>& notes) {
  if (trace.counters.empty())
    return;
  // Instances with counters by kernel name; the last counters of an activity win.
  std::map<std::size_t, const model::KernelCounters*> by_activity;
  for (const model::KernelCounters& c : trace.counters) {
    if (c.activity < trace.activities.size() &&
        trace.activities[c.activity].kind == model::ActivityKind::kKernel)
      by_activity[c.activity] = &c;
  }
  std::map<std::string, std::vector<RooflineInstance>> by_name;
  std::map<std::string, std::int32_t> device_of;
  for (const auto& [index, counters] : by_activity) {
    const model::GpuActivity& a = trace.activities[index];
    std::string name(trace.Name(a.name));
    by_name[name].push_back({RunDuration(a, *counters), &counters->metrics});
    device_of.emplace(name, a.device);
  }
  std::map<std::int32_t, const DeviceRoofs*> roofs;  // the devices with counters
  for (const auto& [name, device] : device_of)
    roofs.emplace(device, &table.Of(device));
  for (report::KernelRow& row : kernels) {
    auto it = by_name.find(row.name);
    if (it == by_name.end())
      continue;
    const std::int32_t device = device_of[row.name];
    const DeviceRoofs& roof = *roofs.at(device);
    const auto& candidates = roof.unnamed_candidates;
    row.roofline = candidates.empty()
                       ? ComputeRoofline(it->second, roof.ForCounters())
                       : CandidateRoofline(it->second, candidates, roof.ScaleClock());
    // Candidates are always placed at the counters' clock; a named entry when it differs.
    bool scaled = candidates.empty() ? roof.scaled.has_value() : roof.ScaleClock().has_value();
    if (scaled && !row.roofline->ceiling_source.empty()) {
      row.roofline->sm_clock_hz = roof.counters_clock_hz;
      row.roofline->ceiling_source +=
          fmt::format("; compute peaks scaled to the {:.0f} MHz SM clock the counters ran at ({})",
                      *roof.counters_clock_hz / 1e6,
                      roof.counters_clock_metric);
    }
  }
  for (const auto& [device, roof_of] : roofs) {
    const DeviceRoofs& roof = *roof_of;
    const model::CeilingMatch& match = roof.match;
    if (match.entry) {
      const bool measured = match.entry->evidence == report::CeilingsEvidence::kMeasured;
      std::string clock = roof.scaled
                              ? fmt::format(
                                    ", compute peaks scaled from the {:.3g} GHz {}{} to the "
                                    "{:.3g} GHz the counters ran at",
                                    match.entry->boost_clock_hz.value_or(0) / 1e9,
                                    measured ? "SM clock of the measurement" : "boost clock",
                                    match.entry->tensor_clock_hz
                                        ? fmt::format(" ({:.3g} GHz for the tensor-core peaks "
                                                      "but FP64's)",
                                                      *match.entry->tensor_clock_hz / 1e9)
                                        : std::string(),
                                    roof.counters_clock_hz.value_or(0) / 1e9)
                              : std::string();
      if (measured)
        clock += MeasuredScope(trace, device);
      notes.push_back(fmt::format(
          "roofline (device {}): counters against the {} ceilings of {} ({}): DRAM {:.0f} "
          "GB/s{}. \"latency\" means under {} of both the compute and the memory roof.",
          device,
          report::ToString(match.entry->evidence),
          match.entry->key,
          match.entry->source,
          match.entry->dram_bytes_per_s.value_or(0) / 1e9,
          clock,
          PercentText(report::kLatencyBoundFraction)));
    } else if (!roof.unnamed_candidates.empty()) {
      notes.push_back(fmt::format(
          "roofline (device {}): no single datasheet entry ({}); each kernel is placed against "
          "every candidate{} and gets a bound only when all of them give the same one (else "
          "\"unknown\"); name the GPU with analyze --gpu NAME for one roof.",
          device,
          match.reason,
          roof.ScaleClock() ? fmt::format(" (compute peaks scaled to the {:.3g} GHz SM clock "
                                          "the counters ran at)",
                                          *roof.ScaleClock() / 1e9)
                            : std::string()));
    } else {
      notes.push_back(fmt::format(
          "roofline (device {}): no datasheet ceilings ({}); FLOPs, bytes, arithmetic intensity "
          "and achieved rates only, bound \"unknown\".",
          device,
          match.reason));
    }
  }
}

}  // namespace gpuperf::analysis
