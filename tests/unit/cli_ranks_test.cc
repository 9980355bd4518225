// `gpuperf ranks` on real multi-rank jobs from the corpus.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "cli_test_support.h"
#include "corpus.h"

namespace gpuperf::testing {

TEST_CASE("ranks: the 8 ranks of the DLRM job", "[ranks][cli]") {
  auto dir = CorpusFile("kineto/param/dlrm_8ranks");
  if (!dir)
    return;
  TempDir out;
  RunResult r = RunGpuperf({"ranks", *dir, "--out", out.path().string(), "--jobs", "2"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  auto j = nlohmann::json::parse(ReadFile(out / "ranks.json"));
  CHECK(j["world_size"] == 8);
  REQUIRE(j["ranks"].size() == 8);
  for (int i = 0; i < 8; ++i) {
    CHECK(j["ranks"][i]["rank"] == i);
    CHECK(j["ranks"][i]["steps"] == 1);
    CHECK(j["ranks"][i]["collectives"].get<int>() > 0);
  }
  CHECK(j["aligned_collectives"].get<int>() > 0);
  CHECK(j["errors"].empty());
  CHECK(ReadFile(out / "ranks.md").find("| 7 |") != std::string::npos);
}

TEST_CASE("ranks: a corrupt rank file is reported and the others analysed", "[ranks][cli]") {
  auto dir = CorpusFile("kineto/param/dlrm_8ranks");
  if (!dir)
    return;
  TempDir job;
  for (const auto& entry : std::filesystem::directory_iterator(*dir))
    std::filesystem::copy_file(entry.path(), job.path() / entry.path().filename());
  std::string data = ReadFile(job.path() / "worker3_step_12.1694128201557.pt.trace.json.gz");
  std::filesystem::remove(job.path() / "worker3_step_12.1694128201557.pt.trace.json.gz");
  WriteFile(job.path() / "worker3_truncated.json.gz", data.substr(0, data.size() / 2));
  TempDir out;
  RunResult r = RunGpuperf({"ranks", job.path().string(), "--out", out.path().string()});
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("worker3_truncated.json.gz") != std::string::npos);
  auto j = nlohmann::json::parse(ReadFile(out / "ranks.json"));
  CHECK(j["ranks"].size() == 7);
  REQUIRE(j["errors"].size() == 1);
  CHECK(j["errors"][0]["path"].get<std::string>().find("worker3_truncated") != std::string::npos);
}

TEST_CASE("ranks: summaries from analyze --summary merge like the traces", "[ranks][cli]") {
  auto dir = CorpusFile("kineto/hta/trace_filter");
  if (!dir)
    return;
  TempDir work;
  std::vector<std::string> summaries;
  for (const char* rank : {"0", "1"}) {
    std::string trace = *dir + "/sampled_rank-" + rank + ".json.gz";
    std::string out = work / (std::string("a") + rank);
    REQUIRE(
        RunGpuperf({"analyze", trace, "--summary", "--format", "json", "--out", out}).exit_code ==
        0);
    summaries.push_back(out + "/summary.json");
  }
  TempDir from_traces, from_summaries;
  REQUIRE(RunGpuperf({"ranks", *dir, "--out", from_traces.path().string()}).exit_code == 0);
  REQUIRE(RunGpuperf({"ranks", summaries[0], summaries[1], "--out", from_summaries.path().string()})
              .exit_code == 0);
  auto a = nlohmann::json::parse(ReadFile(from_traces / "ranks.json"));
  auto b = nlohmann::json::parse(ReadFile(from_summaries / "ranks.json"));
  CHECK(a["world_size"] == 128);
  REQUIRE(a["ranks"].size() == 2);
  CHECK(a["ranks"][1]["rank"] == 1);
  for (auto* j : {&a, &b}) {
    for (auto& row : (*j)["ranks"])
      row.erase("path");
  }
  CHECK(a["ranks"] == b["ranks"]);
  CHECK(a["stragglers"] == b["stragglers"]);
}

TEST_CASE("ranks: nothing readable is an error", "[ranks][cli]") {
  TempDir dir;
  WriteFile(dir / "junk.json", "not json");
  RunResult r = RunGpuperf({"ranks", dir / "junk.json", "--out", dir / "out"});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("junk.json") != std::string::npos);
}

}  // namespace gpuperf::testing
