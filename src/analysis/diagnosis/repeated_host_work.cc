// The host work that fills the gaps, told apart where it lies inside repeated runs of one input
// (framework.repeated_forward): a per-run preprocessing of the same image is part of the repeats,
// and computing the shared work once removes it with them, before any lever for the host.
#include <fmt/format.h>

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/diagnosis/input_check.h"
#include "analysis/findings/findings.h"
#include "util/intervals.h"

namespace gpuperf::analysis {
namespace {

// One named host work: every recorded instance of its name, and those inside the repeats.
struct Instances {
  std::vector<util::Interval> all;
  std::vector<util::Interval> inside;
};

}  // namespace

RepeatedHostWork HostWorkInRepeats(const model::Trace& trace,
                                   const IdleAttribution& idle,
                                   const report::FrameworkView& view,
                                   const std::vector<std::string>& names) {
  if (!view.repeated_forward || names.empty())
    return {};
  const report::RepeatedForward& f = *view.repeated_forward;
  util::Interval span{f.repeats_start_ns, f.repeats_start_ns + f.repeats_ns};
  std::int64_t gaps_inside = util::TotalLength(util::Intersect(idle.other_gaps, {span}));
  if (gaps_inside <= 0)
    return {};
  // The names' ids, found once: a name is one interned string.
  std::unordered_map<model::NameId, std::size_t> wanted;
  for (model::NameId id = 0; id < trace.strings.size(); ++id) {
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (trace.Name(id) == names[i])
        wanted.emplace(id, i);
    }
  }
  std::vector<Instances> found(names.size());
  auto add = [&](model::NameId name, model::TimeNs start, model::TimeNs end) {
    auto it = wanted.find(name);
    if (it == wanted.end())
      return;
    Instances& in = found[it->second];
    in.all.push_back({start, end});
    if (start >= span.start && end <= span.end)
      in.inside.push_back({start, end});
  };
  for (const model::PythonFrame& p : trace.python_frames)
    add(p.name, p.start_ns, p.end_ns);
  for (const model::HostOp& o : trace.host_ops)
    add(o.name, o.start_ns, o.end_ns);
  for (const model::Range& r : trace.ranges)
    add(r.name, r.start_ns, r.end_ns);
  std::string parts;
  for (std::size_t i = 0; i < names.size(); ++i) {
    // A name nested in itself (recursion) counts its outermost instances once.
    std::vector<util::Interval> all = util::MergeIntervals(std::move(found[i].all));
    std::vector<util::Interval> inside = util::MergeIntervals(std::move(found[i].inside));
    if (inside.empty() || all.size() < 2)
      continue;
    parts += fmt::format("{}{} runs {} times, {} of them ({}) inside the repeats",
                         parts.empty() ? "" : "; ",
                         names[i],
                         all.size(),
                         inside.size(),
                         Ms(util::TotalLength(inside)));
  }
  RepeatedHostWork out;
  out.ns = gaps_inside;
  out.evidence = fmt::format(
      "{} of the idle the host work fills lies inside the repeats (from the end of the first run "
      "of {} to the end of the last){}: the runs' own host work, which computing the shared work "
      "once removes with them if the runs repeat one computation (trace: Python frames, ranges and "
      "operators).",
      Ms(gaps_inside),
      f.module,
      parts.empty() ? "" : "; " + parts);
  return out;
}

}  // namespace gpuperf::analysis
