// Gradients zeroed with kernels (docs/metrics.md, "Diagnosis", host_bound): PyTorch's
// optimizer.zero_grad() before 2.0 (or with set_to_none=False) fills every gradient with a
// kernel, one launch per parameter each step. In a host-bound window those launches are host
// time; set_to_none=True frees the gradients instead and launches nothing (k2021-06: 161 fill
// kernels and 6.2 ms of host time a step).
#include <fmt/format.h>

#include <string>
#include <string_view>
#include <vector>

#include "analysis/diagnosis/diagnosis_parts.h"
#include "analysis/findings/findings.h"
#include "analysis/predictions/amdahl.h"
#include "util/intervals.h"

namespace gpuperf::analysis {
namespace {

bool IsZeroGrad(std::string_view name) {
  return name.starts_with("Optimizer.zero_grad#");
}

bool IsFill(std::string_view name) {
  return name == "aten::zero_" || name == "aten::fill_";
}

}  // namespace

ZeroGrad ZeroGradWork(const model::Trace& trace,
                      const IdleAttribution& idle,
                      const util::Interval& span,
                      std::int64_t window_ns) {
  ZeroGrad out;
  std::vector<util::Interval> spans;
  std::string_view name;
  for (const model::HostOp& o : trace.host_ops) {
    // The steady window's calls: a left-out first step's are not among them.
    if (o.start_ns < span.start || o.start_ns >= span.end || !IsZeroGrad(trace.Name(o.name)))
      continue;
    spans.push_back({o.start_ns, o.end_ns});
    name = trace.Name(o.name);
  }
  if (spans.empty() || window_ns <= 0)
    return out;
  spans = util::MergeIntervals(std::move(spans));
  // The fill operators inside them: fill_, which launches the kernel (zero_ calls it, and a
  // dispatcher re-entry records zero_ twice), else zero_.
  std::int64_t zeros = 0, fills = 0;
  util::IntervalProbe probe(spans);
  for (const model::HostOp& o : trace.host_ops) {
    std::string_view op = trace.Name(o.name);
    if (IsFill(op) && probe.Overlaps(o.start_ns, o.end_ns))
      ++(op == "aten::zero_" ? zeros : fills);
  }
  fills = fills > 0 ? fills : zeros;
  if (fills == 0)
    return out;
  std::int64_t host_ns = util::TotalLength(spans);
  std::vector<util::Interval> gaps = idle.other_gaps;
  gaps.insert(gaps.end(), idle.round_trip_gaps.begin(), idle.round_trip_gaps.end());
  out.idle_ns = util::TotalLength(util::Intersect(util::MergeIntervals(std::move(gaps)), spans));
  auto calls = static_cast<std::int64_t>(spans.size());
  out.text = fmt::format(
      "{} zeroes the gradients with kernels: {} fill operators in {} calls ({} a call), {} of "
      "host time a call, {} of GPU idle inside them in all. optimizer.zero_grad(set_to_none=True) "
      "(PyTorch's default since 2.0) frees the gradients instead and launches nothing: at most "
      "{:.2f}x (Amdahl over that idle; trace: operators)",
      name,
      fills,
      calls,
      fills / calls,
      Ms(host_ns / calls),
      Ms(out.idle_ns),
      AmdahlLimit(static_cast<double>(out.idle_ns) / static_cast<double>(window_ns)));
  return out;
}

}  // namespace gpuperf::analysis
