// report.md's diagnosis (the bottleneck statement of docs/method.md, first after the
// headline), the ceilings the
// report used, and the per-kernel classes.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/markdown_escape.h"
#include "report/markdown_sections.h"
#include "report/markdown_table.h"
#include "report/row_order.h"
#include "util/units_format.h"

namespace gpuperf::report::markdown {
namespace {

std::string Ns(std::int64_t ns) {
  return util::FormatDuration(static_cast<double>(ns));
}

std::string DominantText(const Diagnosis& d, const MarkdownOptions& options) {
  std::string share = util::FormatPercent(100.0 * d.dominant_fraction);
  if (d.dominant_kind == DominantKind::kIdle)
    return fmt::format("GPU idle time, {} of the window", share);
  if (d.dominant_kind == DominantKind::kKernel)
    return fmt::format("kernel {}, {} of the wall time (critical time)",
                       Shorten(d.dominant_name, options.name_chars),
                       share);
  if (d.dominant_kind == DominantKind::kRoutine)
    return fmt::format(
        "the kernels of routine {} (its lambdas), {} of the wall time (critical time)",
        Shorten(d.dominant_name, options.name_chars),
        share);
  if (d.dominant_kind == DominantKind::kCopy)
    return fmt::format("exposed copies ({}), {} of the window", d.dominant_name, share);
  // The attention lever's subject is the module whose eager attention it replaces.
  const std::string operators =
      d.lever == LeverKind::kUseSdpa ? "the attention operators in" : "operators";
  if (d.dominant_kind == DominantKind::kOperators &&
      d.time_removed_fraction_at_2x)  // a lever at an assumed 2x
    return fmt::format(
        "{} {}, {} of the wall time; {} of the wall comes back at an "
        "assumed 2x",
        operators,
        Shorten(d.dominant_name, options.name_chars),
        share,
        util::FormatPercent(100.0 * *d.time_removed_fraction_at_2x));
  if (d.dominant_kind == DominantKind::kOperators)
    return fmt::format("{} {}, at most {} of the wall time would come back",
                       operators,
                       Shorten(d.dominant_name, options.name_chars),
                       share);
  if (d.dominant_kind == DominantKind::kInitialization)
    // Of the trace window: the steady-state window is what is left without it.
    return d.dominant_name.empty()
               ? fmt::format("one-time work (initialization), {} of the trace window", share)
               : fmt::format(
                     "one-time work (initialization), {} of the trace window; the largest "
                     "item {}",
                     share,
                     Shorten(d.dominant_name, options.name_chars));
  if (d.dominant_kind == DominantKind::kCommunication)
    return fmt::format("communication ({}), {} of the window",
                       Shorten(d.dominant_name, options.name_chars),
                       share);
  if (d.dominant_kind == DominantKind::kUnknown)
    return "unknown: the input records no durations";
  return "none: the trace holds no GPU work";
}

// "finding, evidence measured", "hypothesis, evidence modeled"; an empty field is never printed:
// a hypothesis without evidence says the evidence to classify it is missing.
std::string StatusText(const Diagnosis& d) {
  bool finding = d.status == DiagnosisStatus::kFinding;
  if (d.evidence != EvidenceTier::kNone)
    return fmt::format("{}, evidence {}",
                       finding ? "finding" : "hypothesis",
                       EscapeMarkdown(ToString(d.evidence)));
  return finding ? "finding" : "hypothesis: the evidence to classify it is missing";
}

// One-time work, apart from the steady state it was left out of.
void AppendInitialization(std::string& out,
                          const AnalysisReport& report,
                          const MarkdownOptions& options) {
  const Initialization& init = report.initialization;
  if (init.items.empty())
    return;
  out += "### Initialization (one-time work)\n\n";
  out += fmt::format(
      "{} ({} of the trace window) is one-time work, found from first-call outliers, names and "
      "graph-capture windows (`docs/metrics.md`, \"Initialization\"). The steady-state shares "
      "and bounds above leave it out. Rows can nest (a call inside a first operator call; its "
      "evidence says so): the total is their union, not their sum.\n\n",
      Ns(init.time_ns),
      util::FormatPercent(100.0 * init.fraction));
  MarkdownTable table(
      {{"kind"}, {"name"}, {"time", Align::kRight}, {"count", Align::kRight}, {"evidence"}});
  for (const InitializationItem& item : init.items)
    table.AddRow({std::string(ToString(item.kind)),
                  Shorten(item.name, options.name_chars),
                  Ns(item.time_ns),
                  util::FormatCount(item.count),
                  item.evidence});
  out += table.Render() + "\n";
  if (init.items_omitted > 0)
    out += fmt::format("{} more items not shown (report.json has the first {}).\n\n",
                       init.items_omitted,
                       init.items.size());
}

}  // namespace

// The diagnosis per phase (AnalysisReport::phase_verdicts): one row each, the idle's largest
// holder named.
void AppendPhaseVerdicts(std::string& out,
                         const AnalysisReport& report,
                         const MarkdownOptions& options) {
  if (report.phase_verdicts.empty())
    return;
  out += "### Phases (NVTX and annotation ranges)\n\n";
  out +=
      "Each phase over its own time in the steady-state window (a range inside another counts in "
      "both). Its GPU-busy time splits into kernels "
      "and copies running alone. Its GPU idle is first the idle with the next GPU work already "
      "launched (a device-side dependency, not the host), then the host call it falls in (a "
      "blocking wait or the round trip after one, blocking MPI calls, launch calls, device "
      "allocations, other CUDA calls), the rest host work: where the idle lies, not what removing "
      "a call gives back (the findings bound that; for waits the verdict says it: the launch calls "
      "of a round trip remain without the wait). Only phases of 5% to 90% of the window are shown, "
      "at most six. The verdict is runs-behind when most of the "
      "GPU work the phase launches runs after it (the host is ahead: the program does not wait "
      "for the phase's host time), GPU work when it runs half the phase or more (transfer or "
      "communication when copies or collectives running alone are most of it: the slowest rank "
      "and the link set a collective's time, so a change to it counts only if every rank "
      "gains), else the idle's largest holder (trace).\n\n";
  MarkdownTable table({{"phase"},
                       {"instances", Align::kRight},
                       {"wall", Align::kRight},
                       {"kernels", Align::kRight},
                       {"copies alone", Align::kRight},
                       {"GPU idle", Align::kRight},
                       {"idle mostly in"},
                       {"launched by it (inside it)", Align::kRight},
                       {"verdict"}});
  for (const PhaseVerdict& v : report.phase_verdicts) {
    std::string verdict(ToString(v.verdict));
    std::replace(verdict.begin(), verdict.end(), '_', '-');
    if (v.verdict == PhaseClass::kSyncBound)
      verdict +=
          fmt::format(" (its waits cause {} of the idle: removing them gives back at most that)",
                      Ns(v.wait_removal_ns));
    if (v.verdict == PhaseClass::kCommunicationBound && v.communication_ns > 0)
      verdict += fmt::format(
          " (collectives alone {}: `gpuperf ranks` over all ranks shows whether this one "
          "waits)",
          Ns(v.communication_ns));
    table.AddRow({Shorten(v.name, options.name_chars),
                  util::FormatCount(v.instances),
                  Ns(v.wall_ns),
                  Ns(v.kernel_ns),
                  Ns(v.copy_exposed_ns),
                  Ns(v.idle_ns),
                  v.idle_ns > 0
                      ? fmt::format("{} {} ({}{})",
                                    v.idle_largest_in,
                                    Ns(v.idle_largest_ns),
                                    util::FormatPercent(v.idle_largest_percent),
                                    v.idle_largest_ns == v.idle_sync_ns && v.idle_round_trip_ns > 0
                                        ? "; round trips " + Ns(v.idle_round_trip_ns)
                                        : std::string())
                      : std::string("-"),
                  fmt::format("{} ({})", Ns(v.launched_gpu_ns), Ns(v.launched_inside_ns)),
                  verdict});
  }
  out += table.Render() + "\n";
}

void AppendDiagnosis(std::string& out,
                     const AnalysisReport& report,
                     const MarkdownOptions& options) {
  const Diagnosis& d = report.diagnosis;
  if (d.bottleneck == Bottleneck::kNone)
    return;
  out += "## Diagnosis\n\n";
  if (d.lead == DiagnosisLead::kInputCheck)
    out += fmt::format(
        "**Lead: the work may repeat on one input** (a check: the trace records shapes, not "
        "values): {}. It bounds more than the bottleneck's own lever, which follows for the input "
        "as it is.\n\n",
        EscapeMarkdown(d.input_check));
  if (d.status == DiagnosisStatus::kFinding) {
    out += fmt::format("**Bottleneck: {}** (finding; evidence: {}).\n\n",
                       EscapeMarkdown(d.label),
                       EscapeMarkdown(ToString(d.evidence)));
  } else {
    out += fmt::format(
        "**Hypothesis: {}** (not a finding: {}).\n\n",
        EscapeMarkdown(d.label),
        d.evidence == EvidenceTier::kNone ? "the evidence to classify it is missing"
        : d.evidence == EvidenceTier::kMeasured
            ? "what is measured does not show the cause; the next experiment tests it"
            : "the evidence is " + EscapeMarkdown(ToString(d.evidence)) + ", not measured");
  }
  auto item = [&](const char* label, const std::string& text) {
    out += fmt::format("- **{}:** {}\n", label, EscapeMarkdown(text));
  };
  item("Target metric", d.target_metric);
  item("Workload scope", d.scope);
  item("Baseline", d.baseline);
  item("Dominant", DominantText(d, options));
  item("Next experiment", d.next_experiment);
  item("Falsified by", d.falsified_by);
  if (!d.missing_evidence.empty())
    item("Missing evidence", d.missing_evidence);
  if (d.queue)
    item("Launch queue", d.queue->sentence);
  out += "\n";
  if (!d.support.empty()) {
    out += "Evidence:\n\n";
    for (const std::string& line : d.support)
      out += "- " + EscapeMarkdown(line) + "\n";
    out += "\n";
  }
  if (!d.triage.empty()) {
    out += "Triage, in the order GPU idle → transfer → communication → dominant work:\n\n";
    for (std::size_t i = 0; i < d.triage.size(); ++i) {
      const TriageStep& step = d.triage[i];
      out += fmt::format("{}. {}: {} ({})\n",
                         i + 1,
                         EscapeMarkdown(ToString(step.question)),
                         EscapeMarkdown(ToString(step.answer)),
                         EscapeMarkdown(step.detail));
    }
    out += "\n";
  }
  if (!d.secondary.empty()) {
    const Diagnosis& s = d.secondary.front();
    out += fmt::format("**Secondary: {}** ({}; the {} phase of this window).\n\n",
                       EscapeMarkdown(s.label),
                       StatusText(s),
                       s.dominant_kind == DominantKind::kIdle   ? "idle"
                       : s.dominant_kind == DominantKind::kCopy ? "copy"
                                                                : "GPU");
    item("Dominant", DominantText(s, options));
    item("Next experiment", s.next_experiment);
    item("Falsified by", s.falsified_by);
    if (!s.missing_evidence.empty())
      item("Missing evidence", s.missing_evidence);
    for (const std::string& line : s.support)
      out += "  - " + EscapeMarkdown(line) + "\n";
    out += "\n";
  }
  AppendPhaseVerdicts(out, report, options);
  AppendInitialization(out, report, options);
}

void AppendCeilings(std::string& out, const AnalysisReport& report) {
  if (report.ceilings.empty())
    return;
  out += "### Ceilings used\n\n";
  MarkdownTable table({{"device", Align::kRight},
                       {"name"},
                       {"ceilings"},
                       {"DRAM", Align::kRight},
                       {"peaks"},
                       {"clocks"}});
  for (const CeilingsUsed& c : report.ceilings) {
    if (c.entry.empty()) {
      table.AddRow(
          {std::to_string(c.device), c.device_name, "none: " + c.reason, "", "", c.clocks});
      continue;
    }
    std::string peaks;
    for (const CeilingPeak& p : c.peaks) {
      peaks += fmt::format(
          "{}{} {} {:.4g} T", peaks.empty() ? "" : ", ", p.precision, p.unit, p.flops_per_s / 1e12);
    }
    table.AddRow({std::to_string(c.device),
                  c.device_name,
                  fmt::format("{} ({}: {})", c.entry, ToString(c.evidence), c.source),
                  c.dram_bytes_per_s ? fmt::format("{:.4g} GB/s", *c.dram_bytes_per_s / 1e9) : "",
                  peaks + " (FLOP/s; INT8: op/s)",
                  c.clocks});
  }
  out += table.Render() + "\n";
}

void AppendClassification(std::string& out,
                          const AnalysisReport& report,
                          const MarkdownOptions& options) {
  std::vector<const KernelRow*> rows;
  for (const KernelRow* row : KernelsByTotalTime(report.kernels)) {
    if (HasClassOrTensorCoreEvidence(*row))
      rows.push_back(row);
  }
  const std::int64_t unclassified = report.unclassified_kernels.kernels;
  if (rows.empty())
    return;
  out += "## Kernel classes\n\n";
  // The table lists only classified kernels: say what it leaves out, so that a few small
  // launch-class kernels are not read as the profile.
  if (unclassified > 0)
    out += fmt::format(
        "{} kernel{} holding {} of kernel time {} no class (no counters and no byte/FLOP model "
        "cover {}) and {} not listed.\n\n",
        unclassified,
        unclassified == 1 ? "" : "s",
        util::FormatPercent(report.unclassified_kernels.time_percent),
        unclassified == 1 ? "has" : "have",
        unclassified == 1 ? "it" : "them",
        unclassified == 1 ? "is" : "are");
  out +=
      "The roofline's bound where one exists; \"cache\" for a kernel under both roofs whose "
      "L1/TEX or L2 traffic is many times its DRAM bytes at under one FLOP per byte of it (no "
      "on-chip reuse); \"launch\" for kernels of under 10 us on less than one wave. Tensor-core "
      "use only with evidence: counters or SASS (measured), else the "
      "name (inferred). Rules: `docs/metrics.md`, \"Classification\".\n\n";
  MarkdownTable table(
      {{"#", Align::kRight}, {"kernel"}, {"class"}, {"evidence"}, {"why"}, {"tensor cores"}});
  std::size_t shown = std::min(rows.size(), options.top_rows);
  for (std::size_t i = 0; i < shown; ++i) {
    const KernelRow& k = *rows[i];
    std::string tensor;
    if (k.tensor_cores) {
      tensor = fmt::format("{} ({}, {})",
                           k.tensor_cores->used ? "used" : "not used",
                           ToString(k.tensor_cores->evidence),
                           k.tensor_cores->source);
    }
    if (k.classification.tensor_cores_expected_but_unused)
      tensor += tensor.empty() ? "expected, not used" : "; expected, not used";
    table.AddRow({std::to_string(i + 1),
                  Shorten(k.name, options.name_chars),
                  std::string(ToString(k.classification.bound)),
                  std::string(ToString(k.classification.evidence)),
                  k.classification.reason,
                  tensor});
  }
  out += table.Render() + "\n";
  AppendShownNote(out, shown, rows.size(), "classified kernels");
}

}  // namespace gpuperf::report::markdown
