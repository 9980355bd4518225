// Python built-ins named by self time ("<built-in function zoom_shift>") say what ran, not whose
// code ran it: the lever is in the caller (owlv2: scipy's zoom, from the image processor's resize).
// The two innermost enclosing frames that are not built-ins, around its longest instance, name
// it.
#include <fmt/format.h>

#include <limits>
#include <string>
#include <string_view>

#include "analysis/diagnosis/diagnosis_parts.h"

namespace gpuperf::analysis {

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
  // Its enclosing frames on the same thread that are not built-ins, the innermost two.
  const model::PythonFrame* inner = nullptr;
  const model::PythonFrame* outer = nullptr;
  auto length = [](const model::PythonFrame* f) {
    return f ? f->end_ns - f->start_ns : std::numeric_limits<model::TimeNs>::max();
  };
  for (const model::PythonFrame& f : trace.python_frames) {
    if (&f == longest || f.thread != longest->thread || f.start_ns > longest->start_ns ||
        f.end_ns < longest->end_ns || trace.Name(f.name).starts_with("<"))
      continue;
    model::TimeNs l = f.end_ns - f.start_ns;
    if (l < length(inner)) {
      outer = inner;
      inner = &f;
    } else if (l < length(outer)) {
      outer = &f;
    }
  }
  if (inner == nullptr)
    return "";
  return outer == nullptr
             ? fmt::format("in {}", trace.Name(inner->name))
             : fmt::format("in {}, from {}", trace.Name(inner->name), trace.Name(outer->name));
}

}  // namespace gpuperf::analysis
