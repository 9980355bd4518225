// End-to-end checks of `gpuperf analyze` on inputs that must fail cleanly, and of usage errors.
#include <catch2/catch.hpp>

#include <zlib.h>

#include <filesystem>
#include <random>
#include <string>

#include "cli_test_support.h"

namespace gpuperf::testing {
namespace {

namespace fs = std::filesystem;

// A gzip file of a valid Kineto header, cut in the middle of the compressed stream.
void WriteTruncatedGzip(const std::string& path) {
  std::string json = "{\"schemaVersion\": 1, \"traceEvents\": [";
  for (int i = 0; i < 2000; ++i) {
    json += "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k" + std::to_string(i) +
            "\", \"pid\": 0, \"tid\": 7, \"ts\": " + std::to_string(i * 10) + ", \"dur\": 5},";
  }
  json += "{}]}";
  std::string whole = path + ".whole";
  gzFile file = gzopen(whole.c_str(), "wb");
  REQUIRE(file != nullptr);
  REQUIRE(gzwrite(file, json.data(), static_cast<unsigned>(json.size())) ==
          static_cast<int>(json.size()));
  REQUIRE(gzclose(file) == Z_OK);
  std::string bytes = ReadFile(whole);
  fs::remove(whole);
  REQUIRE(bytes.size() > 100);
  WriteFile(path, bytes.substr(0, bytes.size() / 2));
}

std::string RandomBytes(std::size_t n) {
  std::mt19937 generator(42);
  std::string bytes(n, '\0');
  for (char& c : bytes)
    c = static_cast<char>(generator() & 0xFF);
  return bytes;
}

// Runs analyze on `input` and checks the failure contract: exit 1, exactly one stderr line
// naming the input, no report left in --out.
void CheckFailsCleanly(const std::string& input, const TempDir& dir) {
  std::string out = dir / "report";
  RunResult result = RunGpuperf({"analyze", input, "--out", out});
  INFO("stderr: " << result.err);
  CHECK(result.exit_code == 1);
  auto lines = result.ErrLines();
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].rfind("gpuperf: error: " + input + ": ", 0) == 0);
  CHECK(result.out.empty());
  bool nothing_left = !fs::exists(out) || fs::is_empty(out);
  CHECK(nothing_left);
}

TEST_CASE("analyze fails cleanly on a file that does not exist") {
  TempDir dir;
  CheckFailsCleanly(dir / "missing.json", dir);
}

TEST_CASE("analyze fails cleanly on an empty file") {
  TempDir dir;
  WriteFile(dir / "empty.json", "");
  CheckFailsCleanly(dir / "empty.json", dir);
}

TEST_CASE("analyze fails cleanly on random bytes") {
  TempDir dir;
  WriteFile(dir / "random.bin", RandomBytes(4096));
  CheckFailsCleanly(dir / "random.bin", dir);
}

TEST_CASE("analyze fails cleanly on a CSV file") {
  TempDir dir;
  WriteFile(dir / "kern_sum.csv",
            "Time (%),Total Time (ns),Instances,Name\n62.5,1500000,10,gemm_kernel\n");
  CheckFailsCleanly(dir / "kern_sum.csv", dir);
}

TEST_CASE("analyze fails cleanly on a truncated gzip file") {
  TempDir dir;
  WriteTruncatedGzip(dir / "trace.json.gz");
  CheckFailsCleanly(dir / "trace.json.gz", dir);
}

TEST_CASE("analyze rejects an unknown format with a usage error") {
  TempDir dir;
  WriteFile(dir / "t.json", "{\"traceEvents\": []}");
  RunResult result =
      RunGpuperf({"analyze", dir / "t.json", "--format", "md,xml", "--out", dir / "o"});
  CHECK(result.exit_code == 2);
  REQUIRE(result.ErrLines().size() == 1);
  CHECK(result.ErrLines()[0].rfind("gpuperf: error: --format: ", 0) == 0);
  CHECK_FALSE(fs::exists(dir / "o"));
}

TEST_CASE("analyze rejects stray arguments and a bad --top") {
  TempDir dir;
  for (const auto& args : std::vector<std::vector<std::string>>{{"analyze", "a.json", "b.json"},
                                                                {"analyze", "a.json", "--top", "0"},
                                                                {"analyze", "a.json", "--bogus"},
                                                                {"analyze"},
                                                                {}}) {
    RunResult result = RunGpuperf(args, dir.path().string());
    INFO("stderr: " << result.err);
    CHECK(result.exit_code == 2);
    REQUIRE(result.ErrLines().size() == 1);
    CHECK(result.ErrLines()[0].rfind("gpuperf: error: ", 0) == 0);
  }
  CHECK(fs::is_empty(dir.path()));
}

TEST_CASE("gpuperf --help and --version succeed on stdout") {
  RunResult help = RunGpuperf({"analyze", "--help"});
  CHECK(help.exit_code == 0);
  CHECK(help.err.empty());
  CHECK(help.out.find("Examples:") != std::string::npos);
  RunResult version = RunGpuperf({"--version"});
  CHECK(version.exit_code == 0);
  CHECK_FALSE(version.out.empty());
}

}  // namespace
}  // namespace gpuperf::testing
