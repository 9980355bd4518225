#include <catch2/catch.hpp>

#include <limits>
#include <regex>
#include <string>
#include <vector>

#include "report/json_writer.h"
#include "report_fixture.h"

namespace gpuperf::report {
namespace {

using Json = nlohmann::ordered_json;

std::vector<std::string> Keys(const Json& object) {
  std::vector<std::string> keys;
  for (auto it = object.begin(); it != object.end(); ++it)
    keys.push_back(it.key());
  return keys;
}

TEST_CASE("report.json has the documented top-level keys in order") {
  Json json = ToJson(testing::SampleReport(), {"gpuperf", "9.9.9"});
  CHECK(Keys(json) == std::vector<std::string>{"schema_version",
                                               "tool",
                                               "source",
                                               "evidence",
                                               "headline",
                                               "diagnosis",
                                               "initialization",
                                               "phase_verdicts",
                                               "notes",
                                               "timeline",
                                               "timeline_tracelens",
                                               "orphan_activities",
                                               "devices",
                                               "kernels",
                                               "unclassified_kernels",
                                               "ceilings",
                                               "counters_join",
                                               "memory_ops",
                                               "api",
                                               "launch",
                                               "audit",
                                               "ranges",
                                               "framework",
                                               "operators",
                                               "categories",
                                               "modules",
                                               "module_tree",
                                               "steps",
                                               "step_summary",
                                               "findings",
                                               "predictions",
                                               "diagnostics",
                                               "diagnostic_notes"});
  CHECK(json["schema_version"] == kReportSchemaVersion);
  CHECK(json["tool"]["name"] == "gpuperf");
  CHECK(json["tool"]["version"] == "9.9.9");
  CHECK(json["source"]["path"] == "/data/run/trace.json");
  CHECK(json["source"]["rank"] == 0);
  CHECK(json["source"]["world_size"] == 8);
}

TEST_CASE("report.json timeline keys are the CI contract") {
  Json json = ToJson(testing::SampleReport());
  const std::vector<std::string> expected = {"total_ns",
                                             "busy_ns",
                                             "idle_ns",
                                             "computation_ns",
                                             "communication_ns",
                                             "memcpy_ns",
                                             "memset_ns",
                                             "exposed_communication_ns",
                                             "exposed_memcpy_ns",
                                             "first_start_ns",
                                             "last_end_ns",
                                             "activities"};
  CHECK(Keys(json["timeline"]) == expected);
  CHECK(json["timeline"]["busy_ns"] == 3'000'000);
  CHECK(json["timeline"]["exposed_memcpy_ns"] == 50'000);
  CHECK(Keys(json["timeline_tracelens"]) == expected);
  CHECK(json["timeline_tracelens"]["busy_ns"] == 2'000'000);
  CHECK(json["orphan_activities"] == 5);
  std::vector<std::string> device_keys = {"device", "name"};
  device_keys.insert(device_keys.end(), expected.begin(), expected.end());
  CHECK(Keys(json["devices"][0]) == device_keys);
}

TEST_CASE("report.json kernels are sorted by total time and carry every statistic") {
  Json kernels = ToJson(testing::SampleReport())["kernels"];
  REQUIRE(kernels.size() == 2);
  CHECK(kernels[0]["name"] == "gemm_kernel");
  CHECK(kernels[1]["name"] == testing::kHostileName);  // full, unescaped name in JSON
  CHECK(Keys(kernels[0]) == std::vector<std::string>{"name",
                                                     "instances",
                                                     "total_ns",
                                                     "avg_ns",
                                                     "med_ns",
                                                     "min_ns",
                                                     "max_ns",
                                                     "stddev_ns",
                                                     "time_percent",
                                                     "wall_percent",
                                                     "grid",
                                                     "block",
                                                     "short_instances",
                                                     "graph_instances",
                                                     "top_operator",
                                                     "category",
                                                     "classification"});
  CHECK(kernels[0]["instances"] == 10);
  CHECK(kernels[0]["total_ns"] == 1'500'000);
  CHECK(kernels[0]["med_ns"] == 149'000.5);
  CHECK(kernels[0]["stddev_ns"] == 0.333);  // rounded to 3 decimals
  CHECK(kernels[0]["grid"] == "[128,1,1]");
}

TEST_CASE("report.json never holds NaN or infinity") {
  AnalysisReport report = testing::SampleReport();
  report.kernels[0].duration_ns.avg = std::numeric_limits<double>::quiet_NaN();
  report.kernels[0].time_percent = std::numeric_limits<double>::infinity();
  report.launch.api_to_kernel_ratio = -std::numeric_limits<double>::infinity();
  std::string text = DumpJson(ToJson(report));
  // As a value, not inside a word ("dominant", "inferred").
  std::regex non_finite(R"([:\[,]\s*-?(nan|NaN|inf|Infinity)\b)");
  CHECK_FALSE(std::regex_search(text, non_finite));
  Json parsed = Json::parse(text);
  CHECK(parsed["kernels"][1]["avg_ns"].is_null());
  CHECK(parsed["launch"]["api_to_kernel_ratio"].is_null());
}

TEST_CASE("report.json marks unrecorded values as null") {
  AnalysisReport report = testing::SampleReport();
  report.source.rank.reset();
  Json json = ToJson(report);
  CHECK(json["audit"]["peak_allocated_bytes"].is_null());
  CHECK(json["source"]["rank"].is_null());
  report.audit.peak_allocated_bytes = 1 << 30;
  CHECK(ToJson(report)["audit"]["peak_allocated_bytes"] == 1 << 30);
}

TEST_CASE("report.json names the evidence of every numeric section") {
  Json json = ToJson(testing::SampleReport());
  for (auto it = json["evidence"].begin(); it != json["evidence"].end(); ++it) {
    CHECK(json.contains(it.key()));
  }
  for (const char* section : {"timeline",
                              "devices",
                              "kernels",
                              "memory_ops",
                              "api",
                              "launch",
                              "audit",
                              "ranges",
                              "diagnostics"}) {
    CHECK(json["evidence"][section] == kEvidenceTrace);
  }
  CHECK(json["evidence"]["findings"] == "per_finding");
  CHECK(json["findings"][0]["source"] == "trace");
}

TEST_CASE("report.json findings keep columns, rows and the omitted count") {
  Json finding = ToJson(testing::SampleReport())["findings"][0];
  CHECK(finding["id"] == "sync_memcpy");
  CHECK(finding["columns"] == Json::array({"time", "operation"}));
  CHECK(finding["rows"].size() == 4);
  CHECK(finding["rows"][1] == Json::array({"1000", testing::kLinkName}));
  CHECK(finding["rows_omitted"] == 6);
}

TEST_CASE("DumpJson survives invalid UTF-8 in a trace name") {
  AnalysisReport report = testing::SampleReport();
  report.kernels[0].name = std::string(
      "bad\xff"
      "name");
  std::string text = DumpJson(ToJson(report));
  CHECK(text.find("bad\xEF\xBF\xBDname") != std::string::npos);
  CHECK(text.back() == '\n');
}

TEST_CASE("report.json of an empty report is complete") {
  Json json = ToJson(AnalysisReport{});
  CHECK(json["kernels"].is_array());
  CHECK(json["kernels"].empty());
  CHECK(json["timeline"]["total_ns"] == 0);
  CHECK(json["launch"]["api"]["avg_ns"] == 0.0);
  CHECK(json["launch"]["total"]["count"] == 0);
}

}  // namespace
}  // namespace gpuperf::report
