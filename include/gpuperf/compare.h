// The before/after comparison model: what `gpuperf compare` computes from two sides (baseline
// directories, traces or reports). Writers only format it (docs/compare.md).
#pragma once

#include "gpuperf/report.h"
#include "gpuperf/schema_versions.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuperf::compare {

// A comparison's verdict: the after side is faster, slower, the same (within the threshold) or
// the evidence says neither (inconclusive); the sides are incomparable (environment or workload
// differ: the whole comparison only). compare.json spells them "faster", "slower", "same",
// "inconclusive" and "incomparable" (ToString).
enum class Verdict { kFaster, kSlower, kSame, kInconclusive, kIncomparable };
inline std::string_view ToString(Verdict verdict) {
  switch (verdict) {
    case Verdict::kFaster:
      return "faster";
    case Verdict::kSlower:
      return "slower";
    case Verdict::kSame:
      return "same";
    case Verdict::kInconclusive:
      return "inconclusive";
    case Verdict::kIncomparable:
      return "incomparable";
  }
  return "inconclusive";
}

// What the whole comparison's verdict rests on: the end-to-end distribution, the kernels' (no
// end-to-end samples), the environment (incomparable) or identical inputs (equal sha256).
// compare.json spells them "end_to_end", "kernels", "environment" and "identical_inputs"
// (ToString, verdict_basis).
enum class VerdictBasis { kEndToEnd, kKernels, kEnvironment, kIdenticalInputs };
inline std::string_view ToString(VerdictBasis basis) {
  switch (basis) {
    case VerdictBasis::kEndToEnd:
      return "end_to_end";
    case VerdictBasis::kKernels:
      return "kernels";
    case VerdictBasis::kEnvironment:
      return "environment";
    case VerdictBasis::kIdenticalInputs:
      return "identical_inputs";
  }
  return "end_to_end";
}

// What a side was loaded from (Side::kind): a baseline directory, a trace or a report.json.
// compare.json and compare.md spell them "baseline", "trace" and "report" (ToString,
// before.kind, after.kind).
enum class SideKind { kTrace, kReport, kBaseline };
inline std::string_view ToString(SideKind kind) {
  switch (kind) {
    case SideKind::kTrace:
      return "trace";
    case SideKind::kReport:
      return "report";
    case SideKind::kBaseline:
      return "baseline";
  }
  return "trace";
}

// What must agree for two measurements to be comparable. Empty values are unknown.
struct Fingerprint {
  std::vector<std::string> gpus;  // device names that the side recorded
  std::string driver;
  std::string cuda;
  std::string clocks;  // e.g. "sm 1980 MHz, mem 2619 MHz"
  std::string command;
  std::string executable_sha256;
  std::map<std::string, std::string> inputs;  // input file -> sha256
};

// One side as loaded: its analysis, the samples that statistics run on, its environment.
struct Side {
  std::string path;
  SideKind kind = SideKind::kTrace;
  std::string sha256;  // of the file (trace, report) or of baseline.json
  report::AnalysisReport report;
  std::vector<double> wall_samples_ns;  // end-to-end samples; may be empty
  std::string wall_samples_source;      // "measured runs", "ProfilerStep iterations", ...
  // Instance durations per kernel name; empty for a report (it keeps summaries only).
  std::map<std::string, std::vector<double>> kernel_samples_ns;
  Fingerprint fingerprint;
};

struct Options {
  double threshold = 0.01;  // relative change that matters
  double alpha = 0.05;
  int min_repeats = 5;
  bool allow_different_env = false;
  // Below this share of kernel time in kernels common to both sides, the sides run different
  // workloads and are incomparable.
  double min_workload_overlap = 0.5;
  std::size_t kernels_kept = 50;
};

// A ratio (after / before) read as compare.md prints it, computed once in the analysis so that
// the writer only formats: "+3.2%" within a factor of two, "2.5× slower" / "4.0× faster" beyond.
struct ChangeReading {
  double ratio = 1;            // after / before
  double relative_change = 0;  // ratio - 1
  double factor = 1;           // how many times slower (ratio >= 1) or faster (1 / ratio)
};

