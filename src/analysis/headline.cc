#include "analysis/headline.h"

#include <fmt/format.h>

#include <string_view>
#include <tuple>

#include "analysis/diagnosis.h"
#include "analysis/findings.h"
#include "analysis/statistics.h"

namespace gpuperf::analysis {
namespace {

constexpr const char* kSource = " (source: trace)";

double Share(std::int64_t part, std::int64_t whole) {
  return Percent(static_cast<double>(part), static_cast<double>(whole));
}

// Warnings before infos; a mostly idle GPU first (the triage order: an idle GPU is not fixed by
// tuning kernels), then by attributable time (for a wait, the GPU idle it causes); the first of
// equals stays.
const report::Finding* MostImportant(const std::vector<report::Finding>& findings) {
  const report::Finding* best = nullptr;
  auto rank = [](const report::Finding& f) {
    return std::make_tuple(f.severity == "warning",
                           f.id == "gpu_idle_dominant",
                           f.gpu_idle_caused_ns.value_or(f.time_ns));
  };
  for (const report::Finding& f : findings) {
    if (best == nullptr || rank(f) > rank(*best))
      best = &f;
  }
  return best;
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

}  // namespace

std::string Headline(const model::Trace& trace, const report::AnalysisReport& report) {
  const report::Timeline& t = report.timeline;
  if (t.activities == 0)
    return NoGpuWork(trace);
  std::string text =
      fmt::format("The GPU span is {} over {} GPU activities: busy {:.1f}% ({}), idle {:.1f}%{}.",
                  Ms(t.total_ns),
                  t.activities,
                  Share(t.busy_ns, t.total_ns),
                  Ms(t.busy_ns),
                  Share(t.idle_ns, t.total_ns),
                  kSource);
  if (!report.kernels.empty()) {
    const report::KernelRow& top = report.kernels.front();
    text += fmt::format(
        " The top kernel, {}, takes {} in {} instances: {:.1f}% of kernel time and {:.1f}% of the "
        "span{}.",
        top.name,
        Ms(top.duration_ns.total),
        top.duration_ns.count,
        top.time_percent,
        top.wall_percent,
        kSource);
  }
  text += fmt::format(
      " Copies cover {} ({:.1f}% of the span, {} not overlapped by kernels); communication "
      "kernels cover {} ({:.1f}%, {} exposed){}.",
      Ms(t.memcpy_ns),
      Share(t.memcpy_ns, t.total_ns),
      Ms(t.exposed_memcpy_ns),
      Ms(t.communication_ns),
      Share(t.communication_ns, t.total_ns),
      Ms(t.exposed_communication_ns),
      kSource);
  const report::Initialization& init = report.initialization;
  if (init.time_ns > 0)
    text += fmt::format(
        " One-time work (initialization) covers {} ({:.1f}% of the window){}; the diagnosis and "
        "bounds are for the steady state without it{}.",
        Ms(init.time_ns),
        100.0 * init.fraction,
        init.items.empty() ? ""
                           : ", most in " + init.items.front().kind + " " + init.items.front().name,
        kSource);
  if (report.diagnosis.queue) {
    std::string_view sentence = report.diagnosis.queue->sentence;
    text += " " + std::string(sentence);
  }
  if (const report::Finding* f = MostImportant(report.findings)) {
    std::string_view summary = f->summary;
    if (summary.ends_with('.'))
      summary.remove_suffix(1);
    text += fmt::format(" Most important finding ({}): {}{}.", f->id, summary, kSource);
  }
  return text;
}

}  // namespace gpuperf::analysis
