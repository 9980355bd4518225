// The flat-profile statement (diagnosis_parts.h, WidenToFlatProfile): no kernel of unknown class
// dominates alone (the profile is flat, or runners-up hold nearly as much), so the top kernels
// are measured together and ranked by their gain at an assumed 2x.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/core/critical_term.h"
#include "analysis/core/run_gains.h"
#include "analysis/diagnosis/diagnosis.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/findings/findings.h"
#include "analysis/kernel/readable_name.h"
#include "analysis/predictions/amdahl.h"
#include "util/counted.h"

namespace gpuperf::analysis {
namespace {

// A profile is flat when the dominant kernel holds under this share of the critical kernel
// time: measuring it alone leaves most of the GPU time unexplained.
constexpr double kFlatTopShare = 0.2;
// The group measured together: the top kernels up to this share of the critical kernel time...
constexpr double kFlatGroupShare = 0.5;
// ... and at most this many (one Nsight Compute pass with a -k regex over their names).
constexpr std::size_t kFlatGroupMax = 10;
// A runner-up with at least this share of the top kernel's critical time is measured with it.
constexpr double kPeerShare = 0.5;
// Kernels whose floors bound the program under this are at their roofs: the statement says where
// the rest of the window goes.
constexpr double kNearRoofBound = 1.05;
// The local speedup the flat group's bound assumes (report.md's "gain at 2.00x" column): kernels
// of unknown class are not free after any change, and ranking by the zero-time limit let a
// measurement outrank a measured host finding (pytorch-kineto 2021-06: 1.58x against 1.25x on a
// window whose host sets the pace).
constexpr double kFlatAssumedSpeedup = 2.0;

// The group's f over the window (each device group counts), its bounds on `d`, and the sentence
// both statements end with: the gain at the assumed speedup and the zero-time limit.
double GroupFraction(const report::AnalysisReport& r, std::int64_t group_ns, std::int64_t wall_ns) {
  return std::min(
      1.0, Fraction(group_ns, wall_ns * std::max<std::int64_t>(1, r.predictions.device_groups)));
}

// `wall_ns`: what f is of. On the GPU's own timeline (a GPU phase beside an idle phase) the
// gains are said as time off the GPU's busy time: Amdahl over the wall with GPU-phase time is
// neither what the program gains now (the host's waits cap that) nor once the idle phase is
// fixed (Amdahl over the busy time: linear's 1.17x beside 1.00x and 1.63x).
std::string SetGroupBounds(report::Diagnosis& d,
                           const report::AnalysisReport& r,
                           double f,
                           double f_at_2x,
                           std::int64_t wall_ns) {
  d.bound_speedup_at_2x = AmdahlLimit(std::min(0.99, f_at_2x));
  d.bound_speedup = f < 1.0 ? std::optional<double>(AmdahlLimit(f)) : std::nullopt;
  if (r.predictions.on_gpu_timeline) {
    auto of_wall = [&](double fraction) {  // GroupFraction's inverse
      return static_cast<std::int64_t>(
          fraction * static_cast<double>(wall_ns) *
          static_cast<double>(std::max<std::int64_t>(1, r.predictions.device_groups)));
    };
    return fmt::format(
        "Made {:.0f}x faster they would take {} off the GPU's busy time (an assumed local "
        "speedup: their class is not measured), {} only if they took no time; what that gives "
        "the whole program depends on the idle phase (below).",
        kFlatAssumedSpeedup,
        Ms(of_wall(f_at_2x)),
        Ms(of_wall(f)));
  }
  return fmt::format(
      "Made {:.0f}x faster they would give {:.2f}x (an assumed local speedup: their class is not "
      "measured); {} only if they took no time.",
      kFlatAssumedSpeedup,
      *d.bound_speedup_at_2x,
      f < 1.0 ? fmt::format("{:.2f}x", AmdahlLimit(f)) : std::string("unbounded"));
}

// Flat by kernel name, but one routine's lambda kernels (LambdaRoutine) together hold as much as
// a dominant kernel would: the statement is over that routine's kernels (cloverleaf: 102 names,
// the top one 6.6%, while advec_mom_kernel's lambdas hold 34%).
bool RoutineGroup(report::Diagnosis& d,
                  const report::AnalysisReport& r,
                  const std::vector<const report::CriticalShare*>& shares,
                  std::int64_t total,
                  std::int64_t wall_ns,
                  ExperimentContext& context) {
  struct Routine {
    std::int64_t critical_ns = 0;
    std::size_t kernels = 0;
    std::int64_t launches = 0;
    std::vector<const report::CriticalShare*> rows;
  };
  std::map<std::string_view, Routine> routines;
  for (const report::CriticalShare* s : shares) {
    std::string_view routine = LambdaRoutine(s->name);
    if (routine.empty())
      continue;
    routines[routine].rows.push_back(s);
    routines[routine].kernels += 1;
    routines[routine].launches += s->instances;
  }
  // Kernels of one run share its budget: the routine's critical time is their gain when free.
  for (auto& [unused, routine] : routines)
    routine.critical_ns = GainNs(r.predictions, routine.rows, kFree);
  auto top = std::max_element(routines.begin(), routines.end(), [](const auto& a, const auto& b) {
    return a.second.critical_ns < b.second.critical_ns;
  });
  if (top == routines.end() || top->second.kernels < 2 ||
      Fraction(top->second.critical_ns, total) < kFlatTopShare)
    return false;
  double f = GroupFraction(r, top->second.critical_ns, wall_ns);
  double f_at_2x =
      GroupFraction(r, GainNs(r.predictions, top->second.rows, kFlatAssumedSpeedup), wall_ns);
  context.flat_kernels = top->second.kernels;
  context.flat_peers = false;
  context.flat_routine = std::string(top->first);
  context.flat_names = context.flat_routine;
  context.flat_fraction = f;
  // The routine is what the statement is over, and what dominates: not the top kernel by name
  // (cloverleaf: PdV's 5.7% named beside advec_mom's 29%).
  d.dominant_kind = report::DominantKind::kRoutine;
  d.dominant_name = context.flat_routine;
  d.dominant_fraction = f;
  std::string bounds = SetGroupBounds(d, r, f, f_at_2x, wall_ns);
  d.support.push_back(fmt::format(
      "No kernel dominates by name (the top one holds {} of the {} kernel time, {} "
      "kernels), but {} of them ({}) instantiate lambdas of one routine, {}: together {} of the "
      "{} kernel time, f = {} of the steady-state wall time, the most of any routine "
      "(trace: kernel names). {}",
      Pct(Fraction(shares.front()->critical_ns, total)),
      CriticalAdjective(r.predictions),
      r.kernels.size(),
      top->second.kernels,
      util::Counted(top->second.launches, "launch", "launches"),
      top->first,
      Pct(Fraction(top->second.critical_ns, total)),
      CriticalAdjective(r.predictions),
      Pct(f),
      bounds));
  return true;
}

}  // namespace

// An unknown-class dominant kernel in a flat profile: the statement is over the top kernels
// together, so that its bound (Amdahl over their summed critical time, each a different kernel,
// so disjoint) weighs the GPU phase and not the first of many similar kernels.
void WidenToFlatProfile(report::Diagnosis& d,
                        const report::AnalysisReport& r,
                        std::int64_t wall_ns,
                        ExperimentContext& context) {
  if (d.bottleneck != report::Bottleneck::kUnknown ||
      d.dominant_kind != report::DominantKind::kKernel)
    return;
  std::vector<const report::CriticalShare*> shares;
  std::int64_t total = 0;
  for (const report::CriticalShare& s : r.predictions.kernels) {
    if (IsCollective(r, s.name))
      continue;
    shares.push_back(&s);
    total += s.critical_ns;
  }
  if (shares.size() < 2 || total <= 0)
    return;
  std::stable_sort(shares.begin(), shares.end(), [](const auto* a, const auto* b) {
    return a->critical_ns > b->critical_ns;
  });
  // Close runners-up: kernels with at least kPeerShare of the top kernel's critical time (vllm's
  // two MoE GEMMs, 3.76 and 3.27 ms: naming the first alone left 29% of the time out of the
  // experiment). They are measured together with it even when the top kernel dominates.
  std::size_t peers = 0;
  while (peers < shares.size() && peers < kFlatGroupMax &&
         static_cast<double>(shares[peers]->critical_ns) >=
             kPeerShare * static_cast<double>(shares.front()->critical_ns))
    ++peers;
  const bool flat = Fraction(shares.front()->critical_ns, total) < kFlatTopShare;
  if (!flat && peers < 2)
    return;
  if (flat && RoutineGroup(d, r, shares, total, wall_ns, context))
    return;
  std::int64_t group = 0;
  std::size_t n = 0;
  std::vector<std::string> names;
  std::vector<const report::CriticalShare*> members;
  while (n < shares.size() && n < kFlatGroupMax &&
         (flat ? Fraction(group, total) < kFlatGroupShare : n < peers)) {
    members.push_back(shares[n]);
    // Kernels of one run share its budget: the group's time is its gain when free.
    group = GainNs(r.predictions, members, kFree);
    if (names.size() < 3) {
      const report::KernelRow* row = FindKernel(r, shares[n]->name);
      names.push_back(row && !row->readable_name.empty() ? row->readable_name
                                                         : ReadableKernelName(shares[n]->name));
    }
    ++n;
  }
  double f = GroupFraction(r, group, wall_ns);
  double f_at_2x = GroupFraction(r, GainNs(r.predictions, members, kFlatAssumedSpeedup), wall_ns);
  context.flat_kernels = n;
  context.flat_peers = !flat;
  context.flat_names.clear();
  for (const std::string& name : names)
    context.flat_names += (context.flat_names.empty() ? "" : ", ") + name;
  if (n > names.size())
    context.flat_names += ", …";
  // dominant.fraction stays the named kernel's own f; the bound is the group's. A measurement
  // does not make kernels free: the bound assumes the measured kernels end up kFlatAssumedSpeedup
  // times faster (an assumption, said), and the zero-time limit is only quoted.
  context.flat_fraction = f;
  std::string bounds = SetGroupBounds(d, r, f, f_at_2x, wall_ns);
  d.support.push_back(fmt::format(
      "{}: the top kernel holds {} of the {} kernel time ({} kernels); the "
      "top {} together hold {}, f = {} of the steady-state wall time (trace). {}",
      flat ? std::string("No kernel dominates")
           : fmt::format("{} kernels hold similar time (each at least {:.0f}% of the top one's)",
                         n,
                         kPeerShare * 100),
      Pct(Fraction(shares.front()->critical_ns, total)),
      CriticalAdjective(r.predictions),
      r.kernels.size(),
      n,
      Pct(Fraction(group, total)),
      Pct(f),
      bounds));
}

// A measured compute- or memory-bound dominant kernel whose close runners-up are measured in the
// same class (the H200 MLP: three cuBLAS GEMMs at 76-79% of the bf16 tensor roof): the statement
// is over them together, its bound Amdahl over each one at its roofline floor, since the same
// lever (fewer FLOPs or a faster precision; fewer bytes) applies to all of them.
void WidenToClassPeers(report::Diagnosis& d,
                       const report::AnalysisReport& r,
                       std::int64_t wall_ns,
                       ExperimentContext& context) {
  if (d.dominant_kind != report::DominantKind::kKernel ||
      (d.bottleneck != report::Bottleneck::kComputeBound &&
       d.bottleneck != report::Bottleneck::kMemoryBound))
    return;
  std::vector<const report::CriticalShare*> shares;
  for (const report::CriticalShare& s : r.predictions.kernels) {
    if (!IsCollective(r, s.name))
      shares.push_back(&s);
  }
  std::stable_sort(shares.begin(), shares.end(), [](const auto* a, const auto* b) {
    return a->critical_ns > b->critical_ns;
  });
  if (shares.size() < 2 || shares.front()->name != d.dominant_name ||
      !shares.front()->max_local_speedup)
    return;
  const report::KernelBound bound = report::KernelBoundOf(d.bottleneck);
  std::int64_t group = 0;
  double saved = 0, saved_at_half = 0;  // at the floors; at half the floors (FP8's doubled roof)
  std::vector<std::pair<const report::CriticalShare*, double>> at_floor, at_half;
  std::vector<const report::CriticalShare*> members;
  std::vector<std::string> names, roofs;
  std::size_t n = 0;
  for (const report::CriticalShare* s : shares) {
    if (n == kFlatGroupMax || static_cast<double>(s->critical_ns) <
                                  kPeerShare * static_cast<double>(shares.front()->critical_ns))
      break;
    const report::KernelRow* row = FindKernel(r, s->name);
    if (!row || row->classification.bound != bound ||
        row->classification.evidence != report::EvidenceTier::kMeasured || !s->max_local_speedup ||
        !row->roofline || !row->roofline->roof_fraction)
      break;
    // Run by run, each run's budget shared by the kernels in it (GainNs).
    members.push_back(s);
    at_floor.emplace_back(s, *s->max_local_speedup);
    at_half.emplace_back(s, 2.0 * *s->max_local_speedup);
    group = GainNs(r.predictions, members, kFree);
    saved = static_cast<double>(GainNs(r.predictions, at_floor));
    saved_at_half = static_cast<double>(GainNs(r.predictions, at_half));
    names.push_back(!row->readable_name.empty() ? row->readable_name : ReadableKernelName(s->name));
    roofs.push_back(fmt::format("{:.0f}%", *row->roofline->roof_fraction * 100));
    ++n;
  }
  if (n < 2)
    return;
  const double walls =
      static_cast<double>(wall_ns * std::max<std::int64_t>(1, r.predictions.device_groups));
  if (walls <= saved)  // critical time never exceeds the window; guard the division all the same
    return;
  const double f = GroupFraction(r, group, wall_ns);
  d.bound_speedup = walls / (walls - saved);
  context.class_peers = n;
  context.class_peer_fraction = f;
  if (walls > saved_at_half)
    context.class_peer_half_floor_bound = walls / (walls - saved_at_half);
  context.flat_names.clear();
  for (const std::string& name : names)
    context.flat_names += (context.flat_names.empty() ? "" : ", ") + name;
  std::string roof_list;
  for (std::size_t i = 0; i < roofs.size(); ++i)
    roof_list += (i ? (i + 1 == roofs.size() ? " and " : ", ") : "") + roofs[i];
  // Near their roofs little is left in them: name what holds the rest of the window.
  if (*d.bound_speedup < kNearRoofBound) {
    std::string others;
    for (std::size_t i = n; i < shares.size() && i < n + 3; ++i) {
      const report::KernelRow* row = FindKernel(r, shares[i]->name);
      others +=
          fmt::format("{}{} ({})",
                      others.empty() ? "" : ", ",
                      row && !row->readable_name.empty() ? row->readable_name
                                                         : ReadableKernelName(shares[i]->name),
                      Pct(GroupFraction(r, shares[i]->critical_ns, wall_ns)));
    }
    context.class_peer_rest = fmt::format(
        "{} of the window lies outside them{}", Pct(1.0 - f), others.empty() ? "" : ": " + others);
  }
  d.support.push_back(fmt::format(
      "{} kernels hold similar time (each at least {:.0f}% of the top one's) and are measured "
      "{}-bound too: {} at {} of their roofs; together f = {} of the steady-state wall time, and "
      "each at its roofline floor they give at most {:.2f}x (Amdahl over their floors; counters "
      "and roofline).",
      n,
      kPeerShare * 100,
      report::ToString(bound),
      context.flat_names,
      roof_list,
      Pct(f),
      *d.bound_speedup));
}

}  // namespace gpuperf::analysis
