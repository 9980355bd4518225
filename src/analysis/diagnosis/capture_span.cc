#include "analysis/diagnosis/capture_span.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string_view>
#include <utility>
#include <vector>

#include "analysis/core/names.h"
#include "analysis/framework/launch_tree.h"
#include "util/units_format.h"

namespace gpuperf::analysis {
namespace {

// PyTorch's module frames (with_stack traces): "nn.Module: BertModel_0".
bool IsModuleFrame(std::string_view name) {
  return !framework::ModuleInstanceName(name).empty();
}

// A launch call and the outermost framework code around it: widened to each operator and module
// frame on its thread that holds it.
struct Around {
  const model::ApiCall& call;
  util::Interval span;
  void Widen(std::int64_t pid, std::int64_t tid, std::int64_t start, std::int64_t end) {
    if (pid == call.pid && tid == call.tid && start <= call.start_ns && end >= call.end_ns) {
      span.start = std::min(span.start, start);
      span.end = std::max(span.end, end);
    }
  }
};

}  // namespace

std::optional<util::Interval> CaptureSpan(const model::Trace& trace) {
  CachedNamePredicate is_launch(trace, IsLaunchApi);
  const model::ApiCall* first = nullptr;
  const model::ApiCall* last = nullptr;
  for (const model::ApiCall& call : trace.api_calls) {
    if (!is_launch(call.name))
      continue;
    if (!first || call.start_ns < first->start_ns)
      first = &call;
    if (!last || call.end_ns > last->end_ns)
      last = &call;
  }
  if (!first)
    return std::nullopt;
  // One pass over the operators and one over the frames for both calls.
  Around head{*first, {first->start_ns, first->end_ns}};
  Around tail{*last, {last->start_ns, last->end_ns}};
  for (const model::HostOp& op : trace.host_ops) {
    head.Widen(op.pid, op.tid, op.start_ns, op.end_ns);
    tail.Widen(op.pid, op.tid, op.start_ns, op.end_ns);
  }
  CachedNamePredicate is_module(trace, IsModuleFrame);
  for (const model::PythonFrame& f : trace.python_frames) {
    if (!is_module(f.name))
      continue;
    const model::HostThread& thread = trace.ThreadOf(f);
    head.Widen(thread.pid, thread.tid, f.start_ns, f.end_ns);
    tail.Widen(thread.pid, thread.tid, f.start_ns, f.end_ns);
  }
  return util::Interval{head.span.start, tail.span.end};
}

EdgeOutsideCapture EdgeHostOutsideCapture(const model::Trace& trace,
                                          const std::vector<util::Interval>& edge_gaps) {
  EdgeOutsideCapture out;
  if (edge_gaps.empty())
    return out;
  const std::optional<util::Interval> span = CaptureSpan(trace);
  const std::vector<util::Interval> outside = span ? util::Subtract(edge_gaps, {*span}) : edge_gaps;
  out.ns = util::TotalLength(outside);
  if (out.ns <= 0)
    return out;
  // What the host ran there: operators and host ranges by the time they cover of it (dlrm: the
  // DataLoader's fetch before the first kernel).
  std::map<model::NameId, std::int64_t> covered;
  auto add = [&](model::NameId name, std::int64_t start, std::int64_t end) {
    // The edges lie before the span and after it: a record inside it covers none of them.
    if (span && start >= span->start && end <= span->end)
      return;
    if (std::int64_t c = util::CoveredLength(outside, start, end); c > 0)
      covered[name] += c;
  };
  for (const model::HostOp& op : trace.host_ops)
    add(op.name, op.start_ns, op.end_ns);
  for (const model::Range& r : trace.ranges) {
    if (r.device == model::kNoId && !IsProfilerStepName(trace.Name(r.name)))
      add(r.name, r.start_ns, r.end_ns);
  }
  std::vector<std::pair<std::int64_t, model::NameId>> by_time;
  for (const auto& [name, ns] : covered)
    by_time.emplace_back(ns, name);
  std::sort(by_time.begin(), by_time.end(), [&](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : trace.Name(a.second) < trace.Name(b.second);
  });
  for (std::size_t i = 0; i < by_time.size() && i < 2; ++i)
    out.names += fmt::format("{}{} ({})",
                             i ? ", " : "",
                             trace.Name(by_time[i].second),
                             util::FormatDuration(static_cast<double>(by_time[i].first)));
  return out;
}

}  // namespace gpuperf::analysis
