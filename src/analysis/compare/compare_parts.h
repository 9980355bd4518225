// The parts of gpuperf compare's analysis after the verdicts (analysis/compare/compare.cc): the
// before/after audit, the reconciliation of predictions with measured speedups, and the
// two-line summary. Internal to the analysis layer.
#pragma once

#include "gpuperf/compare.h"

#include <string>
#include <vector>

#include "analysis/compare/compare_stats.h"

namespace gpuperf::analysis {

// The compare::Statistic of a sample comparison (ratio, interval and p absent when not
// computed), and the statistics options of compare's.
compare::Statistic ToStatistic(const SampleComparison& c);
// The same for Welch on two summaries: `ratio` is the ratio of the medians shown beside it
// (absent when a median is unknown), the tested ratio of means is `mean_ratio`.
compare::Statistic SummaryStatistic(const SampleComparison& c);
CompareStatsOptions StatsOptions(const compare::Options& o);

// Operators, categories and modules matched by name (compare_framework.cc).
void CompareFramework(const compare::Side& before,
                      const compare::Side& after,
                      const compare::Options& options,
                      compare::CompareReport& out);

// The kernel-count audit of both sides, plus kernel time, GPU busy time and the dominant kernel
// (compare_audit.cc).
void CompareAudit(const compare::Side& before,
                  const compare::Side& after,
                  compare::CompareReport& out);

// For every kernel judged faster or slower: the Amdahl prediction from its share of the before
// side's critical time against the measured end-to-end speedup, flagged under the end-to-end
// priority rule (compare_audit.cc).
void Reconcile(const compare::Side& before, compare::CompareReport& out);

// out.summary: the verdict line and the kernel-count line (compare_summary.cc).
void Summarize(compare::CompareReport& out);

// "a, b, c": the distinct values, sorted.
std::string Joined(const std::vector<std::string>& values);

}  // namespace gpuperf::analysis
