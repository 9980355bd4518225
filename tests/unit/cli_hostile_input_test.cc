// The defects of issue 17's attack on the built binary, each as a test: hostile names and
// inputs, option values, concurrent writers. Small reproducer inputs live in
// tests/fixtures/hostile (README there).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "cli/app.h"
#include "cli/finite_numbers.h"
#include "cli_test_support.h"

namespace gpuperf::testing {
namespace {

namespace fs = std::filesystem;

std::string Fixture(const std::string& name) {
  return std::string(GPUPERF_SOURCE_DIR) + "/tests/fixtures/hostile/" + name;
}

// `gpuperf args...` killed after `seconds` (exit 124 then): a hang fails the test, not the suite.
RunResult RunWithTimeout(int seconds, const std::vector<std::string>& args) {
  TempDir capture;
  std::string command = "timeout " + std::to_string(seconds) + " " + ShellQuote(GpuperfBinary());
  for (const auto& arg : args)
    command += " " + ShellQuote(arg);
  command += " >" + ShellQuote(capture / "out") + " 2>" + ShellQuote(capture / "err");
  const int status = std::system(command.c_str());
  RunResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = ReadFile(capture / "out");
  result.err = ReadFile(capture / "err");
  return result;
}

// A one-kernel Kineto trace whose kernel is `name`.
std::string TraceWithKernel(const std::string& name) {
  nlohmann::json kernel = {{"ph", "X"},
                           {"cat", "kernel"},
                           {"name", name},
                           {"pid", 0},
                           {"tid", 7},
                           {"ts", 100},
                           {"dur", 20},
                           {"args", {{"device", 0}, {"stream", 7}, {"correlation", 1}}}};
  nlohmann::json gemm = kernel;
  gemm["name"] = "gemm_kernel";
  gemm["ts"] = 200;
  return nlohmann::json{{"traceEvents", {kernel, gemm}}}.dump();
}

void WriteGzip(const fs::path& path,
               const std::string& prefix,
               const std::string& block,
               std::size_t repeats,
               const std::string& suffix) {
  gzFile file = gzopen(path.c_str(), "wb1");
  REQUIRE(file != nullptr);
  gzwrite(file, prefix.data(), static_cast<unsigned>(prefix.size()));
  for (std::size_t i = 0; i < repeats; ++i)
    gzwrite(file, block.data(), static_cast<unsigned>(block.size()));
  gzwrite(file, suffix.data(), static_cast<unsigned>(suffix.size()));
  REQUIRE(gzclose(file) == Z_OK);
}

TEST_CASE("predict: a 40,000-character kernel name does not overflow the stack") {
  TempDir dir;
  WriteFile(dir / "long.json", TraceWithKernel(std::string(40000, 'a') + "gemm"));
  RunResult r = RunGpuperf({"predict", dir / "long.json", "--kernel", "gemm.*", "--speedup", "2"});
  CHECK(r.exit_code == 0);  // both kernels match: the long name on a large-stack thread
  CHECK(r.out.find("kernels matched: 2") != std::string::npos);
}

TEST_CASE("predict: a name beyond the matcher's limit is not matched, and said so") {
  TempDir dir;
  WriteFile(dir / "huge.json", TraceWithKernel(std::string(70000, 'a') + "gemm"));
  RunResult r = RunGpuperf(
      {"predict", dir / "huge.json", "--kernel", "gemm", "--speedup", "2", "--format", "json"});
  REQUIRE(r.exit_code == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["kernels_matched"].size() == 1);
  CHECK(r.out.find("longer than 65536 characters not matched") != std::string::npos);
}

TEST_CASE("every numeric option of every command refuses NaN and infinities") {
  cli::Cli cli;
  std::size_t checked = 0;
  for (CLI::App* sub : cli.app().get_subcommands([](CLI::App*) { return true; })) {
    for (CLI::Option* option : sub->get_options()) {
      if (option->get_type_size() == 0)
        continue;
      const std::string type = option->get_type_name();
      const bool text = type.rfind("DIR", 0) == 0 || type.rfind("FILE", 0) == 0 ||
                        type.rfind("REGEX", 0) == 0 || type.rfind("PATH", 0) == 0 ||
                        type.rfind("EXE", 0) == 0 || type.rfind("CSV", 0) == 0 ||
                        type.rfind("LIST", 0) == 0 || type.rfind("TRACE", 0) == 0 ||
                        type.rfind("BEFORE", 0) == 0 || type.rfind("AFTER", 0) == 0 ||
                        type.rfind("REPORT_OR_TRACE", 0) == 0;
      if (text)
        continue;
      INFO(sub->get_name() << " " << option->get_name());
      CHECK_NOTHROW(option->get_validator(cli::kFiniteValidator));
      ++checked;
    }
  }
  CHECK(checked >= 10);
  CHECK(cli::IsNonFiniteNumber("nan"));
  CHECK(cli::IsNonFiniteNumber("-Infinity"));
  CHECK(cli::IsNonFiniteNumber("1e999"));
  CHECK(cli::IsNonFiniteNumber("nan%"));
  CHECK_FALSE(cli::IsNonFiniteNumber("0.05"));
  CHECK_FALSE(cli::IsNonFiniteNumber("auto"));
  CHECK_FALSE(cli::IsNonFiniteNumber(""));
}

TEST_CASE("compare --alpha nan and --threshold nan are usage errors, not a silent pass") {
  TempDir dir;
  for (const auto& option :
       std::vector<std::pair<std::string, std::string>>{{"--alpha", "nan"},
                                                        {"--threshold", "nan"},
                                                        {"--threshold", "nan%"},
                                                        {"--alpha", "inf"}}) {
    RunResult r = RunGpuperf({"compare",
                              Fixture("fast.json"),
                              Fixture("slow.json"),
                              "--allow-different-env",
                              option.first,
                              option.second,
                              "--out",
                              dir / "out"});
    INFO(option.first << " " << option.second << ": " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.ErrLines().size() == 1);
  }
  RunResult plain = RunGpuperf({"compare",
                                Fixture("fast.json"),
                                Fixture("slow.json"),
                                "--allow-different-env",
                                "--out",
                                dir / "o"});
  CHECK(plain.exit_code == 3);  // the regression the NaN hid
}

TEST_CASE("predict --speedup nan and baseline --target-width nan are usage errors") {
  RunResult p =
      RunGpuperf({"predict", Fixture("small_trace.json"), "--kernel", ".", "--speedup", "nan"});
  CHECK(p.exit_code == 2);
  CHECK(p.err.find("not a finite number") != std::string::npos);
  for (const std::string option : {"--target-width", "--budget", "--metrics-timeout"}) {
    RunResult b = RunGpuperf({"baseline", option, "nan", "--", "/bin/true"});
    INFO(option << ": " << b.err);
    CHECK(b.exit_code == 2);
    CHECK(b.err.find("not a finite number") != std::string::npos);
  }
}

TEST_CASE("a FIFO as input is refused at once, never waited on") {
  TempDir dir;
  const std::string fifo = dir / "trace.json";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"analyze", fifo, "--out", dir / "out"},
        std::vector<std::string>{"predict", fifo, "--kernel", "x", "--speedup", "2"},
        std::vector<std::string>{
            "analyze", Fixture("small_trace.json"), "--model", fifo, "--out", dir / "o"},
        std::vector<std::string>{"compare", fifo, fifo, "--out", dir / "c"}}) {
    RunResult r = RunWithTimeout(20, args);
    INFO(args[0] << ": " << r.err);
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("not a regular file (a FIFO)") != std::string::npos);
  }
}

