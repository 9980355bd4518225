#include "analysis/timeline/capture_span.h"

#include <algorithm>
#include <string_view>

#include "analysis/core/names.h"

namespace gpuperf::analysis {
namespace {

// PyTorch's module frames (with_stack traces): "nn.Module: BertModel_0".
bool IsModuleFrame(std::string_view name) {
  return name.starts_with("nn.Module: ");
}

// The earliest start and latest end of the operators and module frames on the call's thread that
// hold it: the outermost framework code around the launch.
util::Interval Outermost(const model::Trace& trace,
                         const model::ApiCall& call,
                         CachedNamePredicate& is_module) {
  util::Interval span{call.start_ns, call.end_ns};
  auto widen = [&](std::int64_t start, std::int64_t end) {
    if (start <= call.start_ns && end >= call.end_ns) {
      span.start = std::min(span.start, start);
      span.end = std::max(span.end, end);
    }
  };
  for (const model::HostOp& op : trace.host_ops) {
    if (op.pid == call.pid && op.tid == call.tid)
      widen(op.start_ns, op.end_ns);
  }
  for (const model::PythonFrame& f : trace.python_frames) {
    const model::HostThread& thread = trace.ThreadOf(f);
    if (thread.pid == call.pid && thread.tid == call.tid && is_module(f.name))
      widen(f.start_ns, f.end_ns);
  }
  return span;
}

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
  CachedNamePredicate is_module(trace, IsModuleFrame);
  return util::Interval{Outermost(trace, *first, is_module).start,
                        Outermost(trace, *last, is_module).end};
}

std::int64_t EdgeHostOutsideCapture(const model::Trace& trace,
                                    const std::vector<util::Interval>& edge_gaps) {
  if (edge_gaps.empty())
    return 0;
  const std::optional<util::Interval> span = CaptureSpan(trace);
  if (!span)
    return util::TotalLength(edge_gaps);
  return util::TotalLength(util::Subtract(edge_gaps, {*span}));
}

}  // namespace gpuperf::analysis
