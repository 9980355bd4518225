// Pure pieces of the recorder: statistics, the --repeat auto rule, SHA-256, spool naming.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "record/repeat_policy.h"
#include "spool/spool_writer.h"
#include "util/sha256.h"

using namespace gpuperf;

TEST_CASE("Summarize gives median, p95, min, max and MAD", "[record]") {
  const record::Summary s = record::Summarize({5, 1, 4, 2, 3});
  CHECK(s.count == 5);
  CHECK(s.median == 3);
  CHECK(s.min == 1);
  CHECK(s.max == 5);
  CHECK(s.p95 == Approx(4.8));  // 1 + 0.95 * 4 positions: between 4 and 5
  CHECK(s.mad == 1);            // deviations 2,2,1,1,0 -> median 1
  CHECK(s.mean == 3);
  CHECK(record::Summarize({}).count == 0);
}

TEST_CASE("the median's 95% interval uses binomial order statistics", "[record]") {
  CHECK_FALSE(record::MedianConfidenceInterval({1, 2, 3, 4, 5}).available);  // n = 5: 2/32 > 5%
  const auto six = record::MedianConfidenceInterval({6, 1, 5, 2, 4, 3});
  REQUIRE(six.available);
  CHECK(six.low == 1);
  CHECK(six.high == 6);
  CHECK(six.coverage == Approx(1 - 2.0 / 64));
  // n = 10: P(X <= 1) = 11/1024 <= 2.5%, P(X <= 2) = 56/1024 > 2.5% -> k = 2.
  const auto ten = record::MedianConfidenceInterval({1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  CHECK(ten.low == 2);
  CHECK(ten.high == 9);
  CHECK(ten.coverage == Approx(1 - 2 * 11.0 / 1024));
}

TEST_CASE("Repeat auto stops on precision, run cap or budget", "[record]") {
  record::AutoRepeatOptions options;
  options.target_relative_width = 0.05;
  options.max_runs = 50;
  options.time_budget_s = 100;
  const std::vector<double> tight(6, 1.0);
  CHECK(record::ShouldStopAuto(tight, 1, options) == record::StopReason::kConverged);
  CHECK_FALSE(record::ShouldStopAuto({1.0, 1.0, 1.0}, 1, options).has_value());  // too few
  const std::vector<double> noisy = {1, 2, 1, 2, 1, 2};
  CHECK_FALSE(record::ShouldStopAuto(noisy, 10, options).has_value());
  CHECK(record::ShouldStopAuto(noisy, 100, options) == record::StopReason::kTimeBudget);
  options.max_runs = 6;
  CHECK(record::ShouldStopAuto(noisy, 10, options) == record::StopReason::kMaxRuns);
}

TEST_CASE("SHA-256 matches the FIPS 180-4 test vectors", "[record]") {
  util::Sha256 empty;
  CHECK(empty.FinishHex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  util::Sha256 abc;
  abc.Update("abc");
  CHECK(abc.FinishHex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  util::Sha256 two_blocks;
  two_blocks.Update("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq");
  CHECK(two_blocks.FinishHex() ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  util::Sha256 million;
  const std::string chunk(1000, 'a');
  for (int i = 0; i < 1000; ++i)
    million.Update(chunk);
  CHECK(million.FinishHex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  CHECK_FALSE(util::Sha256File("/nonexistent/file").ok());
}

TEST_CASE("spool files are named by host, pid and rank", "[record]") {
  CHECK(spool::SpoolFileName("node1", 123, -1) == "node1.123.gpuperf");
  CHECK(spool::SpoolFileName("node1", 123, 4) == "node1.123.r4.gpuperf");
  for (const char* name : {"OMPI_COMM_WORLD_RANK",
                           "PMIX_RANK",
                           "PMI_RANK",
                           "SLURM_PROCID",
                           "MV2_COMM_WORLD_RANK",
                           "RANK"}) {
    unsetenv(name);
  }
  CHECK(spool::RankFromEnvironment() == -1);
  setenv("RANK", "9", 1);
  CHECK(spool::RankFromEnvironment() == 9);
  setenv("SLURM_PROCID", "2", 1);  // earlier in the list wins, inside an srun step
  setenv("SLURM_STEP_ID", "0", 1);
  CHECK(spool::RankFromEnvironment() == 2);
  setenv("SLURM_PROCID", "x", 1);  // not a number: skipped
  CHECK(spool::RankFromEnvironment() == 9);
  unsetenv("SLURM_PROCID");
  unsetenv("SLURM_STEP_ID");
  unsetenv("RANK");
}