TEST_CASE("ncu: a blank unit on a duration is counted and dropped, never read as ns") {
  TempDir dir;
  RunResult ref =
      RunGpuperf({"analyze", Fixture("unit_ref.csv"), "--out", dir / "ref", "--format", "json"});
  REQUIRE(ref.exit_code == 0);
  auto with_unit = nlohmann::json::parse(ReadFile(dir.path() / "ref" / "report.json"));
  CHECK(with_unit["kernels"][0]["total_ns"] == 6460);
  RunResult blank = RunGpuperf(
      {"analyze", Fixture("unit_blank.csv"), "--out", dir / "blank", "--format", "json"});
  REQUIRE(blank.exit_code == 0);
  auto j = nlohmann::json::parse(ReadFile(dir.path() / "blank" / "report.json"));
  bool counted = false;
  for (const auto& d : j["diagnostics"])
    counted |= d.dump().find("ncu_missing_units") != std::string::npos;
  CHECK(counted);
  for (const auto& k : j["kernels"])
    CHECK(k["total_ns"] != 6);  // the old guess: 6.46 "ns"
}

TEST_CASE("ncu: a --page raw export without its units row is refused") {
  TempDir dir;
  RunResult r = RunGpuperf({"analyze", Fixture("raw_no_units.csv"), "--out", dir / "out"});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("without its units row") != std::string::npos);
  CHECK(r.ErrLines().size() == 1);
}

