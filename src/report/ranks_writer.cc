#include "report/ranks_writer.h"

#include <fmt/format.h>

#include "report/json_predictions.h"
#include "report/markdown_escape.h"
#include "report/markdown_table.h"
#include "util/units_format.h"

namespace gpuperf::report {
namespace {

using Json = nlohmann::ordered_json;

std::string Ns(double ns) {
  return util::FormatDuration(ns);
}

}  // namespace

Json RanksToJson(const ranks::RanksReport& r, const ToolInfo& tool) {
  Json json;
  json["schema_version"] = ranks::kRanksSchemaVersion;
  json["tool"] = Json{{"name", tool.name}, {"version", tool.version}};
  json["world_size"] = r.world_size;
  json["aligned_collectives"] = r.aligned_collectives;
  json["method"] = r.method;
  Json rows = Json::array();
  for (const ranks::RankRow& row : r.ranks) {
    const report::Timeline& t = row.timeline;
    rows.push_back(
        Json{{"rank", row.rank},
             {"path", row.path},
             {"host", row.host},
             {"steps", row.steps},
             {"step_median_ns", RoundedNumber(row.step_median_ns, 1)},
             {"total_ns", t.total_ns},
             {"busy_ns", t.busy_ns},
             {"idle_ns", t.idle_ns},
             {"computation_ns", t.computation_ns},
             {"communication_ns", t.communication_ns},
             {"exposed_communication_ns", t.exposed_communication_ns},
             {"collectives", row.collectives},
             {"collective_ns", row.collective_ns},
             {"collective_wait_ns", row.collective_wait_ns},
             {"wait_share", RoundedNumber(row.wait_share, 6)},
             {"overlap_share", RoundedNumber(row.overlap_share, 6)},
             {"compute_between_collectives_ns", row.compute_between_ns},
             {"arrival_lateness_median_ns", RoundedNumber(row.arrival_lateness_median_ns, 1)},
             {"launch_skew_median_ns", RoundedNumber(row.launch_skew_median_ns, 1)},
             {"clocks", row.clocks}});
  }
  json["ranks"] = std::move(rows);
  Json stragglers = Json::array();
  for (const ranks::Straggler& s : r.stragglers)
    stragglers.push_back(Json{{"rank", s.rank},
                              {"kind", s.kind},
                              {"reason", s.reason},
                              {"value", RoundedNumber(s.value, 1)},
                              {"median", RoundedNumber(s.median, 1)}});
  json["stragglers"] = std::move(stragglers);
  Json errors = Json::array();
  for (const ranks::FileError& e : r.errors)
    errors.push_back(Json{{"path", e.path}, {"error", e.error}});
  json["errors"] = std::move(errors);
  json["notes"] = r.notes;
  return json;
}

std::string RanksToMarkdown(const ranks::RanksReport& r, const ToolInfo& tool) {
  std::string out = fmt::format("# gpuperf ranks: {} rank(s){}\n\n",
                                r.ranks.size(),
                                r.world_size > 0 ? fmt::format(" of {}", r.world_size) : "");
  if (r.stragglers.empty()) {
    out += "No straggler by the rule below.\n\n";
  } else {
    out += "Stragglers:\n\n";
    for (const ranks::Straggler& s : r.stragglers)
      out += fmt::format("- **rank {}** ({}): {}\n", s.rank, s.kind, EscapeMarkdown(s.reason));
    out += "\n";
  }
  MarkdownTable t({{"rank", Align::kRight},
                   {"host"},
                   {"steps", Align::kRight},
                   {"step median", Align::kRight},
                   {"compute", Align::kRight},
                   {"communication", Align::kRight},
                   {"exposed comm", Align::kRight},
                   {"idle", Align::kRight},
                   {"collective wait", Align::kRight},
                   {"wait share", Align::kRight},
                   {"compute between coll.", Align::kRight},
                   {"arrival lateness", Align::kRight},
                   {"launch skew", Align::kRight},
                   {"clocks"}});
  for (const ranks::RankRow& row : r.ranks) {
    const report::Timeline& tl = row.timeline;
    t.AddRow({row.rank >= 0 ? std::to_string(row.rank) : "?",
              Shorten(row.host, 40),
              util::FormatCount(row.steps),
              row.steps > 0 ? Ns(row.step_median_ns) : "—",
              Ns(static_cast<double>(tl.computation_ns)),
              Ns(static_cast<double>(tl.communication_ns)),
              Ns(static_cast<double>(tl.exposed_communication_ns)),
              Ns(static_cast<double>(tl.idle_ns)),
              Ns(static_cast<double>(row.collective_wait_ns)),
              util::FormatPercent(100.0 * row.wait_share),
              Ns(static_cast<double>(row.compute_between_ns)),
              Ns(row.arrival_lateness_median_ns),
              Ns(row.launch_skew_median_ns),
              row.clocks.empty() ? "not recorded" : Shorten(row.clocks, 80)});
  }
  out += t.Render() + "\n";
  out += fmt::format("{} collectives aligned across the ranks. ", r.aligned_collectives);
  out += EscapeMarkdown(r.method) + "\n\n";
  if (!r.errors.empty()) {
    out += "Files that could not be read (the other ranks are analysed):\n\n";
    for (const auto& e : r.errors)
      out += "- " + EscapeMarkdown(e.error) + "\n";
    out += "\n";
  }
  if (!r.notes.empty()) {
    out += "Notes:\n\n";
    for (const auto& n : r.notes)
      out += "- " + EscapeMarkdown(n) + "\n";
    out += "\n";
  }
  out += fmt::format("Written by {}{} (ranks schema {}).\n",
                     EscapeMarkdown(tool.name),
                     tool.version.empty() ? "" : " " + EscapeMarkdown(tool.version),
                     ranks::kRanksSchemaVersion);
  return out;
}

}  // namespace gpuperf::report
