// Findings on how the GPU is fed: kernels shorter than their launch call, and a mostly idle GPU.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/core/names.h"
#include "analysis/core/statistics.h"
#include "analysis/findings/findings.h"
#include "analysis/timeline/launch_overhead.h"
#include "util/intervals.h"

namespace gpuperf::analysis {
namespace {

constexpr double kIdleDominantPercent = 50.0;

struct NameStats {
  std::int64_t kernels = 0, short_kernels = 0, kernel_ns = 0, call_ns = 0;
};

// Launch calls inside one-time work (the first launch of a lazily loaded kernel, launches inside
// a compile or capture window): left out of the steady-state launch overhead.
struct SteadyLaunches {
  std::vector<LaunchPair> pairs;
  std::int64_t one_time_calls = 0;
  std::int64_t one_time_ns = 0;
  // Launch calls before the steady-state window (start-up, warm-up steps): left out too.
  std::int64_t before_calls = 0;
};

SteadyLaunches SplitOneTime(const RuleInput& in) {
  SteadyLaunches out;
  std::vector<bool> counted(in.trace.api_calls.size(), false);
  for (const LaunchPair& pair : JoinKernelLaunches(in.trace, in.index, false)) {
    const model::ApiCall& call = in.trace.api_calls[pair.call];
    bool one_time =
        in.one_time && call.duration_ns() > 0 &&
        util::CoveredLength(*in.one_time, call.start_ns, call.end_ns) == call.duration_ns();
    if (!one_time && BeforeWindow(in, call.start_ns)) {
      if (!counted[pair.call]) {
        counted[pair.call] = true;
        ++out.before_calls;
      }
    } else if (!one_time) {
      out.pairs.push_back(pair);
    } else if (!counted[pair.call]) {
      counted[pair.call] = true;
      ++out.one_time_calls;
      out.one_time_ns += call.duration_ns();
    }
  }
  return out;
}

std::vector<report::FindingRow> ShortKernelRows(const RuleInput& in,
                                                const std::vector<LaunchPair>& pairs) {
  PerName<NameStats> by_name(in.trace);
  CachedNamePredicate is_graph(in.trace, IsGraphLaunchApi);
  for (const LaunchPair& pair : pairs) {
    if (is_graph(in.trace.api_calls[pair.call].name))
      continue;  // a graph node shares its launch call with the whole graph
    NameStats& s = by_name.At(pair.kernel->name);
    std::int64_t call_ns = in.trace.api_calls[pair.call].duration_ns();
    ++s.kernels;
    s.kernel_ns += pair.kernel->duration_ns();
    s.call_ns += call_ns;
    if (pair.kernel->duration_ns() < call_ns)
      ++s.short_kernels;
  }
  std::vector<std::pair<model::NameId, NameStats>> sorted = by_name.Entries();
  std::erase_if(sorted, [](const auto& e) { return e.second.short_kernels == 0; });
  std::sort(sorted.begin(), sorted.end(), [&](const auto& a, const auto& b) {
    if (a.second.short_kernels != b.second.short_kernels) {
      return a.second.short_kernels > b.second.short_kernels;
    }
    return in.trace.Name(a.first) < in.trace.Name(b.first);
  });
  std::vector<report::FindingRow> rows;
  for (const auto& [name, s] : sorted) {
    auto n = static_cast<double>(s.kernels);
    rows.push_back({{std::string(in.trace.Name(name)),
                     std::to_string(s.kernels),
                     std::to_string(s.short_kernels),
                     fmt::format("{:.1f}", static_cast<double>(s.kernel_ns) / n),
                     fmt::format("{:.1f}", static_cast<double>(s.call_ns) / n)}});
  }
  return rows;
}

}  // namespace

std::string GraphSentence(const report::LaunchOverhead& l) {
  if (l.graph_launches == 0)
    return "";
  return fmt::format(
      " {} kernels ran through {} graph launch{} (one call each): launch cost already "
      "amortised there.",
      l.graph_kernels,
      l.graph_launches,
      l.graph_launches == 1 ? "" : "es");
}

std::optional<report::Finding> LaunchOverheadRule(const RuleInput& in) {
  SteadyLaunches steady = SplitOneTime(in);
  const report::LaunchOverhead l = steady.one_time_calls == 0 && steady.before_calls == 0
                                       ? in.launch
                                       : SummarizeLaunches(in.trace, steady.pairs);
  if (l.kernels_shorter_than_launch == 0)
    return std::nullopt;
  std::string one_time =
      steady.one_time_calls == 0
          ? std::string()
          : fmt::format(
                " {} launch call{} inside one-time work ({}: first launches that loaded "
                "their module, launches inside first calls, compilation or capture; section "
                "Initialization) {} left out: fewer launches would not remove {}.",
                steady.one_time_calls,
                steady.one_time_calls == 1 ? "" : "s",
                Ms(steady.one_time_ns),
                steady.one_time_calls == 1 ? "is" : "are",
                steady.one_time_calls == 1 ? "it" : "them");
  if (steady.before_calls > 0)
    one_time += fmt::format(
        " {} more launch call{} before the steady-state window (a start-up, warm-up steps, the "
        "previous step's tail) {} left out.",
        steady.before_calls,
        steady.before_calls == 1 ? "" : "s",
        steady.before_calls == 1 ? "is" : "are");
  double short_percent = Percent(static_cast<double>(l.kernels_shorter_than_launch),
                                 static_cast<double>(l.kernel_ns.count));
  report::Finding f;
  f.id = report::finding_id::kLaunchOverhead;
  f.title = "Kernels shorter than their launch call";
  f.severity = short_percent >= 50.0 || l.api_to_kernel_ratio >= 1.0 ? report::Severity::kWarning
                                                                     : report::Severity::kInfo;
  f.source = "trace";
  f.count = l.kernels_shorter_than_launch;
  f.time_ns = l.call_time_ns;
  f.summary = fmt::format(
      "{} of {} launched kernels ({:.1f}%) ran shorter than the host call that launched them; "
      "launch calls took {} against {} of kernel time (ratio {:.2f}, each call counted once).{}{}",
      l.kernels_shorter_than_launch,
      l.kernel_ns.count,
      short_percent,
      Ms(l.call_time_ns),
      Ms(l.kernel_ns.total),
      l.api_to_kernel_ratio,
      GraphSentence(l),
      one_time);
  // Launches that blocked in a deep queue waited for the GPU: their time is no launch cost (hta
  // ns_resolution: 178 of the 206 ms of launch calls are launches waiting on a full queue). Said
  // from a twentieth of the launch calls' time on.
  constexpr std::int64_t kMaterialBlockedShare = 20;
  if (in.blocked_launches) {
    std::int64_t blocked = 0;
    std::int64_t blocked_ns = 0;
    for (const BlockedLaunch& launch : *in.blocked_launches) {
      if (!BeforeWindow(in, in.trace.api_calls[launch.call].start_ns)) {
        ++blocked;
        blocked_ns += launch.blocked_ns;
      }
    }
    if (blocked > 0 && blocked_ns * kMaterialBlockedShare >= l.call_time_ns)
      f.summary += fmt::format(
          " Of the launch calls' time, {} is {} launch call{} blocked in a deep queue beyond "
          "an unblocked launch: the host waiting for the GPU, not launch cost (see the launch "
          "queue in the Diagnosis).",
          Ms(blocked_ns),
          blocked,
          blocked == 1 ? "" : "s");
  }
  const char* lever = l.graph_kernels * 2 >= l.kernel_ns.count
                          ? "fusing the short kernels (most already run through graphs)"
                          : "fewer launches (fusion, CUDA graphs)";
  f.advice = fmt::format(
      "Hypothesis: the workload is launch-bound where these kernels run back to back. Test it "
      "with the idle time between them on their stream; if confirmed, {} is the lever.",
      lever);
  // The idle attribution measures that idle: say it instead of asking for it.
  if (in.idle && in.idle->steady_window_ns > 0) {
    std::int64_t covered = in.idle->launch_ns;
    f.advice = covered < in.idle->steady_window_ns / 200  // under 0.5% of the window
                   ? fmt::format(
                         "The GPU idled only {} under launch calls in the steady-state window "
                         "(trace): the short kernels queue behind earlier work, so their "
                         "launches cost almost nothing here and fewer launches would not pay "
                         "off.",
                         Ms(covered))
                   : fmt::format(
                         "Launch calls cover {} of GPU idle in the steady-state window (trace): "
                         "{}.",
                         Ms(covered),
                         l.graph_kernels * 2 >= l.kernel_ns.count
                             ? fmt::format("that, and no more, is what {} can remove", lever)
                             : std::string("that, and no more, is what fewer launches (fusion, "
                                           "batching) can remove; a captured graph removes the "
                                           "host time between the launches too (the diagnosis' "
                                           "host-bound bound counts both)"));
  }
  f.columns = {{"Kernel"},
               {"Launched"},
               {"Shorter than launch"},
               {"Kernel avg (ns)", report::ColumnUnit::kDurationNs},
               {"Launch avg (ns)", report::ColumnUnit::kDurationNs}};
  // Launch calls cost only where the GPU idles under them (steady state, idle_attribution.h):
  // a call made while the GPU is busy hides behind its work.
  if (in.idle) {
    f.host_blocked_ns = l.call_time_ns;
    f.gpu_idle_caused_ns = in.idle->launch_ns;
  }
  SetRows(f, ShortKernelRows(in, steady.pairs), in.options.finding_rows);
  return f;
}

std::optional<report::Finding> GpuIdleRule(const RuleInput& in) {
  const report::Timeline& t = in.timeline;
  if (t.total_ns <= 0)
    return std::nullopt;
  double idle_percent = Percent(static_cast<double>(t.idle_ns), static_cast<double>(t.total_ns));
  if (idle_percent < kIdleDominantPercent)
    return std::nullopt;
  report::Finding f;
  f.id = report::finding_id::kGpuIdleDominant;
  f.title = "GPU mostly idle";
  f.severity = report::Severity::kWarning;
  f.source = "trace";
  f.count = 1;
  // The bound counts the steady-state idle inside the span: the attribution's idle less what
  // lies before the first or after the last GPU work (the span's idle also holds one-time work).
  f.time_ns =
      in.idle && in.idle->steady_window_ns > 0
          ? std::min(t.idle_ns, std::max<std::int64_t>(0, in.idle->idle_ns - in.idle->edge_ns))
          : t.idle_ns;
  f.summary =
      fmt::format("No GPU work ran during {} of the {} GPU span ({:.1f}% idle, busy {:.1f}%).",
                  Ms(t.idle_ns),
                  Ms(t.total_ns),
                  idle_percent,
                  Percent(static_cast<double>(t.busy_ns), static_cast<double>(t.total_ns)));
  // The Diagnosis counts idle over the steady-state window, which also holds the host time
  // before the first and after the last GPU work: say both, so the two figures do not disagree
  // unexplained.
  if (in.idle && in.idle->steady_window_ns > 0 && in.idle->idle_ns != t.idle_ns)
    f.summary += fmt::format(
        " The Diagnosis counts {} idle over the {} steady-state window ({:.1f}%), of which {} "
        "lies before the first or after the last GPU activity, outside the span.",
        Ms(in.idle->idle_ns),
        Ms(in.idle->steady_window_ns),
        Percent(static_cast<double>(in.idle->idle_ns),
                static_cast<double>(in.idle->steady_window_ns)),
        Ms(in.idle->edge_ns));
  // A span idle mostly in what the diagnosis leaves out (a start-up, one-time work) while its
  // steady state is not: information about those parts, not a warning about the steady state.
  if (in.idle && in.idle->steady_window_ns > 0 &&
      Percent(static_cast<double>(in.idle->idle_ns),
              static_cast<double>(in.idle->steady_window_ns)) < kIdleDominantPercent) {
    f.severity = report::Severity::kInfo;
    f.summary +=
        " The steady-state window is not mostly idle: the span's idle lies in the one-time "
        "work and start-up the diagnosis leaves out.";
  }
  f.advice =
      "Kernel tuning cannot recover idle time. Hypotheses: host-bound launching, "
      "synchronization or communication waits; the gpu_gaps, sync_api and launch_overhead "
      "findings and host-side ranges over the idle stretches would test them.";
  return f;
}

}  // namespace gpuperf::analysis
