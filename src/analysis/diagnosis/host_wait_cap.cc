// The GPU phase of an idle-dominated window composes with the idle phase: the host's timeline is
// the wall, so a faster GPU gives back only the host's waits for it until the idle phase's fix
// (docs/metrics.md, "Diagnosis": the GPU phase's bound).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "analysis/core/correlation.h"
#include "analysis/core/names.h"
#include "analysis/core/statistics.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/findings/findings.h"
#include "analysis/predictions/amdahl.h"
#include "analysis/timeline/blocked_launches.h"
#include "analysis/timeline/critical_time.h"
#include "util/intervals.h"

namespace gpuperf::analysis {
namespace {

// Merged kernel intervals and the running sum of their lengths: the kernel time inside any
// interval by two searches.
class KernelCover {
 public:
  KernelCover(const KernelCover&) = delete;  // probe_ refers to this object's merged_
  KernelCover& operator=(const KernelCover&) = delete;
  explicit KernelCover(const model::Trace& trace) : merged_(KernelBusy(trace)) {
    prefix_.assign(merged_.size() + 1, 0);
    for (std::size_t i = 0; i < merged_.size(); ++i)
      prefix_[i + 1] = prefix_[i] + (merged_[i].end - merged_[i].start);
  }

  // Queries come in trace order (each thread's calls by time): both searches gallop from the
  // previous answer instead of bisecting the whole trace each time (a million waits on nsys
  // exports); any order stays correct.
  std::int64_t Inside(std::int64_t start, std::int64_t end) {
    if (end <= start || merged_.empty())
      return 0;
    std::size_t a = probe_.FirstEndingAfter(start);
    std::size_t b =
        util::GallopPartition(merged_, a, [end](const util::Interval& i) { return i.start < end; });
    if (a >= b)
      return 0;
    std::int64_t total = prefix_[b] - prefix_[a];
    total -= std::max<std::int64_t>(0, start - merged_[a].start);
    total -= std::max<std::int64_t>(0, merged_[b - 1].end - end);
    return total;
  }

