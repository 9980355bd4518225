// The Python frames around a host record, innermost first: whose code ran it. A Python built-in
// named by self time ("<built-in function zoom_shift>") says what ran, not whose code ran it, and
// a DataLoader's fetch says nothing of the code that set its num_workers: the lever is in the
// caller (owlv2: scipy's zoom, from the image processor's resize).
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/diagnosis/diagnosis_parts.h"

namespace gpuperf::analysis {

std::vector<const model::PythonFrame*> EnclosingFrames(const model::Trace& trace,
                                                       std::uint32_t thread,
                                                       model::TimeNs start,
                                                       model::TimeNs end) {
  std::vector<const model::PythonFrame*> out;
  for (const model::PythonFrame& f : trace.python_frames) {
    if (f.thread == thread && f.start_ns <= start && f.end_ns >= end &&
        !trace.Name(f.name).starts_with("<"))
      out.push_back(&f);
  }
  std::stable_sort(out.begin(), out.end(), [](const auto* a, const auto* b) {
    return a->end_ns - a->start_ns < b->end_ns - b->start_ns;
  });
  return out;
}

std::string BuiltinCallers(const model::Trace& trace, std::string_view name) {
  if (!name.starts_with("<built-in"))
    return "";
  // The longest instance of the name: the one that holds the time (a name like "<built-in
  // method astype of numpy.ndarray object at 0x...>" recurs wherever the address is reused).
  const model::PythonFrame* longest = nullptr;
  for (const model::PythonFrame& f : trace.python_frames) {
    if ((longest == nullptr || f.end_ns - f.start_ns > longest->end_ns - longest->start_ns) &&
        trace.Name(f.name) == name)
      longest = &f;
  }
  if (longest == nullptr)
    return "";
  std::vector<const model::PythonFrame*> callers =
      EnclosingFrames(trace, longest->thread, longest->start_ns, longest->end_ns);
  if (callers.empty())
    return "";
  return callers.size() == 1
             ? fmt::format("in {}", trace.Name(callers[0]->name))
             : fmt::format(
                   "in {}, from {}", trace.Name(callers[0]->name), trace.Name(callers[1]->name));
}

}  // namespace gpuperf::analysis
