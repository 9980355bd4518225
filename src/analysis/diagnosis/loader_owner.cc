// Who iterates a single-process DataLoader (docs/metrics.md, "Diagnosis", host_bound): the advice
// DataLoader(num_workers>0) is for the code that builds the loader. When a library iterates it
// (a Hugging Face pipeline, a trainer), the setting is that library's argument, not a line of the
// program's own.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

#include "analysis/diagnosis/diagnosis_parts.h"

namespace gpuperf::analysis {
namespace {

constexpr std::string_view kSingleProcessFetch = "_SingleProcessDataLoaderIter";

// PyTorch's own frames and built-ins ("<built-in function next>") are the loader's machinery, not
// its owner.
bool IsLoaderMachinery(std::string_view frame) {
  return frame.starts_with("torch/") || frame.starts_with("<") ||
         frame.find("/torch/") != std::string_view::npos;
}

// The first single-process fetch on any host record that names it: (start, end, pid, tid).
struct Fetch {
  model::TimeNs start = 0;
  model::TimeNs end = 0;
  std::int64_t pid = model::kNoId;
  std::int64_t tid = model::kNoId;
};

std::optional<Fetch> FirstFetch(const model::Trace& trace) {
  std::optional<Fetch> first;
  auto consider = [&](model::NameId name, model::TimeNs s, model::TimeNs e, auto pid, auto tid) {
    if (first && first->start <= s)
      return;
    if (trace.Name(name).find(kSingleProcessFetch) == std::string_view::npos)
      return;
    first = Fetch{s, e, pid, tid};
  };
  for (const model::Range& r : trace.ranges)
    consider(r.name, r.start_ns, r.end_ns, r.pid, r.tid);
  for (const model::HostOp& o : trace.host_ops)
    consider(o.name, o.start_ns, o.end_ns, o.pid, o.tid);
  return first;
}

}  // namespace

std::string LoaderOwner(const model::Trace& trace) {
  if (trace.python_frames.empty())
    return "";
  std::optional<Fetch> fetch = FirstFetch(trace);
  if (!fetch)
    return "";
  auto thread = std::find_if(
      trace.frame_threads.begin(), trace.frame_threads.end(), [&](const model::HostThread& t) {
        return t.pid == fetch->pid && t.tid == fetch->tid;
      });
  if (thread == trace.frame_threads.end())
    return "";
  // The innermost enclosing frame that is not PyTorch's own.
  for (const model::PythonFrame* f :
       EnclosingFrames(trace,
                       static_cast<std::uint32_t>(thread - trace.frame_threads.begin()),
                       fetch->start,
                       fetch->end)) {
    if (!IsLoaderMachinery(trace.Name(f->name)))
      return std::string(trace.Name(f->name));
  }
  return "";
}

}  // namespace gpuperf::analysis