TEST_CASE("terminal escapes in file names never reach stderr raw") {
  TempDir dir;
  fs::create_directory(dir.path() / "ranks");
  const std::string hostile = "rank1\x1b]52;c;ZXZpbA==\x07\x1b[2J.json";
  WriteFile(dir.path() / "ranks" / hostile, "garbage");
  RunResult ranks = RunGpuperf({"ranks", dir / "ranks", "--out", dir / "out"});
  CHECK(ranks.err.find('\x1b') == std::string::npos);
  CHECK(ranks.err.find('\x07') == std::string::npos);
  RunResult analyze = RunGpuperf({"analyze", dir / "x\x1b[31mRED.json"});
  CHECK(analyze.exit_code == 1);
  CHECK(analyze.err.find('\x1b') == std::string::npos);
  CHECK(analyze.err.find("x?[31mRED.json") != std::string::npos);
}

TEST_CASE("ranks: many unreadable rank files make one line and a count") {
  TempDir dir;
  fs::create_directory(dir.path() / "ranks");
  for (int i = 0; i < 40; ++i)
    WriteFile(dir.path() / "ranks" / ("rank" + std::to_string(i) + ".json"), "garbage");
  RunResult none = RunGpuperf({"ranks", dir / "ranks", "--out", dir / "out"});
  CHECK(none.exit_code == 1);
  REQUIRE(none.ErrLines().size() == 1);
  CHECK(none.err.find("40 unreadable") != std::string::npos);
  fs::copy_file(Fixture("small_trace.json"), dir.path() / "ranks" / "worker0.json");
  RunResult some = RunGpuperf({"ranks", dir / "ranks", "--out", dir / "out"});
  CHECK(some.exit_code == 0);
  CHECK(some.ErrLines().size() == 4);  // three named, one count
  CHECK(some.err.find("37 more unreadable") != std::string::npos);
}

TEST_CASE("ranks: a summary.json nested 200,000 levels deep is one line, no crash") {
  TempDir dir;
  std::string text = "{\"kind\": \"gpuperf-rank-summary\", \"schema_version\": \"1.0\", \"x\": ";
  text += std::string(200000, '[') + std::string(200000, ']') + "}";
  WriteFile(dir.path() / "summary.json", text);
  RunResult r = RunGpuperf({"ranks", dir / "summary.json", "--out", dir / "out"});
  CHECK(r.exit_code == 1);
  CHECK(r.ErrLines().size() == 1);
  CHECK(r.err.find("nested deeper than") != std::string::npos);
}

