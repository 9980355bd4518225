#include "analysis/diagnosis/headline.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string_view>
#include <tuple>

#include "analysis/core/profiler_options.h"
#include "analysis/core/statistics.h"
#include "analysis/diagnosis/diagnosis.h"
#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/diagnosis/input_check.h"
#include "analysis/findings/findings.h"
#include "analysis/kernel/readable_name.h"
#include "analysis/predictions/preroll.h"
#include "util/counted.h"
#include "util/utf8.h"

namespace gpuperf::analysis {
namespace {

constexpr const char* kSource = " (source: trace)";
constexpr const char* kCounters = " (source: Nsight Compute counters)";
constexpr std::size_t kTopKernelChars = 80;  // the full name is in the kernel table and report.json
// Copies, communication and one-time work under this share of the span (of the trace window) are
// left to their sections: "2.37 us (0.0% of the span)" only lengthens the headline (Qwen H100).
constexpr double kHeadlineShare = 0.01;

// "Make the host work ..." -> "make the host work ...", mid-sentence.
std::string LowerFirst(std::string_view clause) {
  std::string out(clause);
  if (!out.empty() && out[0] >= 'A' && out[0] <= 'Z' &&
      !(out.size() > 1 && out[1] >= 'A' && out[1] <= 'Z'))
    out[0] = static_cast<char>(out[0] - 'A' + 'a');
  return out;
}

double Share(std::int64_t part, std::int64_t whole) {
  return Percent(static_cast<double>(part), static_cast<double>(whole));
}

// The diagnosis in one sentence, so that the opening paragraph and the Diagnosis section below
// it say the same thing: the class, its status, the first clause of the next experiment and its
// Amdahl bound.
std::string Verdict(const report::Diagnosis& d) {
  if (d.bottleneck == report::Bottleneck::kNone)
    return "";
  // Repeats that bound more than the statement's lever lead: the class is of what each repeat
  // does.
  bool check_leads = d.lead == report::DiagnosisLead::kInputCheck;
  std::string text =
      check_leads ? fmt::format(
                        "Diagnosis: the work may repeat on one input ({}; a check: the trace "
                        "records shapes, not values); the window as it is: {} ({})",
                        d.input_check,
                        d.label,
                        ToString(d.status))
                  : fmt::format("Diagnosis: {} ({})", d.label, ToString(d.status));
  if (!d.secondary.empty()) {
    const report::Diagnosis& s = d.secondary.front();
    const char* phase = s.dominant_kind == report::DominantKind::kIdle   ? "idle phase"
                        : s.dominant_kind == report::DominantKind::kCopy ? "copy phase"
                                                                         : "GPU phase";
    text += s.label.empty() || s.label == "unknown" ? fmt::format("; {}: of unknown class", phase)
                                                    : fmt::format("; {}: {}", phase, s.label);
  }
  std::string_view next = d.next_experiment;
  // A checked input: the check, then the experiment for an intended input, its first clause.
  std::string checked;
  if (std::size_t at = next.find(kIfIntended); !d.input_check.empty() && at != next.npos) {
    next.remove_prefix(at + kIfIntended.size());
    checked = check_leads ? std::string("settle that check first; for the input as it is, ")
                          : fmt::format("check the input first ({}); for the input as it is, ",
                                        d.input_check);
  }
  // The first clause: up to ": " or ". " outside parentheses ("aten::addmm" and "1.5x" do not
  // end one, nor does a colon inside a parenthesis, which would be left open).
  int depth = 0;
  for (std::size_t i = 0; i + 1 < next.size(); ++i) {
    depth += next[i] == '(' ? 1 : next[i] == ')' && depth > 0 ? -1 : 0;
    if (depth == 0 && (next[i] == ':' || next[i] == '.') && next[i + 1] == ' ') {
      next = next.substr(0, i);
      break;
    }
  }
  if (!next.empty())
    text += fmt::format(
        "; next experiment: {}{}", checked, checked.empty() ? std::string(next) : LowerFirst(next));
  // The lever's bounds; with a host close behind, the bound with as many launches leads (mi300:
  // 1.14x while the host launches as now, 1.54x and 1.88x only with fewer launches).
  std::string bounds;
  if (d.bound_speedup_at_2x && d.bound_speedup)
    bounds += fmt::format(
        ", {:.2f}x faster if it leads to kernels 2x faster (Amdahl at an assumed 2x; at most "
        "{:.2f}x only if they took no time)",
        *d.bound_speedup_at_2x,
        *d.bound_speedup);
  else if (d.bound_speedup && d.bound_speedup_estimated)
    bounds += fmt::format(
        ", about {:.2f}x faster with each kernel at the efficiency it has now (an assumption), "
        "at most {:.2f}x at the roof itself (Amdahl)",
        *d.bound_speedup_estimated,
        *d.bound_speedup);
  else if (d.bound_speedup && d.bound_speedup_overlapped)
    // Both routes the lever names: the host work moved beside the GPU, or gone.
    bounds += fmt::format(
        ", at most {:.2f}x faster if that host work takes no time{}, {:.2f}x if it only moves "
        "beside the GPU{} (Amdahl)",
        *d.bound_speedup,
        d.bound_speedup_named
            ? fmt::format(" ({:.2f}x if only the work it names does)", *d.bound_speedup_named)
            : std::string(),
        *d.bound_speedup_overlapped,
        d.bound_speedup_across_inputs
            ? fmt::format(", {:.2f}x with a separate worker preparing the next input while the "
                          "GPU runs this one",
                          *d.bound_speedup_across_inputs)
            : std::string());
  else if (d.bound_speedup && d.bound_speedup_idle_kept)
    // Raised to the fewer-launches ceiling: the change alone first, then with graph capture
    // (Qwen H100's 2.30x read as what fusion alone gives, 1.89x).
    // The ceiling is a ratio of windows, not Amdahl's.
    bounds += fmt::format(
        ", at most {:.2f}x faster with the GPU's idle kept as now (Amdahl), {:.2f}x if its "
        "launches are captured in a graph as well and that idle goes too (the window over the "
        "GPU's busy time less the work removed{})",
        *d.bound_speedup_idle_kept,
        *d.bound_speedup,
        // The modelled part is raised with the bound: said of the graph case.
        d.bound_speedup_modeled
            ? fmt::format("; {:.2f}x from its modelled part alone, the rest assumed",
                          *d.bound_speedup_modeled)
            : std::string());
  else if (d.bound_speedup && d.bound_speedup_unrecorded_graph_work)
    // The likelier reading first: graph gaps that nothing recorded could end (review 61: 2.81x
    // led while the evidence pointed at unrecorded nodes, 1.36x).
    bounds += fmt::format(
        ", at most {:.2f}x faster if the graphs' idle, which nothing recorded could end, is work "
        "the trace does not record; {:.2f}x if node-level tracing shows it idle (Amdahl)",
        *d.bound_speedup_unrecorded_graph_work,
        *d.bound_speedup);
  else if (d.bound_speedup)
    bounds += fmt::format(", at most {:.2f}x faster if it fully succeeds (Amdahl{})",
                          *d.bound_speedup,
                          d.bound_speedup_modeled
                              ? fmt::format("; {:.2f}x from its modelled part alone, the rest "
                                            "assumed",
                                            *d.bound_speedup_modeled)
                              : std::string());
  if (d.bound_speedup_same_launches && !bounds.empty())
    text += fmt::format(
        ", at most {:.2f}x faster if the kernels only get faster and the host launches as many as "
        "now (the host's own time then holds the gain); with fewer launches (fusion, "
        "torch.compile, CUDA graphs){}",
        *d.bound_speedup_same_launches,
        bounds.substr(1));
  else
    text += bounds;
  if (d.bound_speedup_piecewise_graphs)
    text += fmt::format(
        "; {:.2f}x with piecewise capture (vLLM's for prefill and mixed batches), which leaves "
        "the attention operators eager and their idle in place",
        *d.bound_speedup_piecewise_graphs);
  if (d.bound_speedup_this_rank_only)
    text += fmt::format(
        "; {:.2f}x if only this rank changes (it waits at least {} in collectives for other "
        "ranks)",
        *d.bound_speedup_this_rank_only,
        Ms(d.peer_wait_ns));
  if (d.bound_speedup_same_launches && bounds.empty())
    text += fmt::format(
        "; {:.2f}x if the kernels only get faster and the host launches as many as now: beyond "
        "it the host's own time must fall too (fewer launches: fusion, torch.compile, CUDA "
        "graphs)",
        *d.bound_speedup_same_launches);
  return text + ".";
}

// The top kernel as its table row reads (told apart from kernels of the same readable name),
// with its launching operator.
std::string TopKernelText(const report::KernelRow& top) {
  return util::ShortenWithTag(
      top.readable_name.empty() ? ReadableKernelName(top.name) : top.readable_name,
      top.top_operator,
      kTopKernelChars);
}

// A bound over host time is over the profiled host: beside the verdict, not only in the evidence
// (b200: 4.76x over host time recorded with Python stacks and shapes).
std::string ProfiledHostCaveat(const model::Trace& trace, const report::Diagnosis& d) {
  if (d.bottleneck != report::Bottleneck::kHostBound &&
      d.bottleneck != report::Bottleneck::kLaunchBound &&
      d.bottleneck != report::Bottleneck::kSyncBound)
    return "";
  const std::string options = RecordedProfilerOptions(trace, HostOpsCarryShapes(trace));
  if (options.empty())
    return "";
  return fmt::format(
      " The host time it rests on was recorded with {}, whose per-operator work inflates it: "
      "confirm the bound with an unprofiled timing of the same steps.",
      options);
}

// The top kernel on a grid that leaves most SMs idle, where its finding names it (saxpy: 2
// blocks on 108 SMs, said only in the findings).
std::string SmallGridText(const report::AnalysisReport& report, const report::KernelRow& top) {
  const report::Finding* f = FindFinding(report, report::finding_id::kSmallGrid);
  if (!f || f->subject != top.name)
    return "";
  return fmt::format(
      " It runs on a grid of {} blocks of {} threads, under half as many blocks as the GPU has "
      "SMs: most SMs idle while it runs (finding {}).",
      top.grid,
      top.block,
      f->id);
}

std::string NoGpuWork(const model::Trace& trace) {
  std::string other = UnsupportedDevice(trace);
  return fmt::format(
      "The trace records no {}GPU work: {} host API calls, {} ranges and {} host operations, but "
      "no kernel, copy or memset{}.{}",
      other.empty() ? "" : "NVIDIA or AMD ",
      trace.api_calls.size(),
      trace.ranges.size(),
      trace.host_ops.size(),
      kSource,
      other.empty() ? "" : " " + other);
}

// Nsight Compute replays each kernel alone: its launch times make no timeline, so the paragraph
// says what was profiled instead of a span, a busy share and a queue.
std::string NcuScope(const report::AnalysisReport& report) {
  std::int64_t launches = 0;
  std::int64_t total = 0;
  for (const report::KernelRow& k : report.kernels) {
    launches += k.duration_ns.count;
    total += k.duration_ns.total;
  }
  std::string text = fmt::format(
      "Nsight Compute profiled {} launches of {} kernels, each replayed alone (per-kernel "
      "counters; no timeline, so no idle time or overlap){}.",
      launches,
      report.kernels.size(),
      kCounters);
  if (total == 0)
    return text + " The file records no kernel durations.";
  const report::KernelRow& top = report.kernels.front();
  return text + fmt::format(" Their durations sum to {}; the top kernel, {}, takes {} ({:.1f}%){}.",
                            Ms(total),
                            TopKernelText(top),
                            Ms(top.duration_ns.total),
                            top.time_percent,
                            kCounters);
}

}  // namespace

std::string Headline(const model::Trace& trace, const report::AnalysisReport& report) {
  const report::Timeline& t = report.timeline;
  if (t.activities == 0)
    return NoGpuWork(trace);
  std::string text = Verdict(report.diagnosis) + ProfiledHostCaveat(trace, report.diagnosis);
  if (!trace.metadata.has_timeline)
    return text + " " + NcuScope(report);
  const auto& preroll = report.predictions.preroll;
  // The diagnosis is over the steady-state window (less a pre-roll and the one-time work during
  // which the GPU idled): where that window is not the GPU span, say both, so that "busy 99%" of
  // a span never stands beside a host-bound verdict unexplained, nor "idle 18.6%" of a span
  // whose one-time gaps are left out beside a window 3.4% idle (switchtransformers).
  std::int64_t steady = report.predictions.wall_ns;
  std::int64_t steady_busy = t.busy_ns - (preroll ? preroll->gpu_ns : 0);
  bool span_is_window =
      !preroll && steady > 0 &&
      std::abs(static_cast<double>(t.total_ns - steady)) <= 0.05 * static_cast<double>(steady);
  if (span_is_window || steady <= 0) {
    text += fmt::format(
        "{}The GPU span is {} over {} GPU activities: busy {:.1f}% ({}), idle {:.1f}%{}.",
        text.empty() ? "" : " ",
        Ms(t.total_ns),
        t.activities,
        Share(t.busy_ns, t.total_ns),
        Ms(t.busy_ns),
        Share(t.idle_ns, t.total_ns),
        kSource);
  } else {
    text += fmt::format(
        "{}The GPU is busy {} of the {} steady-state window ({:.1f}%){}; the whole trace's GPU "
        "span, first to last of its {} GPU activities{}, is {}, busy {:.1f}% of it{}.",
        text.empty() ? "" : " ",
        Ms(steady_busy),
        Ms(steady),
        Share(steady_busy, steady),
        preroll ? fmt::format(", {} left out", PreRollName(*preroll)) : "",
        t.activities,
        preroll ? fmt::format(", {} included", PreRollName(*preroll)) : "",
        Ms(t.total_ns),
        Share(t.busy_ns, t.total_ns),
        kSource);
  }
  if (!report.kernels.empty()) {
    const report::KernelRow& top = report.kernels.front();
    text += fmt::format(
        " The top kernel{}, {}, takes {} in {}: {:.1f}% of kernel time{}.",
        preroll ? fmt::format(" of the whole trace ({} included, as in the kernel table)",
                              PreRollName(*preroll).substr(4))
                : "",
        TopKernelText(top),
        Ms(top.duration_ns.total),
        util::Counted(top.duration_ns.count, "instance", "instances"),
        top.time_percent,
        kSource);
    text += SmallGridText(report, top);
  }
  // Copies and communication only when the window has them: "0 ns exposed" says nothing.
  // The timeline's figures are the whole trace's: with a part left out, say so.
  const char* whole = preroll ? " in the whole trace" : "";
  auto material = [&](std::int64_t ns) {
    return ns > 0 && static_cast<double>(ns) >= kHeadlineShare * static_cast<double>(t.total_ns);
  };
  if (material(t.memcpy_ns))
    text += fmt::format(" Copies{} cover {} ({:.1f}% of the span, {} not overlapped by kernels){}.",
                        whole,
                        Ms(t.memcpy_ns),
                        Share(t.memcpy_ns, t.total_ns),
                        Ms(t.exposed_memcpy_ns),
                        kSource);
  if (material(t.communication_ns))
    text += fmt::format(" Communication kernels{} cover {} ({:.1f}% of the span, {} exposed){}.",
                        whole,
                        Ms(t.communication_ns),
                        Share(t.communication_ns, t.total_ns),
                        Ms(t.exposed_communication_ns),
                        kSource);
  const report::Initialization& init = report.initialization;
  // Without two marked steps the window is no steady state: its later first calls stay in. It
  // may still hold unmarked iterations (a loop without step markers), so it is not called one
  // pass.
  bool one_pass = report.framework.steps.size() < 2;
  const bool init_material = init.time_ns > 0 && init.fraction >= kHeadlineShare;
  const std::string one_time =
      !init_material
          ? std::string()
          : fmt::format(" One-time work (initialization) covers {} ({:.1f}% of the trace window){}",
                        Ms(init.time_ns),
                        100.0 * init.fraction,
                        init.items.empty()
                            ? ""
                            : ", most in " + std::string(ToString(init.items.front().kind)) + " " +
                                  init.items.front().name);
  if (init_material && preroll && init.before_window_ns >= init.time_ns)
    text += fmt::format("{}, all of it before the steady-state window, in {} left out below{}.",
                        one_time,
                        PreRollName(*preroll),
                        kSource);
  else if (init_material)
    text += fmt::format(
        "{}; the diagnosis and bounds are for {} without it: a {} window, the part of the "
        "one-time work during which the GPU idled left out{}{}.",
        one_time,
        one_pass ? "the window" : "the steady state",
        Ms(init.steady_window_ns),
        one_pass ? "; the trace marks no steps (ProfilerStep, or ranges named by --step-range), "
                   "so the window is not a steady state of warm steps and later first calls "
                   "stay in it: for one, trace several marked steps after warm-up"
                 : "",
        kSource);
  if (init.unobserved_tail_ns > 0)
    text += fmt::format(
        " The last {}, after the last GPU activity and the last step, in which the trace records "
        "nothing, are left out of the window as well{}.",
        Ms(init.unobserved_tail_ns),
        kSource);
  if (preroll && IsOrphanPreRoll(*preroll)) {
    text += fmt::format(
        " The first {} ({} GPU activities launched before the recording began, the previous "
        "step's tail) are left out: the diagnosis and bounds are for the {} steady-state window "
        "without them{}.",
        Ms(preroll->time_ns),
        preroll->activities,
        Ms(report.predictions.wall_ns),
        kSource);
  } else if (preroll) {
    text += fmt::format(
        " The first {} ({}) are left out: the diagnosis and bounds are for the {} steady-state "
        "window of the steps after it{}.",
        Ms(preroll->time_ns),
        PreRollWhat(*preroll),
        Ms(report.predictions.wall_ns),
        kSource);
  }
  if (report.diagnosis.queue) {
    // Appended in two steps: GCC 12's -Wrestrict misreads " " + std::string at -O3 (bug 105651).
    text += ' ';
    text += report.diagnosis.queue->sentence;
  }
  return text;
}

}  // namespace gpuperf::analysis
