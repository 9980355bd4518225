#include "analysis/ranks/rank_summary.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <regex>

#include "analysis/core/correlation.h"
#include "analysis/core/names.h"
#include "analysis/timeline/timeline.h"
#include "util/intervals.h"

namespace gpuperf::analysis {
namespace {

void AddSteps(const model::Trace& trace, ranks::RankSummary& out) {
  for (const model::Range& r : trace.ranges) {
    if (r.kind == model::RangeKind::kProfilerStep && r.end_ns > r.start_ns)
      out.step_ns.push_back(r.end_ns - r.start_ns);
  }
  if (!out.step_ns.empty()) {
    out.step_source = "ProfilerStep";
    return;
  }
  std::map<model::NameId, std::int64_t> counts;
  for (const model::Range& r : trace.ranges) {
    if (r.kind == model::RangeKind::kNvtx || r.kind == model::RangeKind::kUserAnnotation)
      ++counts[r.name];
  }
  auto best = std::max_element(counts.begin(), counts.end(), [](const auto& a, const auto& b) {
    return a.second < b.second;
  });
  if (best == counts.end() || best->second < 2)
    return;
  for (const model::Range& r : trace.ranges) {
    if (r.name == best->first && r.end_ns > r.start_ns &&
        (r.kind == model::RangeKind::kNvtx || r.kind == model::RangeKind::kUserAnnotation))
      out.step_ns.push_back(r.end_ns - r.start_ns);
  }
  out.step_source = "range " + std::string(trace.Name(best->first));
}

void AddCollectives(const model::Trace& trace,
                    const CorrelationIndex& index,
                    ranks::RankSummary& out) {
  CachedNamePredicate is_comm(trace, IsCommunicationKernel);
  std::vector<const model::GpuActivity*> comm;
  std::vector<util::Interval> compute;
  for (const model::GpuActivity& a : trace.activities) {
    if (a.kind != model::ActivityKind::kKernel)
      continue;
    if (is_comm(a.name))
      comm.push_back(&a);
    else
      compute.push_back({a.start_ns, a.end_ns});
  }
  std::sort(comm.begin(), comm.end(), [](const auto* a, const auto* b) {
    return std::tie(a->start_ns, a->end_ns) < std::tie(b->start_ns, b->end_ns);
  });
  std::vector<util::Interval> merged = util::MergeIntervals(std::move(compute));
  std::map<model::NameId, std::uint32_t> name_index;
  std::int64_t previous_end = merged.empty() ? 0 : merged.front().start;
  for (const model::GpuActivity* a : comm) {
    auto [it, inserted] =
        name_index.try_emplace(a->name, static_cast<std::uint32_t>(out.collective_names.size()));
    if (inserted)
      out.collective_names.emplace_back(trace.Name(a->name));
    ranks::Collective c;
    c.name = it->second;
    c.start_ns = a->start_ns;
    c.end_ns = a->end_ns;
    if (std::int64_t call = index.PrimaryCall(a->correlation, a->pid); call >= 0)
      c.launch_ns = trace.api_calls[static_cast<std::size_t>(call)].start_ns;
    c.compute_before_ns =
        a->start_ns > previous_end ? util::CoveredLength(merged, previous_end, a->start_ns) : 0;
    previous_end = std::max(previous_end, a->end_ns);
    out.collectives.push_back(c);
  }
}

std::optional<std::int64_t> Number(const std::string& text) {
  std::int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    return std::nullopt;
  return value;
}

}  // namespace

ranks::RankSummary SummarizeRank(const model::Trace& trace,
                                 std::optional<std::int64_t> rank_from_name) {
  ranks::RankSummary out;
  out.path = trace.metadata.source_path;
  out.rank = trace.metadata.rank ? trace.metadata.rank : rank_from_name;
  out.world_size = trace.metadata.world_size;
  for (const model::Process& p : trace.processes) {
    if (!p.host.empty()) {
      out.host = p.host;
      break;
    }
  }
  for (const model::Device& d : trace.devices)
    out.devices.push_back(d.name);
  CorrelationIndex index(trace);
  out.timeline = ComputeTimeline(trace, SelectActivities(trace, index, {}));
  AddSteps(trace, out);
  AddCollectives(trace, index, out);
  return out;
}

std::optional<std::int64_t> RankFromFileName(const std::string& path) {
  static const std::regex kPatterns[] = {
      std::regex(R"((?:^|[^a-z])rank[-_]?0*(\d+))", std::regex::icase),
      std::regex(R"((?:^|[^a-z])worker[-_]?(\d+))", std::regex::icase),
      std::regex(R"(\.r(\d+)\.)"),
  };
  std::string name = std::filesystem::path(path).filename().string();
  std::string parent = std::filesystem::path(path).parent_path().filename().string();
  for (const std::string& text : {name, parent}) {
    for (const std::regex& pattern : kPatterns) {
      std::smatch match;
      if (std::regex_search(text, match, pattern))
        return Number(match[1].str().empty() ? "0" : match[1].str());
    }
  }
  return std::nullopt;
}

}  // namespace gpuperf::analysis