TEST_CASE("a gzip input that inflates beyond --max-decompressed-mib fails naming the limit") {
  TempDir dir;
  const std::string event =
      R"({"ph":"X","cat":"kernel","name":"bomb","pid":0,"tid":7,"ts":100,"dur":20,)"
      R"("args":{"device":0,"stream":7,"correlation":1}},)";
  std::string block;
  while (block.size() < (1u << 20))
    block += event;
  WriteGzip(dir.path() / "bomb.json.gz", "{\"traceEvents\":[", block, 24, "{}]}");
  RunResult r = RunWithTimeout(
      120, {"analyze", dir / "bomb.json.gz", "--max-decompressed-mib", "8", "--out", dir / "out"});
  CHECK(r.exit_code == 1);
  CHECK(r.ErrLines().size() == 1);
  CHECK(r.err.find("inflates to more than 8388608 bytes") != std::string::npos);
  CHECK(r.err.find("--max-decompressed-mib") != std::string::npos);
  WriteGzip(dir.path() / "image.sqlite.gz",
            std::string("SQLite format 3\0", 16),
            std::string(1u << 20, '\0'),
            24,
            "");
  RunResult s = RunWithTimeout(
      120, {"analyze", dir / "image.sqlite.gz", "--max-decompressed-mib", "8", "--out", dir / "o"});
  CHECK(s.exit_code == 1);
  CHECK(s.err.find("--max-decompressed-mib") != std::string::npos);
}

TEST_CASE("a trace with more records than --max-records fails naming the limit") {
  TempDir dir;
  RunResult r = RunGpuperf(
      {"analyze", Fixture("small_trace.json"), "--max-records", "3", "--out", dir / "out"});
  CHECK(r.exit_code == 1);
  CHECK(r.ErrLines().size() == 1);
  CHECK(r.err.find("more than 3 records (the limit of --max-records") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "out"));
  CHECK(RunGpuperf({"analyze", Fixture("small_trace.json"), "--out", dir / "ok"}).exit_code == 0);
}

TEST_CASE("a failed commit leaves the earlier report whole") {
  TempDir dir;
  const std::string out = dir / "out";
  REQUIRE(RunGpuperf({"analyze", Fixture("small_trace.json"), "--out", out}).exit_code == 0);
  const std::string old_md = ReadFile(fs::path(out) / "report.md");
  fs::remove(fs::path(out) / "report.json");
  fs::create_directories(fs::path(out) / "report.json" / "keep");
  RunResult r = RunGpuperf({"analyze", Fixture("roofline_trace.json"), "--out", out});
  CHECK(r.exit_code == 1);
  CHECK(ReadFile(fs::path(out) / "report.md") == old_md);
  CHECK(fs::is_directory(fs::path(out) / "report.json" / "keep"));
}

// The run id of a report file: "run_id" in JSON, the "Run id: `...`" line in Markdown.
std::string RunIdOf(const fs::path& file) {
  const std::string text = ReadFile(file);
  if (file.extension() == ".json")
    return nlohmann::json::parse(text).value("run_id", std::string());
  const std::size_t at = text.rfind("Run id: `");
  return at == std::string::npos ? "" : text.substr(at + 9, text.find('`', at + 9) - at - 9);
}

TEST_CASE("concurrent runs into one --out leave one run's report, never a mix") {
  TempDir dir;
  const std::string out = dir / "out";
  for (int round = 0; round < 3; ++round) {
    std::vector<std::thread> runs;
    for (int i = 0; i < 6; ++i) {
      runs.emplace_back([&, i] {
        if (i % 2 == 0)
          RunGpuperf({"analyze", Fixture("small_trace.json"), "--out", out});
        else
          RunGpuperf({"analyze",
                      Fixture("roofline_trace.json"),
                      "--model",
                      Fixture("model.json"),
                      "--out",
                      out});
      });
    }
    for (auto& run : runs)
      run.join();
    const std::string md_id = RunIdOf(fs::path(out) / "report.md");
    CHECK_FALSE(md_id.empty());
    CHECK(RunIdOf(fs::path(out) / "report.json") == md_id);
    if (fs::exists(fs::path(out) / "roofline.svg"))
      CHECK(ReadFile(fs::path(out) / "roofline.svg").find(md_id) != std::string::npos);
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path()))
      ++entries;
    CHECK(entries == 1);  // no staging left beside out
  }
}

}  // namespace
}  // namespace gpuperf::testing