 private:
  std::vector<util::Interval> merged_;
  std::vector<std::int64_t> prefix_;
  util::IntervalProbe probe_{merged_};  // after merged_: it reads the vector, never copies it
};

}  // namespace

HostWaitCap HostWaitsOnGpu(const model::Trace& trace,
                           const CorrelationIndex& index,
                           const report::AnalysisReport& r,
                           util::Interval span,
                           std::int64_t wall_ns,
                           const std::vector<BlockedLaunch>* blocked) {
  CachedNamePredicate is_wait(trace, IsHostWaitApi);
  KernelCover kernels(trace);
  // The steady window's span: waits for the pre-roll (work launched before the recording) or in
  // the unobserved tail lie outside the wall the cap is a share of.
  const auto& pre = r.predictions.preroll;
  const std::int64_t from = span.start;
  const std::int64_t to = span.end;
  auto inside = [&](std::int64_t start, std::int64_t end) {
    return kernels.Inside(std::max(start, from), std::min(end, to));
  };
  // Summed over threads: a thread can wait for another (the main thread for the autograd
  // thread in backward) without a CUDA call, so one thread's waits can be another's.
  // Concurrent waits count twice and whole-trace waits over-count the window's: both only
  // loosen the cap.
  HostWaitCap cap;
  cap.wall_ns = wall_ns;
  cap.gpu_busy_ns = r.timeline.busy_ns - (pre ? pre->gpu_ns : 0);
  model::TimeNs host_end = 0;
  for (const model::ApiCall& call : trace.api_calls) {
    host_end = std::max(host_end, call.end_ns);
    // Only while kernels run: a wait on a copy's own transfer, or on an idle GPU, is not
    // shortened by faster kernels.
    if (is_wait(call.name))
      cap.waits_ns += inside(call.start_ns, call.end_ns);
  }
  // A launch blocks only on a full queue: its time beyond an unblocked launch, in the window.
  std::vector<BlockedLaunch> computed;
  if (!blocked) {
    computed = BlockedLaunches(trace, index);
    blocked = &computed;
  }
  for (const BlockedLaunch& launch : *blocked) {
    const model::ApiCall& call = trace.api_calls[launch.call];
    if (call.start_ns >= from && call.end_ns <= to)
      cap.waits_ns += launch.blocked_ns;
  }
  // The GPU's work after the host's last call: the drain a faster GPU shortens.
  cap.waits_ns += inside(host_end, std::numeric_limits<std::int64_t>::max());
  return cap;
}

bool KeepsLaunchCount(const report::Diagnosis& d) {
  // Overlapping communication with computation (bucketing, async collectives) keeps the launches.
  return IsKernelWork(d.dominant_kind) || d.dominant_kind == report::DominantKind::kCommunication ||
         (d.dominant_kind == report::DominantKind::kOperators &&
          (d.lever == report::LeverKind::kAmp || d.lever == report::LeverKind::kTf32OrAmp));
}

std::string CappedBoundText(const HostWaitCap& cap, std::int64_t saved_ns, bool assumed_2x) {
  double today = AmdahlLimit(std::min(0.99, Fraction(cap.waits_ns, cap.wall_ns)));
  if (!cap.beside_idle_phase) {
    double beyond = static_cast<double>(cap.wall_ns) /
                    static_cast<double>(std::max<std::int64_t>(1, cap.wall_ns - saved_ns));
    return fmt::format(
        " It keeps the launch count, and the host is close behind the GPU: the host waits for "
        "the GPU's kernels {} of the {} window ({}: synchronizations and copies while kernels "
        "ran, launches blocked on a full queue, summed over its threads, and the kernels after "
        "the host's last call), and beyond that its own time sets the wall, so the whole program "
        "is at most {:.2f}x faster{}; {:.2f}x{} only if the host's time fell with it (fewer "
        "launches: torch.compile, CUDA graphs).",
        Ms(cap.waits_ns),
        Ms(cap.wall_ns),
        Pct(Fraction(cap.waits_ns, cap.wall_ns)),
        today,
        assumed_2x ? " at any local speedup" : "",
        beyond,
        assumed_2x ? " at an assumed 2x" : "");
  }
  std::string text = fmt::format(
      " It shortens only the GPU phase, and the host's timeline is the wall: the host waits for "
      "the GPU's kernels {} of the {} window ({}: synchronizations and copies while kernels ran, "
      "launches blocked on a full queue, summed over its threads, and the kernels after the "
      "host's last call), so until the idle phase is fixed the whole program is at most {:.2f}x "
      "faster{}.",
      Ms(cap.waits_ns),
      Ms(cap.wall_ns),
      Pct(Fraction(cap.waits_ns, cap.wall_ns)),
      today,
      assumed_2x ? " at any local speedup" : "");
  std::int64_t busy = cap.gpu_busy_ns;
  if (busy > saved_ns && saved_ns > 0) {
    text += fmt::format(
        " Once the idle phase's fix removes the host work from the gaps, the window falls toward "
        "the GPU's {} busy time, and this change gives {:.2f}x{} (Amdahl over it)",
        Ms(busy),
        static_cast<double>(busy) / static_cast<double>(busy - saved_ns),
        assumed_2x ? " at an assumed 2x" : " at most");
    // Overlapped rather than removed, the host work sets the window where it outlasts the rest
    // (the GPU's part): the window is its lead, which nothing overlaps, plus the longer of its
    // other part and the rest, the model of the main statement's overlapped bound (BesideGpu;
    // owlv2: 129 ms + max(503 ms, 578 ms) before the change, 129 ms + 503 ms after: 1.12x).
    const std::int64_t host = cap.host_work_ns;
    const std::int64_t lead = std::min(cap.lead_ns, host);
    const std::int64_t rest = cap.wall_ns - host;
    const std::int64_t rest_after = std::max<std::int64_t>(0, rest - saved_ns);
    if (rest > 0 && host - lead > rest_after) {
      double overlapped = static_cast<double>(lead + std::max(host - lead, rest)) /
                          static_cast<double>(lead + std::max(host - lead, rest_after));
      text += fmt::format(
          "; if that fix only overlaps the {} of host work with the GPU{}, the host work sets the "
          "window and this change gives {}",
          Ms(host),
          lead > 0 ? fmt::format(" ({} of it before the first GPU work, which nothing overlaps)",
                                 Ms(lead))
                   : std::string(),
          overlapped < 1.005 ? std::string("nothing") : fmt::format("{:.2f}x", overlapped));
    }
    // A separate worker preparing the next input overlaps the lead too, in a loop over inputs:
    // the window is then the longer of the host work and the rest (timesformer: 223 ms of host
    // work against 160 ms, and 34 ms after the change: the host work stays the wall).
    if (rest > 0 && lead > 0 && host > rest_after) {
      double across = static_cast<double>(std::max(host, rest)) /
                      static_cast<double>(std::max(host, rest_after));
      text += fmt::format(
          "; with a separate worker preparing the next input while the GPU runs this one, the "
          "longer of that host work and the rest sets the window, and this change gives {}",
          across < 1.005 ? std::string("nothing") : fmt::format("{:.2f}x", across));
    }
    text += ".";
  }
  return text;
}

std::string HostCloseBehindText(const HostWaitCap& cap) {
  return fmt::format(
      "The host is close behind the GPU: it waits for the GPU's kernels {} of the {} window "
      "(synchronizations and copies while kernels ran, launches blocked on a full queue, the "
      "kernels after its last call), so a gain beyond {:.2f}x needs the host's own time to fall "
      "as well: fewer launches (torch.compile's fusion and graph capture, CUDA graphs), not only "
      "faster kernels; kernels fused by hand and called from eager code keep the host's "
      "per-operator dispatch (trace).",
      Ms(cap.waits_ns),
      Ms(cap.wall_ns),
      AmdahlLimit(std::min(0.99, Fraction(cap.waits_ns, cap.wall_ns))));
}

std::int64_t SavedByBound(const report::Diagnosis& d, std::int64_t wall_ns) {
  std::optional<double> ranked = d.bound_speedup_at_2x ? d.bound_speedup_at_2x : d.bound_speedup;
  if (!ranked || !std::isfinite(*ranked) || *ranked <= 1.0)
    return 0;
  return static_cast<std::int64_t>(static_cast<double>(wall_ns) * (1.0 - 1.0 / *ranked));
}

namespace {

std::int64_t SavedAt(const HostWaitCap& cap, double bound) {
  return static_cast<std::int64_t>(static_cast<double>(cap.wall_ns) * (1.0 - 1.0 / bound));
}

double WithoutIdle(const HostWaitCap& cap, std::int64_t removed) {
  return static_cast<double>(cap.wall_ns) / static_cast<double>(cap.gpu_busy_ns - removed);
}

}  // namespace

std::optional<double> FewerLaunchesCeiling(const report::Diagnosis& d, const HostWaitCap& cap) {
  // A change that cuts launches, in a GPU-bound window whose host is close behind (the waits
  // bind): the case diagnosis.cc raises and the lever's sentence words for.
  if (cap.beside_idle_phase || KeepsLaunchCount(d) || !cap.Binds(SavedByBound(d, cap.wall_ns)))
    return std::nullopt;
  if (!d.bound_speedup || d.bound_speedup_at_2x || !std::isfinite(*d.bound_speedup) ||
      *d.bound_speedup <= 1.0)
    return std::nullopt;
  const std::int64_t saved = SavedAt(cap, *d.bound_speedup);
  if (cap.wall_ns <= cap.gpu_busy_ns || cap.gpu_busy_ns <= saved)
    return std::nullopt;
  const double raised = WithoutIdle(cap, saved);
  if (raised < *d.bound_speedup + 0.005)
    return std::nullopt;
  return raised;
}

void RaiseToFewerLaunchesCeiling(report::Diagnosis& d, const HostWaitCap& cap) {
  const std::optional<double> raised = FewerLaunchesCeiling(d, cap);
  if (!raised)
    return;
  const std::int64_t saved = SavedAt(cap, *d.bound_speedup);
  const std::int64_t busy = cap.gpu_busy_ns;
  const std::int64_t idle = cap.wall_ns - busy;
  d.next_experiment += fmt::format(
      " If it succeeds fully, its fewer launches captured in a graph as well (torch.compile "
      "mode=\"reduce-overhead\", CUDA graphs: the host's own time between them goes too), the "
      "GPU's {} of idle in the window can go with it: then at most {:.2f}x (the window over the "
      "GPU's {} of busy time less the {} the change removes; with the host's gaps only halved, "
      "about half way).",
      Ms(idle),
      *raised,
      Ms(busy),
      Ms(saved));
  d.bound_speedup_idle_kept = d.bound_speedup;
  d.bound_speedup = raised;
  if (d.bound_speedup_modeled && *d.bound_speedup_modeled > 1.0 &&
      busy > SavedAt(cap, *d.bound_speedup_modeled))
    d.bound_speedup_modeled = WithoutIdle(cap, SavedAt(cap, *d.bound_speedup_modeled));
}

void ApplyHostWaitCap(report::Diagnosis& d, const HostWaitCap& cap) {
  if (!cap.Binds(SavedByBound(d, cap.wall_ns)))
    return;
  double limit = AmdahlLimit(std::min(0.99, Fraction(cap.waits_ns, cap.wall_ns)));
  if (d.bound_speedup)
    d.bound_speedup = std::min(*d.bound_speedup, limit);
  if (d.bound_speedup_at_2x)
    d.bound_speedup_at_2x = std::min(*d.bound_speedup_at_2x, limit);
  if (d.bound_speedup_modeled)
    d.bound_speedup_modeled = std::min(*d.bound_speedup_modeled, limit);
  if (d.bound_speedup_estimated)
    d.bound_speedup_estimated = std::min(*d.bound_speedup_estimated, limit);
  // "At most this share would come back" of a lever is held to the same waits (owlv2's GPU
  // phase: 39.5% beside a 1.41x cap, 29.2%).
  // (At an assumed 2x the share is of the wall time, what the lever acts on: not capped.)
  if (d.dominant_kind == report::DominantKind::kOperators && !d.bound_speedup_at_2x)
    d.dominant_fraction =
        std::min(d.dominant_fraction, std::min(0.99, Fraction(cap.waits_ns, cap.wall_ns)));
  if (!cap.beside_idle_phase) {
    d.support.push_back(fmt::format(
        "Held to the host's waits for the GPU's kernels ({} of the window): the change keeps the "
        "launch count, so beyond them the host's own time sets the wall; the whole program gains "
        "at most {:.2f}x from it (trace).",
        Ms(cap.waits_ns),
        limit));
    return;
  }
  d.support.push_back(fmt::format(
      "Held to the host's waits for the GPU's kernels ({} of the window): the gains above are "
      "the GPU phase's own; the whole program gains at most {:.2f}x until the idle phase is "
      "fixed (trace).",
      Ms(cap.waits_ns),
      limit));
}

}  // namespace gpuperf::analysis
