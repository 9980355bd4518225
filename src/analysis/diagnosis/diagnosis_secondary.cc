// The secondary statement: the idle half of a window whose main statement is its GPU work, and
// the ranking that puts the statement with the larger bound first. Part of the diagnosis
// (diagnosis.cc).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <string_view>

#include "analysis/core/names.h"
#include "analysis/diagnosis/diagnosis.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/diagnosis/input_check.h"
#include "analysis/findings/findings.h"
#include "analysis/kernel/cache_reuse.h"
#include "analysis/kernel/kernel_class.h"
#include "analysis/kernel/readable_name.h"
#include "analysis/predictions/amdahl.h"
#include "analysis/predictions/preroll.h"
#include "analysis/timeline/critical_time.h"
#include "model/ceilings.h"
#include "util/intervals.h"
#include "util/units_format.h"

namespace gpuperf::analysis {

std::vector<report::Diagnosis> SecondaryIdleStatement(const model::Trace& trace,
                                                      const report::Diagnosis& main,
                                                      const report::AnalysisReport& r,
                                                      const IdleAttribution& idle,
                                                      const ExperimentContext& base) {
  report::Diagnosis s;
  s.target_metric = main.target_metric;
  s.scope = main.scope;
  s.baseline = main.baseline;
  std::string subject;
  ExperimentContext context = SameInput(base);
  context.graphs = base.graphs;
  SetIdleClass(trace, s, r, idle, subject, context);
  SetExperiment(s, subject, context);
  return {std::move(s)};
}

// The largest bound of a wait-type finding or its advice (sized by the GPU idle they remove): under
// the idle share that calls for an idle statement, a wait that bounds more than the main statement,
// or kMaterialWaitBound, still earns one, so that the ranking and the reader see it.
double LargestWaitBound(const report::AnalysisReport& r) {
  double best = 1.0;
  for (std::string_view id : kWaitFindings) {
    if (const report::Finding* f = FindFinding(r, id)) {
      best = std::max(
          {best, f->bound_speedup_if_removed.value_or(1.0), f->advice_bound_speedup.value_or(1.0)});
    }
  }
  return best;
}

namespace {

// The statement fields, without the triage, scope and queue the two statements share.
void SwapStatements(report::Diagnosis& a, report::Diagnosis& b) {
  std::swap(a.dominant_kind, b.dominant_kind);
  std::swap(a.dominant_name, b.dominant_name);
  std::swap(a.dominant_fraction, b.dominant_fraction);
  std::swap(a.lever, b.lever);
  std::swap(a.bottleneck, b.bottleneck);
  std::swap(a.status, b.status);
  std::swap(a.evidence, b.evidence);
  std::swap(a.support, b.support);
  std::swap(a.next_experiment, b.next_experiment);
  std::swap(a.bound_speedup, b.bound_speedup);
  std::swap(a.bound_speedup_modeled, b.bound_speedup_modeled);
  std::swap(a.bound_speedup_at_2x, b.bound_speedup_at_2x);
  std::swap(a.bound_speedup_overlapped, b.bound_speedup_overlapped);
  std::swap(a.bound_speedup_across_inputs, b.bound_speedup_across_inputs);
  std::swap(a.bound_speedup_named, b.bound_speedup_named);
  std::swap(a.bound_speedup_same_launches, b.bound_speedup_same_launches);
  std::swap(a.bound_speedup_idle_kept, b.bound_speedup_idle_kept);
  std::swap(a.bound_speedup_estimated, b.bound_speedup_estimated);
  std::swap(a.falsified_by, b.falsified_by);
  std::swap(a.missing_evidence, b.missing_evidence);
}

}  // namespace

// One ranked next experiment: when the other half of a mixed window bounds a larger gain, and
// stands on a finding (or the main statement does not either), its experiment comes first.
void RankStatements(report::Diagnosis& d) {
  if (d.secondary.empty())
    return;
  report::Diagnosis& s = d.secondary.front();
  // A measurement over kernels of unknown class ranks by their gain at 2x, not at zero time.
  auto ranked = [](const report::Diagnosis& x) {
    return x.bound_speedup_at_2x ? x.bound_speedup_at_2x : x.bound_speedup;
  };
  std::optional<double> secondary_bound = ranked(s);
  if (!secondary_bound || !std::isfinite(*secondary_bound))
    return;
  double main_bound = ranked(d).value_or(1.0);
  bool evidence_allows = s.status == report::DiagnosisStatus::kFinding ||
                         d.status != report::DiagnosisStatus::kFinding;
  if (*secondary_bound <= main_bound + 1e-3 || !evidence_allows)
    return;
  SwapStatements(d, s);
  d.support.push_back(fmt::format(
      "Ranked first: its bound ({:.2f}x) is larger than that of the {} phase's statement "
      "({:.2f}x, {}), which follows as the secondary.",
      *secondary_bound,
      s.dominant_kind == report::DominantKind::kIdle   ? "idle"
      : s.dominant_kind == report::DominantKind::kCopy ? "copy"
                                                       : "GPU",
      main_bound,
      report::ToString(s.bottleneck)));
}

}  // namespace gpuperf::analysis
