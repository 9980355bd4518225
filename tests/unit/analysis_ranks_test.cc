// Cross-rank analysis on hand-built rank summaries, and rank numbers from file names.
#include <catch2/catch.hpp>

#include "analysis/ranks/rank_summary.h"
#include "analysis/ranks/ranks.h"
#include "cli_test_support.h"
#include "io/report/rank_summary_json.h"

namespace gpuperf::analysis {
namespace {

// A rank running `steps` iterations of: compute for `compute_ns`, then one all-reduce that ends
// when the last rank arrives (at `last_arrival` within the iteration) and then takes 100 µs.
ranks::RankSummary Rank(std::int64_t rank, std::int64_t compute_ns, std::int64_t last_arrival) {
  ranks::RankSummary s;
  s.rank = rank;
  s.world_size = 4;
  s.path = "rank" + std::to_string(rank) + ".json";
  s.collective_names = {"ncclKernel_AllReduce"};
  for (int step = 0; step < 3; ++step) {
    std::int64_t base = step * 10'000'000;
    ranks::Collective c;
    c.name = 0;
    c.start_ns = base + compute_ns;
    c.end_ns = base + last_arrival + 100'000;
    c.launch_ns = c.start_ns - 5'000;
    c.compute_before_ns = compute_ns;
    s.collectives.push_back(c);
    s.step_ns.push_back(10'000'000);
  }
  s.step_source = "ProfilerStep";
  return s;
}

}  // namespace

TEST_CASE("ranks: a rank with longer compute is the straggler, the others wait for it", "[ranks]") {
  // Ranks 0-2 compute 1.0-1.02 ms, rank 3 computes 2 ms: every collective ends at 2 ms + 100 µs.
  std::vector<ranks::RankSummary> job = {Rank(2, 1'010'000, 2'000'000),
                                         Rank(0, 1'000'000, 2'000'000),
                                         Rank(3, 2'000'000, 2'000'000),
                                         Rank(1, 1'020'000, 2'000'000)};
  ranks::RanksReport r = AnalyzeRanks(job);
  REQUIRE(r.ranks.size() == 4);
  CHECK(r.ranks[0].rank == 0);  // sorted by rank
  CHECK(r.world_size == 4);
  CHECK(r.aligned_collectives == 3);
  // Rank 0 waits (2.1 ms - 1.0 ms) - 100 µs = 1.0 ms per collective; rank 3 not at all.
  CHECK(r.ranks[0].collective_wait_ns == 3 * 1'000'000);
  CHECK(r.ranks[3].collective_wait_ns == 0);
  CHECK(r.ranks[3].compute_between_ns == 3 * 2'000'000);
  CHECK(r.ranks[3].arrival_lateness_median_ns == 1'000'000.0);
  CHECK(r.ranks[3].launch_skew_median_ns == 1'000'000.0);
  CHECK(r.ranks[0].steps == 3);
  CHECK(r.ranks[0].step_median_ns == 10'000'000.0);
  REQUIRE(r.stragglers.size() == 2);
  CHECK(r.stragglers[0].rank == 3);
  CHECK(r.stragglers[0].kind == "slow");
  CHECK(r.stragglers[1].rank == 3);
  CHECK(r.stragglers[1].kind == "late");
}

TEST_CASE("ranks: balanced ranks name no straggler, two ranks cannot", "[ranks]") {
  std::vector<ranks::RankSummary> job = {Rank(0, 1'000'000, 1'030'000),
                                         Rank(1, 1'010'000, 1'030'000),
                                         Rank(2, 1'020'000, 1'030'000),
                                         Rank(3, 1'030'000, 1'030'000)};
  CHECK(AnalyzeRanks(job).stragglers.empty());
  std::vector<ranks::RankSummary> two = {Rank(0, 1'000'000, 2'000'000),
                                         Rank(1, 2'000'000, 2'000'000)};
  ranks::RanksReport r = AnalyzeRanks(two);
  CHECK(r.stragglers.empty());
  REQUIRE(!r.notes.empty());
  CHECK(r.notes.back().find("of 4 ranks") != std::string::npos);  // a sample of the job
}

TEST_CASE("ranks: mismatched collective counts align over the shortest", "[ranks]") {
  std::vector<ranks::RankSummary> job = {
      Rank(0, 1'000'000, 2'000'000), Rank(1, 1'000'000, 2'000'000), Rank(2, 1'000'000, 2'000'000)};
  job[1].collectives.pop_back();
  ranks::RanksReport r = AnalyzeRanks(job);
  CHECK(r.aligned_collectives == 2);
  bool noted = false;
  for (const auto& n : r.notes)
    noted |= n.find("aligned over the first 2") != std::string::npos;
  CHECK(noted);
}

TEST_CASE("ranks: rank numbers from file names", "[ranks]") {
  CHECK(RankFromFileName("/x/sampled_rank-1.json.gz") == 1);
  CHECK(RankFromFileName("worker7_step_12.1694128201553.pt.trace.json.gz") == 7);
  CHECK(RankFromFileName("node3.4242.r12.json.gz") == 12);
  CHECK(RankFromFileName("job/rank-00042-node7/runs/run-001/node7.1.json.gz") == std::nullopt);
  CHECK(RankFromFileName("job/rank-00042-node7/trace.json") == 42);
  CHECK(RankFromFileName("rank_0.json") == 0);
  CHECK(RankFromFileName("trace.json") == std::nullopt);
  CHECK(RankFromFileName("franky3.json") == std::nullopt);
}

TEST_CASE("ranks: summary.json round trip", "[ranks]") {
  ranks::RankSummary s = Rank(5, 1'000'000, 2'000'000);
  s.host = "node\"7";
  s.clocks = "sm 1980 MHz";
  s.timeline.busy_ns = 123;
  testing::TempDir dir;
  testing::WriteFile(dir / "s.json", io::RankSummaryToJson(s));
  auto back = io::ReadRankSummary(dir / "s.json");
  REQUIRE(back.ok());
  CHECK(back->rank == 5);
  CHECK(back->host == "node\"7");
  CHECK(back->timeline.busy_ns == 123);
  CHECK(back->collectives.size() == 3);
  CHECK(back->collectives[1].launch_ns == s.collectives[1].launch_ns);
  CHECK(back->step_ns == s.step_ns);
  testing::WriteFile(dir / "bad.json", io::RankSummaryToJson(s).substr(0, 100));
  auto bad = io::ReadRankSummary(dir / "bad.json");
  REQUIRE(!bad.ok());
  CHECK(bad.error().message.find("bad.json") != std::string::npos);
}

TEST_CASE("ranks: a summary.json or a trace, content decides", "[ranks]") {
  testing::TempDir dir;
  testing::WriteFile(dir / "rank1.json", io::RankSummaryToJson(Rank(1, 1'000'000, 2'000'000)));
  testing::WriteFile(dir / "trace.json", R"({"traceEvents": []})");
  auto summary = io::ReadRankSummaryOrTracePath(dir / "rank1.json");
  REQUIRE(summary.ok());
  REQUIRE(summary->summary);
  CHECK(summary->summary->rank == 1);
  auto trace = io::ReadRankSummaryOrTracePath(dir / "trace.json");
  REQUIRE(trace.ok());
  CHECK_FALSE(trace->summary);
  CHECK(trace->path == dir / "trace.json");
  auto missing = io::ReadRankSummaryOrTracePath(dir / "none.json");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message.find("none.json") != std::string::npos);
}

}  // namespace gpuperf::analysis
