// `gpuperf compare` and `gpuperf predict` end to end on real pairs from the corpus.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli_test_support.h"
#include "corpus.h"

namespace gpuperf::testing {
namespace {

nlohmann::json ReadJson(const std::string& path) {
  return nlohmann::json::parse(ReadFile(path));
}

}  // namespace

TEST_CASE("compare: a trace against itself is the same and exits 0", "[compare][cli]") {
  auto trace =
      CorpusFile("kineto/tracelens/h100/google_owlv2-large-patch14-ensemble__1016001.json.gz");
  if (!trace)
    return;
  TempDir out;
  RunResult r = RunGpuperf({"compare", *trace, *trace, "--out", out.path().string()});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  nlohmann::json j = ReadJson(out / "compare.json");
  CHECK(j["verdict"] == "same");
  CHECK(j["schema_version"] == "1.3.0");
  CHECK(j["end_to_end"].contains("relative_change"));
  CHECK(j["end_to_end"].contains("ci_too_wide"));
  CHECK(j["environment_differences"].empty());
  CHECK(ReadFile(out / "compare.md").rfind("**gpuperf compare: SAME**", 0) == 0);
}

TEST_CASE("compare: trace_diff control (A100) vs test (V100) is incomparable", "[compare][cli]") {
  auto control = CorpusFile("kineto/hta/trace_diff/control/control.json.gz");
  auto test = CorpusFile("kineto/hta/trace_diff/test/test.json.gz");
  if (!control || !test)
    return;
  TempDir out;
  RunResult r = RunGpuperf({"compare", *control, *test, "--out", out.path().string()});
  CHECK(r.exit_code == 5);
  nlohmann::json j = ReadJson(out / "compare.json");
  CHECK(j["verdict"] == "incomparable");
  CHECK(j["environment_differences"][0]["field"] == "gpus");
  // Allowed: 6 ProfilerStep iterations per side, the test side is ~49% slower: a regression.
  TempDir out2;
  RunResult allowed = RunGpuperf(
      {"compare", *control, *test, "--allow-different-env", "--out", out2.path().string()});
  CHECK(allowed.exit_code == 3);
  nlohmann::json k = ReadJson(out2 / "compare.json");
  CHECK(k["verdict"] == "slower");
  CHECK(k["verdict_basis"] == "end_to_end");
  CHECK(k["end_to_end"]["n_before"] == 6);
  // --fail-on without slower: the regression is reported but does not fail.
  TempDir out3;
  RunResult lenient = RunGpuperf({"compare",
                                  *control,
                                  *test,
                                  "--allow-different-env",
                                  "--fail-on",
                                  "inconclusive",
                                  "--out",
                                  out3.path().string()});
  CHECK(lenient.exit_code == 0);
}

TEST_CASE("compare: two different models on the same H100 are incomparable", "[compare][cli]") {
  auto owl =
      CorpusFile("kineto/tracelens/h100/google_owlv2-large-patch14-ensemble__1016001.json.gz");
  auto qwen = CorpusFile("kineto/tracelens/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz");
  if (!owl || !qwen)
    return;
  TempDir out;
  RunResult r = RunGpuperf({"compare", *owl, *qwen, "--out", out.path().string()});
  CHECK(r.exit_code == 5);
  nlohmann::json j = ReadJson(out / "compare.json");
  CHECK(j["verdict"] == "incomparable");
  CHECK(j["workload_overlap"].get<double>() < 0.5);
}

TEST_CASE("compare: trace_compare base vs test has too few samples", "[compare][cli]") {
  auto base = CorpusFile("kineto/hta/trace_compare/base/base.json.gz");
  auto test = CorpusFile("kineto/hta/trace_compare/test/test.json.gz");
  if (!base || !test)
    return;
  TempDir out;
  RunResult r = RunGpuperf({"compare", *base, *test, "--out", out.path().string()});
  CHECK(r.exit_code == 0);  // inconclusive passes unless --fail-on has it
  TempDir out2;
  RunResult strict = RunGpuperf(
      {"compare", *base, *test, "--fail-on", "slower,inconclusive", "--out", out2.path().string()});
  CHECK(strict.exit_code == 4);
  CHECK(ReadJson(out2 / "compare.json")["verdict"] == "inconclusive");
}

TEST_CASE("compare: reports, bad input and usage errors", "[compare][cli]") {
  auto trace = CorpusFile("kineto/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz");
  if (!trace)
    return;
  TempDir dir;
  REQUIRE(
      RunGpuperf({"analyze", *trace, "--out", dir.path().string(), "--format", "json"}).exit_code ==
      0);
  TempDir out;
  RunResult r = RunGpuperf(
      {"compare", dir / "report.json", dir / "report.json", "--out", out.path().string()});
  CHECK(r.exit_code == 0);
  CHECK(ReadJson(out / "compare.json")["before"]["kind"] == "report");
  WriteFile(dir / "broken.json",
            "{\"schema_version\": \"1.1.0\", \"tool\": {\"name\": \"gpuperf\"");
  RunResult broken = RunGpuperf(
      {"compare", dir / "broken.json", dir / "report.json", "--out", out.path().string()});
  CHECK(broken.exit_code == 1);
  CHECK(broken.err.find("broken.json") != std::string::npos);
  RunResult usage = RunGpuperf({"compare", *trace, *trace, "--threshold", "abc"});
  CHECK(usage.exit_code == 2);
}

TEST_CASE("predict: prints f, the bound and the time saved", "[predict][cli]") {
  auto trace =
      CorpusFile("kineto/tracelens/h100/google_owlv2-large-patch14-ensemble__1016001.json.gz");
  if (!trace)
    return;
  RunResult r = RunGpuperf(
      {"predict", *trace, "--kernel", "SoftMax", "--speedup", "1.12", "--format", "json"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  nlohmann::json j = nlohmann::json::parse(r.out);
  double f = j["fraction"];
  CHECK(f > 0.1);
  CHECK(f < 0.5);
  CHECK(j["local_speedup"] == 1.12);
  CHECK_THAT(j["bound_speedup"].get<double>(),
             Catch::Matchers::WithinAbs(1.0 / ((1 - f) + f / 1.12), 1e-5));
  // The gain the text prints as a percent is in the JSON too.
  CHECK_THAT(j["bound_speedup_percent"].get<double>(),
             Catch::Matchers::WithinAbs(100.0 * (j["bound_speedup"].get<double>() - 1.0), 1e-3));
  CHECK(j["time_saved_ns"].get<std::int64_t>() > 0);
  // The same figure read back from report.json.
  TempDir dir;
  REQUIRE(
      RunGpuperf({"analyze", *trace, "--out", dir.path().string(), "--format", "json"}).exit_code ==
      0);
  RunResult from_report = RunGpuperf({"predict",
                                      dir / "report.json",
                                      "--kernel",
                                      "SoftMax",
                                      "--speedup",
                                      "1.12",
                                      "--format",
                                      "json"});
  REQUIRE(from_report.exit_code == 0);
  CHECK(nlohmann::json::parse(from_report.out)["fraction"] == j["fraction"]);
  CHECK(RunGpuperf({"predict", *trace, "--kernel", "no_such_kernel", "--speedup", "2"}).exit_code ==
        1);
  CHECK(RunGpuperf({"predict", *trace, "--kernel", "(", "--speedup", "2"}).exit_code == 2);
}

}  // namespace gpuperf::testing

namespace gpuperf::testing {

// (No ';' in test names: CTest cuts the name there and runs nothing.)
TEST_CASE("compare: 2021 ProfilerStep operators are steps, and too few of them give null, not 0",
          "[compare][cli]") {
  auto feb = CorpusFile("kineto/pytorch-kineto/2021-02/worker0.pt.trace.json.gz");
  auto jun = CorpusFile("kineto/pytorch-kineto/2021-06/worker0.1623212756351.pt.trace.json.gz");
  if (!feb || !jun)
    return;
  TempDir out;
  RunResult r =
      RunGpuperf({"compare", *feb, *jun, "--allow-different-env", "--out", out.path().string()});
  INFO(r.err);
  nlohmann::json e2e = ReadJson(out / "compare.json")["end_to_end"];
  // ProfilerStep#5..#10 with cat "Operator": six steps a side, enough for a verdict.
  CHECK(e2e["n_before"] == 6);
  CHECK(e2e["n_after"] == 6);
  CHECK(e2e["ratio"].is_number());
  CHECK(e2e["ci_low"].is_number());
  CHECK(e2e["ci_high"].is_number());
  // Below --min-repeats: inconclusive, and null where there is no estimate, never 0.
  TempDir few;
  r = RunGpuperf({"compare",
                  *feb,
                  *jun,
                  "--allow-different-env",
                  "--min-repeats",
                  "7",
                  "--out",
                  few.path().string()});
  INFO(r.err);
  e2e = ReadJson(few / "compare.json")["end_to_end"];
  CHECK(e2e["n_before"] == 6);
  CHECK(e2e["verdict"] == "inconclusive");
  CHECK(e2e["ratio"].is_null());
  CHECK(e2e["ci_low"].is_null());
  CHECK(e2e["ci_high"].is_null());
  CHECK(e2e["p_value"].is_null());
}

TEST_CASE("compare: report inputs give a ratio of medians and never call a 0 ns kernel faster",
          "[compare][cli]") {
  auto control = CorpusFile("kineto/hta/trace_diff/control/control.json.gz");
  auto test = CorpusFile("kineto/hta/trace_diff/test/test.json.gz");
  if (!control || !test)
    return;
  TempDir a, b, out;
  REQUIRE(
      RunGpuperf({"analyze", *control, "--format", "json", "--out", a.path().string()}).exit_code ==
      0);
  REQUIRE(
      RunGpuperf({"analyze", *test, "--format", "json", "--out", b.path().string()}).exit_code ==
      0);
  RunResult r = RunGpuperf({"compare",
                            a / "report.json",
                            b / "report.json",
                            "--allow-different-env",
                            "--out",
                            out.path().string()});
  INFO(r.err);
  nlohmann::json j = ReadJson(out / "compare.json");
  CHECK(j["end_to_end"]["ratio"].is_null());  // a report keeps no end-to-end samples
  REQUIRE(!j["kernels"].empty());
  int checked = 0;
  for (const auto& k : j["kernels"]) {
    const double before = k["median_before"], after = k["median_after"];
    if (before > 0 && after > 0) {
      REQUIRE(k["ratio"].is_number());
      CHECK(k["ratio"].get<double>() == Approx(after / before).epsilon(1e-5));
      CHECK(k.contains("mean_ratio"));
      ++checked;
    }
    if (before == 0 || after == 0) {
      CHECK(k["verdict"] != "faster");
      CHECK(k["verdict"] != "slower");
    }
  }
  CHECK(checked > 0);
  // The terminal gets plain text: no Markdown emphasis.
  CHECK(r.out.find("**") == std::string::npos);
}

}  // namespace gpuperf::testing
