#include "analysis/kernel/ceilings_used.h"

#include <fmt/format.h>

#include <set>
#include <utility>

namespace gpuperf::analysis {
namespace {

// The clocks of a measured entry: each compute kernel's SM clock during the measurement.
std::string MeasuredClocksText(const model::MeasuredCeilings& m) {
  std::string text = "measured by gpuperf ceilings";
  const std::pair<const char*, const model::MeasuredFigure*> figures[] = {
      {"fp32 vector", &m.fp32_vector},
      {"bf16 tensor", &m.bf16_tensor},
      {"fp16 tensor", &m.fp16_tensor}};
  std::string clocks;
  for (const auto& [name, figure] : figures) {
    if (figure->sm_clock_hz)
      clocks += fmt::format(
          "{}{} {:.3g} GHz", clocks.empty() ? "" : ", ", name, *figure->sm_clock_hz / 1e9);
  }
  text += clocks.empty() ? "; the SM clock of the measurement is unknown"
                         : "; SM clock during the kernels (clock64 / %globaltimer): " + clocks;
  if (m.max_sm_clock_hz > 0)
    text += fmt::format(" (maximum {:.3g} GHz)", m.max_sm_clock_hz / 1e9);
  return text;
}

std::string DatasheetClocksText(const model::DeviceCeilings& entry) {
  if (!entry.boost_clock_hz)
    return "datasheet peaks at the vendor's rated clock";
  std::string text = fmt::format("datasheet peaks hold at the {:.3g} GHz boost clock",
                                 *entry.boost_clock_hz / 1e9);
  if (entry.tensor_clock_hz)
    text += fmt::format(" (the tensor-core peaks but FP64's at {:.3g} GHz)",
                        *entry.tensor_clock_hz / 1e9);
  return text;
}

// `measured`: the device's measured ceilings when `entry` is made from them, else null.
std::string ClocksText(const model::DeviceCeilings& entry,
                       const DeviceRoofs& roofs,
                       bool modeled,
                       const model::MeasuredCeilings* measured) {
  std::string text = measured ? MeasuredClocksText(*measured) : DatasheetClocksText(entry);
  const char* reference = measured ? "the measurement's" : "boost";
  if (roofs.counters_clock_hz) {
    text += fmt::format("; the counters ran at {:.3g} GHz ({})",
                        *roofs.counters_clock_hz / 1e9,
                        roofs.counters_clock_metric);
    if (!roofs.durations_from_counters)
      text += fmt::format(
          ", but the durations are the trace's, at a clock it does not record: "
          "{} assumed, unscaled",
          reference);
    else if (roofs.scaled)
      text += ", so compute roofs for counter rooflines are scaled to that clock";
    else if (measured && !entry.boost_clock_hz)
      text += ", unscaled: the measured kernels ran at different or unknown clocks";
    else
      text += fmt::format(", within 2% of {}: unscaled", reference);
  }
  if (modeled || !roofs.counters_clock_hz) {
    text += fmt::format(
        "; for kernels without counters the trace does not record the clock: {} assumed",
        reference);
  }
  return text;
}

// An unnamed device placed against every candidate entry (roofline_candidates.h): the clocks
// they hold at and the counters' clock they are scaled to; "" without candidates.
std::string CandidateClocksText(const std::vector<const model::DeviceCeilings*>& candidates,
                                const DeviceRoofs& roofs) {
  std::set<double> boost;
  for (const model::DeviceCeilings* entry : candidates) {
    if (entry->boost_clock_hz)
      boost.insert(*entry->boost_clock_hz);
  }
  if (candidates.empty())
    return "";
  std::string text =
      boost.size() == 1
          ? fmt::format("the candidates' datasheet peaks hold at the {:.3g} GHz boost clock",
                        *boost.begin() / 1e9)
          : std::string("each candidate's datasheet peaks hold at its boost clock");
  if (roofs.ScaleClock()) {
    text += fmt::format(
        "; the counters ran at {:.3g} GHz ({}), so compute roofs for counter rooflines are "
        "scaled to that clock (DRAM bandwidth is not: the memory clock is not the SM clock)",
        *roofs.ScaleClock() / 1e9,
        roofs.counters_clock_metric);
  }
  return text;
}

void AddPeaks(const model::DeviceCeilings& entry, report::CeilingsUsed& used) {
  using model::MathUnit;
  using model::Precision;
  for (Precision p : {Precision::kFp64,
                      Precision::kFp32,
                      Precision::kTf32,
                      Precision::kFp16,
                      Precision::kBf16,
                      Precision::kFp8,
                      Precision::kInt8}) {
    for (MathUnit u : {MathUnit::kVector, MathUnit::kTensor}) {
      if (auto peak = entry.Peak(p, u))
        used.peaks.push_back(
            {std::string(model::ToString(p)), std::string(model::ToString(u)), *peak});
    }
  }
}

}  // namespace

std::vector<report::CeilingsUsed> CeilingsUsed(const model::Trace& trace,
                                               const DeviceRoofsTable& table,
                                               const std::vector<report::KernelRow>& kernels) {
  std::set<std::string> with_roofline;
  bool modeled = false;
  for (const report::KernelRow& row : kernels) {
    if (row.roofline) {
      with_roofline.insert(row.name);
      modeled = modeled || row.roofline->evidence == report::EvidenceTier::kModeled;
    }
  }
  std::set<std::int32_t> devices;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind == model::ActivityKind::kKernel &&
        with_roofline.count(std::string(trace.Name(a.name))))
      devices.insert(a.device);
  }
  std::vector<report::CeilingsUsed> out;
  for (std::int32_t device : devices) {
    const DeviceRoofs& roofs = table.Of(device);
    report::CeilingsUsed used;
    used.device = device;
    if (const model::Device* d = trace.FindDevice(device))
      used.device_name = d->name;
    if (const model::DeviceCeilings* entry = roofs.match.entry) {
      used.entry = std::string(entry->key);
      used.evidence = entry->evidence;
      used.source = std::string(entry->source);
      if (!roofs.match.identified_by.empty())
        used.source += "; " + roofs.match.identified_by;
      used.dram_bytes_per_s = entry->dram_bytes_per_s;
      used.l2_bytes = entry->l2_bytes;
      AddPeaks(*entry, used);
      const model::Device* d = trace.FindDevice(device);
      const model::MeasuredCeilings* measured =
          d && d->measured_ceilings && used.evidence == report::CeilingsEvidence::kMeasured
              ? &*d->measured_ceilings
              : nullptr;
      used.clocks = ClocksText(*entry, roofs, modeled, measured);
    } else {
      used.reason = roofs.match.reason;
      used.clocks = CandidateClocksText(roofs.unnamed_candidates, roofs);
    }
    out.push_back(std::move(used));
  }
  return out;
}

}  // namespace gpuperf::analysis
