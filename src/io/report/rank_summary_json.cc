#include "io/report/rank_summary_json.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <utility>

#include "util/byte_source.h"
#include "util/json_text.h"

namespace gpuperf::io {
namespace {

using Json = nlohmann::ordered_json;
constexpr const char* kKind = "gpuperf-rank-summary";
// A summary is a few KiB per rank and a few levels deep; anything beyond is not one of ours.
constexpr std::size_t kMaxSummaryBytes = std::size_t{64} << 20;
constexpr std::size_t kMaxSummaryDepth = 64;

Json TimelineJson(const report::Timeline& t) {
  return Json{{"total_ns", t.total_ns},
              {"busy_ns", t.busy_ns},
              {"idle_ns", t.idle_ns},
              {"computation_ns", t.computation_ns},
              {"communication_ns", t.communication_ns},
              {"memcpy_ns", t.memcpy_ns},
              {"memset_ns", t.memset_ns},
              {"exposed_communication_ns", t.exposed_communication_ns},
              {"exposed_memcpy_ns", t.exposed_memcpy_ns}};
}

report::Timeline TimelineOf(const nlohmann::json& j) {
  report::Timeline t;
  t.total_ns = j.at("total_ns").get<std::int64_t>();
  t.busy_ns = j.at("busy_ns").get<std::int64_t>();
  t.idle_ns = j.at("idle_ns").get<std::int64_t>();
  t.computation_ns = j.at("computation_ns").get<std::int64_t>();
  t.communication_ns = j.at("communication_ns").get<std::int64_t>();
  t.memcpy_ns = j.at("memcpy_ns").get<std::int64_t>();
  t.memset_ns = j.at("memset_ns").get<std::int64_t>();
  t.exposed_communication_ns = j.at("exposed_communication_ns").get<std::int64_t>();
  t.exposed_memcpy_ns = j.at("exposed_memcpy_ns").get<std::int64_t>();
  return t;
}

template <class T>
Json Optional(const std::optional<T>& v) {
  return v ? Json(*v) : Json(nullptr);
}

}  // namespace

std::string RankSummaryToJson(const ranks::RankSummary& s) {
  Json collectives = Json::array();
  for (const ranks::Collective& c : s.collectives)
    collectives.push_back(
        Json::array({c.name, c.start_ns, c.end_ns, c.launch_ns, c.compute_before_ns}));
  Json j{{"kind", kKind},
         {"schema_version", ranks::kSummarySchemaVersion},
         {"path", s.path},
         {"rank", Optional(s.rank)},
         {"world_size", Optional(s.world_size)},
         {"host", s.host},
         {"devices", s.devices},
         {"step_source", s.step_source},
         {"step_ns", s.step_ns},
         {"timeline", TimelineJson(s.timeline)},
         {"collective_names", s.collective_names},
         {"collectives_columns", {"name", "start_ns", "end_ns", "launch_ns", "compute_before_ns"}},
         {"collectives", std::move(collectives)},
         {"clocks", s.clocks}};
  return j.dump(1) + "\n";
}

bool LooksLikeRankSummary(std::string_view head) {
  return head.find(std::string("\"") + kKind + "\"") != std::string_view::npos;
}

Result<ranks::RankSummary> ReadRankSummary(const std::string& path) {
  auto text = util::ReadFileText(path, kMaxSummaryBytes);
  if (!text.ok())
    return text.error();
  return ParseRankSummary(*text, path);
}

Result<ranks::RankSummary> ParseRankSummary(std::string_view text, const std::string& path) {
  if (util::json_text::JsonNestingDeeperThan(text, kMaxSummaryDepth))
    return Error{fmt::format(
        "{}: not a gpuperf rank summary (nested deeper than {} levels)", path, kMaxSummaryDepth)};
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || j.value("kind", "") != kKind)
    return Error{fmt::format("{}: not a gpuperf rank summary (truncated or corrupt?)", path)};
  if (j.value("schema_version", "").rfind("1.", 0) != 0)
    return Error{
        fmt::format("{}: rank summary schema {} is not supported (this gpuperf reads "
                    "1.x)",
                    path,
                    j.value("schema_version", "?"))};
  try {
    ranks::RankSummary s;
    s.path = j.at("path").get<std::string>();
    if (!j.at("rank").is_null())
      s.rank = j.at("rank").get<std::int64_t>();
    if (!j.at("world_size").is_null())
      s.world_size = j.at("world_size").get<std::int64_t>();
    s.host = j.at("host").get<std::string>();
    s.devices = j.at("devices").get<std::vector<std::string>>();
    s.step_source = j.at("step_source").get<std::string>();
    s.step_ns = j.at("step_ns").get<std::vector<std::int64_t>>();
    s.timeline = TimelineOf(j.at("timeline"));
    s.collective_names = j.at("collective_names").get<std::vector<std::string>>();
    for (const auto& c : j.at("collectives")) {
      ranks::Collective collective{c.at(0).get<std::uint32_t>(),
                                   c.at(1).get<std::int64_t>(),
                                   c.at(2).get<std::int64_t>(),
                                   c.at(3).get<std::int64_t>(),
                                   c.at(4).get<std::int64_t>()};
      if (collective.name >= s.collective_names.size())
        return Error{
            fmt::format("{}: collective name index {} out of range", path, collective.name)};
      s.collectives.push_back(collective);
    }
    s.clocks = j.value("clocks", "");
    return s;
  } catch (const nlohmann::json::exception& e) {
    return Error{fmt::format("{}: malformed rank summary: {}", path, e.what())};
  }
}

Result<RankSummaryOrTrace> ReadRankSummaryOrTracePath(const std::string& path) {
  RankSummaryOrTrace out{path, std::nullopt};
  auto head = util::ReadFileHead(path, 4096);
  if (!head.ok())
    return head.error();
  if (!LooksLikeRankSummary(*head))
    return out;
  auto summary = ReadRankSummary(path);
  if (!summary.ok())
    return summary.error();
  out.summary = std::move(summary.value());
  return out;
}

}  // namespace gpuperf::io