struct Statistic {
  Verdict verdict = Verdict::kInconclusive;  // never kIncomparable
  std::string method;
  std::int64_t n_before = 0, n_after = 0;
  double median_before = 0, median_after = 0;
  // Absent when not computed (too few samples, a 0 ns median or mean): JSON null, never 0.
  std::optional<double> ratio;            // median after / median before
  std::optional<double> ci_low, ci_high;  // CI of the tested ratio (median, or mean_ratio)
  std::optional<double> p_value;
  // Summaries only (report inputs): the ratio of means that Welch's t tested and the CI is of.
  std::optional<double> mean_ratio;
  std::string reason;
  // Since compare schema 1.3.0: ratio, ci_low and ci_high as read (absent with them), and whether
  // the interval spans more than a factor of four (no information: compare.md says "too wide").
  std::optional<ChangeReading> change, ci_low_change, ci_high_change;
  bool ci_too_wide = false;
};

struct KernelResult {
  std::string name;
  Statistic statistic;
  std::int64_t total_before_ns = 0, total_after_ns = 0;
  double share_before = 0;  // of the before side's kernel time
};

// An operator category or module class on both sides: summed GPU time, no statistic (the
// framework view keeps totals, not instances).
struct GroupChange {
  std::string name;
  std::int64_t before_ns = 0, after_ns = 0;
  std::optional<double> ratio;            // after / before; absent when before is 0
  std::optional<double> relative_change;  // ratio - 1, what compare.md states; absent with ratio
};

struct EnvDifference {
  std::string field;
  std::string before;
  std::string after;
  bool gating = false;  // makes the result incomparable
};

struct AuditRow {
  std::string metric;
  std::optional<double> before;
  std::optional<double> after;
  std::string unit;  // "count", "bytes", "ns", "percent"
  // after / before - 1, what compare.md states; absent when a side is unknown or before is 0
  std::optional<double> relative_change;
};

// BEFORE's prediction for a kernel that changed, against what the program did.
struct Reconciliation {
  std::string kernel;
  double kernel_speedup = 0;                // before median / after median
  double fraction_before = 0;               // f from BEFORE's predictions
  double predicted_end_to_end_speedup = 0;  // Amdahl with f and the measured kernel speedup
  std::optional<double> measured_end_to_end_speedup;
  std::string flag;  // non-empty when the end-to-end priority rule is broken
};

struct CompareReport {
  Verdict verdict = Verdict::kInconclusive;
  VerdictBasis verdict_basis = VerdictBasis::kEndToEnd;
  std::string summary;  // two lines for a pull-request comment
  Options options;
  std::string method;
  Statistic end_to_end;
  std::string end_to_end_source;
  Fingerprint before_env, after_env;
  std::vector<EnvDifference> env_differences;
  double workload_overlap = 1.0;  // share of kernel time in kernels on both sides
  std::vector<AuditRow> audit;
  std::vector<KernelResult> kernels;  // by before total time
  std::int64_t kernels_omitted = 0;
  std::vector<std::string> only_before, only_after;  // kernel names
  // Framework operators matched by name (kernel names change when code changes; operators
  // usually do not): per-call direct GPU time, Welch's t on the per-call summaries.
  std::vector<KernelResult> operators;  // by before kernel_ns, at most kernels_kept
  std::int64_t operators_omitted = 0;
  std::vector<std::string> only_before_operators, only_after_operators;
  std::vector<GroupChange> categories;  // every category on either side, by before time
  std::vector<GroupChange> modules;     // module classes on either side, by before time
  std::vector<Reconciliation> reconciliation;
  std::vector<std::string> limitations;
  std::string before_path, after_path, before_sha256, after_sha256;
  SideKind before_kind = SideKind::kTrace, after_kind = SideKind::kTrace;
  std::string before_headline, after_headline;
};

}  // namespace gpuperf::compare
