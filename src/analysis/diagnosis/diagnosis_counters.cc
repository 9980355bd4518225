// The diagnosis of inputs whose evidence is Nsight Compute counters: what a standalone CSV
// without durations can say, and the next experiment when the dominant kernel already has
// counters (the next ncu sections, never the roofline set the file already holds).
#include <fmt/format.h>

#include <map>

#include "analysis/diagnosis/diagnosis.h"

namespace gpuperf::analysis {
namespace {

// The rule of the largest estimated speedup, as evidence: "Nsight Compute rule
// Occupancy/TheoreticalOccupancy (OPT, est. 79.5% local): <description>".
void AddTopRule(report::Diagnosis& d, const report::KernelRow& row) {
  // Rules come ranked by estimate (ncu_evidence); older ncu gives none: then its first warning.
  const report::NcuRule* top = nullptr;
  for (const report::NcuRule& rule : row.ncu_rules) {
    if (rule.estimated_speedup_percent || rule.type == "WRN") {
      top = &rule;
      break;
    }
  }
  if (!top)
    return;
  std::string estimate = top->estimated_speedup_percent
                             ? fmt::format(", estimated speedup {:.1f}%{}",
                                           *top->estimated_speedup_percent,
                                           top->speedup_type.empty() ? "" : " " + top->speedup_type)
                             : std::string();
  d.support.push_back(fmt::format("Nsight Compute rule {}/{} ({}{}): {} (counters).",
                                  top->section,
                                  top->name,
                                  top->type,
                                  estimate,
                                  top->description));
}

// What the dominant kernel's counters lack for a class, as measurements to add.
std::vector<std::string> MissingForClass(const report::KernelRow& row) {
  const report::KernelRoofline& r = *row.roofline;
  std::vector<std::string> missing;
  if (!r.flops)
    missing.push_back(
        "FLOP counts (ncu --section SpeedOfLight_RooflineChart, or the "
        "smsp__sass_thread_inst_executed_op_* metrics)");
  if (!r.dram_bytes)
    missing.push_back("DRAM bytes (dram__bytes_read.sum, dram__bytes_write.sum)");
  if (r.flops && r.dram_bytes && !r.achieved_flops_per_s)
    missing.push_back("the kernel's duration (gpu__time_duration.sum)");
  if (!missing.empty() || !r.achieved_flops_per_s)
    return missing;
  const bool no_peak =
      r.flops && *r.flops > 0 &&
      (r.ceiling_candidates.empty() ? !r.peak_flops_per_s : !r.compute_fraction_range);
  if (r.ceiling_source.empty()) {
    missing.push_back("the GPU's name (gpuperf analyze FILE --gpu NAME)");
  } else if (no_peak) {
    missing.push_back(fmt::format(
        "a {} {} peak for this GPU (its datasheet entries give none; gpuperf ceilings measures "
        "FP32 and BF16/FP16 tensor peaks, analyze --ceilings uses them)",
        r.precision,
        r.unit));
  } else if (!r.ceiling_candidates.empty()) {
    missing.push_back(
        "the GPU's name (gpuperf analyze FILE --gpu NAME): the datasheet entries of its "
        "compute capability give different bounds");
  }
  return missing;
}

}  // namespace

void AdviseFromCounters(report::Diagnosis& d, const report::KernelRow& row) {
  if (!row.roofline || row.roofline->evidence != report::EvidenceTier::kMeasured)
    return;  // no counters on the dominant kernel: the general advice stands
  AddTopRule(d, row);
  if (d.bottleneck != report::Bottleneck::kUnknown)
    return;
  std::vector<std::string> missing = MissingForClass(row);
  if (missing.empty())
    return;
  std::string list;
  for (const std::string& item : missing)
    list += (list.empty() ? "" : "; ") + item;
  d.next_experiment = "Complete the counters of the dominant kernel: " + list +
                      ". The file already holds its other counters.";
  d.missing_evidence = "The dominant kernel's counters lack " + list + ".";
}

void DiagnoseWithoutDurations(report::Diagnosis& d, const report::AnalysisReport& r) {
  std::map<std::string, std::int64_t> classes;  // by spelling: the sentence lists them so
  for (const report::KernelRow& k : r.kernels)
    ++classes[std::string(report::ToString(k.classification.bound))];
  std::string counts;
  for (const auto& [bound, n] : classes)
    counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", n, bound);
  d.dominant_kind = report::DominantKind::kUnknown;  // GPU work exists, its time is not recorded
  d.bottleneck = report::Bottleneck::kUnknown;
  d.status = report::DiagnosisStatus::kHypothesis;
  d.evidence = report::EvidenceTier::kNone;
  d.support.push_back(fmt::format(
      "The input records no duration for any of its {} kernel launches (no "
      "gpu__time_duration.sum, no elapsed cycles): there is no time to split between idle, "
      "host and kernels, and no dominant kernel (trace).",
      r.audit.kernel_launches));
  d.support.push_back(
      fmt::format("Per-kernel classes from the counters: {} (kernel classes).", counts));
  d.triage.push_back({report::TriageQuestion::kGpuIdle,
                      report::TriageAnswer::kUnknown,
                      "the input records no durations, so no idle time (trace)"});
  d.next_experiment =
      "Record durations: profile again with gpu__time_duration.sum (ncu --section "
      "SpeedOfLight) or trace the run (nsys, torch.profiler) and join these counters with "
      "gpuperf analyze TRACE --counters FILE.";
  d.falsified_by = "Not applicable until durations rank the kernels.";
  d.missing_evidence = "Kernel durations: without them no kernel dominates and no time is idle.";
}

}  // namespace gpuperf::analysis
