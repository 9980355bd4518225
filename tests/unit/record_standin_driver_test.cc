// `gpuperf baseline` end to end on a machine without a GPU: a stand-in libcuda.so.1
// (record_child/fake_libcuda.cc, one fake device) gets it past the driver probe, and the traced
// programs never load CUDA. Exit codes, output and stdin pass through as docs/recorder.md says.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "cli_test_support.h"

namespace gpuperf::testing {
namespace {

namespace fs = std::filesystem;

// `gpuperf baseline --out OUT --repeat 1 --warmup 0 --no-overhead -- PROGRAM` through `sh -c`
// with the stand-in driver; `before` runs first in the same shell (ulimit, trap).
RunResult Baseline(const std::string& out,
                   const std::string& program,
                   const std::string& before = "",
                   const std::string& stdin_text = "",
                   const std::string& flags = "") {
  TempDir capture;
  WriteFile(capture / "in", stdin_text);
  std::string command = before + "LD_LIBRARY_PATH=" + ShellQuote(GPUPERF_FAKE_LIBCUDA_DIR) + " " +
                        ShellQuote(GpuperfBinary()) + " baseline --quiet --out " + ShellQuote(out) +
                        " --repeat 1 --warmup 0 --no-overhead " + flags + " -- " + program;
  command = "sh -c " + ShellQuote(command) + " <" + ShellQuote(capture / "in") + " >" +
            ShellQuote(capture / "out") + " 2>" + ShellQuote(capture / "err");
  const int status = std::system(command.c_str());
  RunResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = ReadFile(capture / "out");
  result.err = ReadFile(capture / "err");
  return result;
}

nlohmann::json BaselineJson(const std::string& out) {
  return nlohmann::json::parse(ReadFile(fs::path(out) / "baseline.json"));
}

TEST_CASE("baseline -- /bin/false: the program's exit code is recorded, the run is incomplete",
          "[record][nogpu]") {
  TempDir dir;
  RunResult r = Baseline(dir / "b", "/bin/false");
  INFO(r.err);
  CHECK(r.exit_code == 4);  // nothing was recorded: the program never initialised CUDA
  nlohmann::json b = BaselineJson(dir / "b");
  CHECK(b["complete"] == false);
  CHECK(b.dump().find("\"exit_code\":1") != std::string::npos);
}

TEST_CASE("baseline -- a program killed by SIGSEGV is recorded as killed", "[record][nogpu]") {
  TempDir dir;
  RunResult r = Baseline(dir / "b", "sh -c 'kill -SEGV $$'");
  INFO(r.err);
  CHECK(r.exit_code == 4);
  CHECK(ReadFile(fs::path(dir / "b") / "report.md").find("killed by signal 11") !=
        std::string::npos);
}

TEST_CASE("baseline -- /nonexistent fails at once and leaves no output", "[record][nogpu]") {
  TempDir dir;
  RunResult r = Baseline(dir / "b", "/nonexistent");
  CHECK(r.exit_code == 1);
  CHECK(r.ErrLines().size() == 1);
  CHECK_FALSE(fs::exists(dir / "b"));
}

TEST_CASE("baseline --force replaces an earlier baseline whole, and only with --force",
          "[record][nogpu]") {
  TempDir dir;
  REQUIRE(Baseline(dir / "b", "/bin/true").exit_code == 4);
  WriteFile(fs::path(dir / "b") / "earlier-run-marker", "x");
  RunResult refused = Baseline(dir / "b", "/bin/true");
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find("already exists; choose another --out or pass --force") !=
        std::string::npos);
  CHECK(fs::exists(fs::path(dir / "b") / "earlier-run-marker"));
  RunResult forced = Baseline(dir / "b", "/bin/true", "", "", "--force");
  INFO(forced.err);
  CHECK(forced.exit_code == 4);
  CHECK(BaselineJson(dir / "b")["complete"] == false);
  // Nothing of the earlier baseline stays, and no staging directory is left beside it.
  CHECK_FALSE(fs::exists(fs::path(dir / "b") / "earlier-run-marker"));
  for (const auto& entry : fs::directory_iterator(fs::path(dir / "b").parent_path()))
    CHECK(entry.path().filename().string().find(".tmp") == std::string::npos);
}

TEST_CASE("baseline forwards stdin to the program and passes its stdout through",
          "[record][nogpu]") {
  TempDir dir;
  RunResult r = Baseline(dir / "b", "sh -c 'read line; echo \"got:$line\"'", "", "hello\n");
  INFO(r.err);
  CHECK(r.out.find("got:hello") != std::string::npos);
  CHECK(fs::exists(fs::path(dir / "b") / "baseline.json"));
}

TEST_CASE("baseline on a full disk fails and presents nothing as written", "[record][nogpu]") {
  TempDir dir;
  // A 4 KiB file size limit stands in for a full disk (no root for a tmpfs): report.md cannot
  // be written whole. SIGXFSZ ignored, so the write fails with EFBIG instead of killing.
  RunResult r = Baseline(dir / "b", "/bin/true", "trap '' XFSZ; ulimit -f 8; ");
  INFO(r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("cannot write") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "b"));
  for (const auto& entry : fs::directory_iterator(dir.path()))
    FAIL("left behind: " << entry.path());
}

}  // namespace
}  // namespace gpuperf::testing
