// The first five minutes (issue 16): the mistakes a newcomer makes get an error that names the
// fix, the documented option spellings work, and the terminal output fits the terminal.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>

#include "cli_test_support.h"
#include "corpus.h"

namespace gpuperf::testing {
namespace {

namespace fs = std::filesystem;

constexpr const char* kBert = "kineto/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz";

std::size_t CodePoints(const std::string& line) {
  std::size_t n = 0;
  for (unsigned char c : line)
    n += (c & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

std::size_t LongestLine(const std::string& text) {
  std::istringstream in(text);
  std::size_t longest = 0;
  for (std::string line; std::getline(in, line);)
    longest = std::max(longest, CodePoints(line));
  return longest;
}

}  // namespace

TEST_CASE("binary reports of nsys and ncu get the export command", "[cli][first_use]") {
  TempDir dir;
  // As a report starts: a magic number, then binary records (zero bytes included).
  std::string binary(4096, '\0');
  for (std::size_t i = 0; i < binary.size(); ++i)
    binary[i] = static_cast<char>((i * 131 + 7) % 256);
  WriteFile(dir / "profile.nsys-rep", binary);
  WriteFile(dir / "profile.ncu-rep", binary);
  RunResult nsys = RunGpuperf({"analyze", dir / "profile.nsys-rep"});
  CHECK(nsys.exit_code == 1);
  CHECK_THAT(nsys.err, Catch::Contains("nsys export --type sqlite"));
  RunResult ncu = RunGpuperf({"analyze", dir / "profile.ncu-rep"});
  CHECK(ncu.exit_code == 1);
  CHECK_THAT(ncu.err, Catch::Contains("ncu --import"));
  CHECK_THAT(ncu.err, Catch::Contains("--csv"));
  CHECK(ncu.ErrLines().size() == 1);
}

TEST_CASE("an nsys stats CSV is named as such, with the export to use", "[cli][first_use]") {
  auto csv = CorpusFile("nsys/llm-perf-opt-stats-csv/summary_cuda_gpu_kern_sum.csv");
  if (!csv)
    return;
  RunResult r = RunGpuperf({"analyze", *csv});
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err, Catch::Contains("nsys stats"));
  CHECK_THAT(r.err, Catch::Contains("nsys export --type sqlite"));
}

TEST_CASE("a directory points at gpuperf ranks", "[cli][first_use]") {
  TempDir dir;
  RunResult r = RunGpuperf({"analyze", dir.path().string()});
  CHECK(r.exit_code == 1);
  CHECK_THAT(r.err, Catch::Contains("is a directory"));
  CHECK_THAT(r.err, Catch::Contains("gpuperf ranks " + dir.path().string()));
}

TEST_CASE("misspelt commands and options get a did-you-mean", "[cli][first_use]") {
  RunResult analyse = RunGpuperf({"analyse", "trace.json"});
  CHECK(analyse.exit_code == 2);
  CHECK_THAT(analyse.err, Catch::Contains("did you mean 'gpuperf analyze'"));
  RunResult option = RunGpuperf({"analyze", "trace.json", "--otu", "x"});
  CHECK(option.exit_code == 2);
  CHECK_THAT(option.err, Catch::Contains("unknown option --otu"));
  CHECK_THAT(option.err, Catch::Contains("did you mean --out"));
  RunResult far = RunGpuperf({"analyze", "trace.json", "--zzzzzz"});
  CHECK(far.exit_code == 2);
  CHECK_THAT(far.err, !Catch::Contains("did you mean"));
}

TEST_CASE("gpuperf help COMMAND prints that command's help", "[cli][first_use]") {
  RunResult r = RunGpuperf({"help", "analyze"});
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("Examples:"));
  CHECK_THAT(r.out, Catch::Contains("--counters"));
  RunResult typo = RunGpuperf({"help", "analyse"});
  CHECK(typo.exit_code == 2);
  CHECK_THAT(typo.err, Catch::Contains("did you mean 'analyze'"));
}

TEST_CASE("analyze takes a comma-separated --format list in any order", "[cli][first_use]") {
  auto trace = CorpusFile(kBert);
  if (!trace)
    return;
  for (const char* list : {"json,md", "md,json"}) {
    TempDir out;
    RunResult r = RunGpuperf({"analyze", *trace, "--format", list, "--out", out.path().string()});
    INFO(list << ": " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(fs::exists(out / "report.md"));
    CHECK(fs::exists(out / "report.json"));
  }
  TempDir csv;
  REQUIRE(
      RunGpuperf({"analyze", *trace, "--format", "csv", "--out", csv.path().string()}).exit_code ==
      0);
  for (const char* name :
       {"kernels.csv", "operators.csv", "memory_ops.csv", "api.csv", "findings.csv"})
    CHECK(fs::exists(csv / name));
  CHECK_FALSE(fs::exists(csv / "report.md"));
}

TEST_CASE("a --ceilings DIR that gpuperf ceilings never wrote is a warning", "[cli][first_use]") {
  auto trace = CorpusFile(kBert);
  if (!trace)
    return;
  TempDir out, empty;
  RunResult missing = RunGpuperf({"analyze",
                                  *trace,
                                  "--ceilings",
                                  empty / "never-measured",
                                  "--out",
                                  out.path().string(),
                                  "--quiet"});
  CHECK(missing.exit_code == 0);
  CHECK_THAT(missing.err, Catch::Contains("gpuperf: warning: --ceilings"));
  CHECK_THAT(missing.err, Catch::Contains("run `gpuperf ceilings`"));
  RunResult no_json = RunGpuperf({"analyze",
                                  *trace,
                                  "--ceilings",
                                  empty.path().string(),
                                  "--out",
                                  out.path().string(),
                                  "--quiet"});
  CHECK(no_json.exit_code == 0);
  CHECK_THAT(no_json.err, Catch::Contains("gpuperf: warning: --ceilings"));
}

TEST_CASE("the terminal summary fits 80 columns, plain text, diagnosis first", "[cli][first_use]") {
  auto trace = CorpusFile(kBert);
  if (!trace)
    return;
  ::setenv("COLUMNS", "80", 1);
  TempDir out;
  RunResult r = RunGpuperf({"analyze", *trace, "--out", out.path().string()});
  ::unsetenv("COLUMNS");
  REQUIRE(r.exit_code == 0);
  CHECK(LongestLine(r.out) <= 80);
  CHECK(r.out.find("**") == std::string::npos);
  CHECK(r.out.find('`') == std::string::npos);
  const std::size_t diagnosis = r.out.find("Diagnosis: ");
  REQUIRE(diagnosis != std::string::npos);
  CHECK(diagnosis < r.out.find("kernels by GPU time"));
  CHECK_THAT(r.out, Catch::Contains(out / "report.md"));
}

TEST_CASE("every command takes --quiet and --verbose", "[cli][first_use]") {
  for (const char* command : {"analyze", "baseline", "ceilings", "compare", "predict", "ranks"}) {
    RunResult help = RunGpuperf({command, "--help"});
    INFO(command);
    CHECK_THAT(help.out, Catch::Contains("--quiet"));
    CHECK_THAT(help.out, Catch::Contains("--verbose"));
  }
  auto trace = CorpusFile(kBert);
  if (!trace)
    return;
  TempDir out;
  RunResult quiet = RunGpuperf({"analyze", *trace, "--out", out.path().string(), "-q"});
  CHECK(quiet.exit_code == 0);
  CHECK(quiet.out.empty());
  RunResult compare = RunGpuperf({"compare", *trace, *trace, "--quiet", "--out", out / "cmp"});
  CHECK(compare.exit_code == 0);
  CHECK(compare.out.empty());
  RunResult verbose =
      RunGpuperf({"predict", *trace, "--kernel", "gemm", "--speedup", "2", "--verbose"});
  CHECK(verbose.exit_code == 0);
  // Human units: "1.23 ms critical of", never a raw nanosecond count ("0 ns" is one: bert's
  // GEMMs give nothing back in its host-bound window).
  CHECK_FALSE(std::regex_search(verbose.out, std::regex("[0-9]{4,} ns critical of ")));
  CHECK_THAT(verbose.out, Catch::Contains(" critical of "));
}

TEST_CASE("ranks prints a table with one row per rank", "[cli][first_use][ranks]") {
  auto control = CorpusFile("kineto/hta/trace_diff/control/control.json.gz");
  auto test = CorpusFile("kineto/hta/trace_diff/test/test.json.gz");
  if (!control || !test)
    return;
  TempDir out;
  RunResult r = RunGpuperf({"ranks", *control, *test, "--out", out.path().string()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("rank  steps"));
  CHECK_THAT(r.out, Catch::Contains("straggler"));
  CHECK(LongestLine(r.out.substr(0, r.out.find("wrote "))) <= 100);
}

TEST_CASE("ranks reads the summaries that analyze --summary writes, as documented",
          "[cli][first_use][ranks]") {
  auto control = CorpusFile("kineto/hta/trace_diff/control/control.json.gz");
  auto test = CorpusFile("kineto/hta/trace_diff/test/test.json.gz");
  if (!control || !test)
    return;
  TempDir dir;
  for (const auto& [trace, rank] : {std::pair{*control, "0"}, std::pair{*test, "1"}}) {
    REQUIRE(RunGpuperf({"analyze",
                        trace,
                        "--summary",
                        "--format",
                        "json",
                        "--quiet",
                        "--out",
                        dir / ("sum/" + std::string(rank))})
                .exit_code == 0);
  }
  // docs/ranks.md and `ranks --help`: gpuperf ranks sum/*/summary.json (the shell expands it).
  RunResult r = RunGpuperf(
      {"ranks", dir / "sum/0/summary.json", dir / "sum/1/summary.json", "--out", dir / "job"});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  nlohmann::json j = nlohmann::json::parse(ReadFile(dir / "job/ranks.json"));
  CHECK(j["ranks"].size() == 2);
}

}  // namespace gpuperf::testing
