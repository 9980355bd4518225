// `gpuperf analyze TRACE --sass FILE` end to end: one-line errors naming the file (missing,
// not ELF, no cuobjdump, no device code) and a report whose kernels carry SASS evidence, with a
// stand-in cuobjdump so that no CUDA toolkit is needed.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "cli_test_support.h"
#include "sass_test_support.h"

namespace gpuperf::testing {
namespace {

namespace fs = std::filesystem;

// A Kineto trace with the two kernels of kFakeListing, as CUPTI names them.
std::string WriteTrace(const TempDir& dir) {
  std::string path = dir / "trace.json";
  WriteFile(path, R"json({"schemaVersion": 1, "traceEvents": [
  {"ph": "X", "cat": "kernel", "name": "wmma_kernel(const __half *, const __half *, float *)",
   "pid": 0, "tid": 7, "ts": 10, "dur": 5, "args": {"device": 0, "stream": 7}},
  {"ph": "X", "cat": "kernel", "name": "void fma_kernel<float>(float *, const float *, float, int)",
   "pid": 0, "tid": 7, "ts": 20, "dur": 5, "args": {"device": 0, "stream": 7}}
]})json");
  return path;
}

// The failure contract: exit 1, one stderr line "gpuperf: error: FILE: ...", no report.
void CheckFails(const RunResult& result, const std::string& file, const std::string& out) {
  INFO("stderr: " << result.err);
  CHECK(result.exit_code == 1);
  auto lines = result.ErrLines();
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].rfind("gpuperf: error: " + file + ": ", 0) == 0);
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("analyze --sass: a missing file and a non-ELF file fail with one line naming them") {
  TempDir dir;
  std::string trace = WriteTrace(dir);
  std::string missing = dir / "no-such-binary";
  RunResult result = RunGpuperf({"analyze", trace, "--sass", missing, "--out", dir / "o"});
  CheckFails(result, missing, dir / "o");
  CHECK(result.err.find("cannot open: No such file or directory") != std::string::npos);

  WriteFile(dir / "notes.txt", "not a binary\n");
  result = RunGpuperf({"analyze", trace, "--sass", dir / "notes.txt", "--out", dir / "o"});
  CheckFails(result, dir / "notes.txt", dir / "o");
  CHECK(result.err.find("not an ELF file") != std::string::npos);
}

TEST_CASE("analyze --sass: no cuobjdump and no device code fail with one line naming the file") {
  TempDir dir;
  std::string trace = WriteTrace(dir);
  std::string elf = FakeElf(dir);
  {
    ScopedEnv tool("GPUPERF_CUOBJDUMP", std::nullopt);
    ScopedEnv path("PATH", "/nonexistent-dir");
    ScopedEnv home("CUDA_HOME", dir / "no-cuda");
    if (fs::exists("/usr/local/cuda/bin/cuobjdump")) {
      WARN("SKIPPED: /usr/local/cuda/bin/cuobjdump exists, the missing-tool message not checked");
    } else {
      RunResult result = RunGpuperf({"analyze", trace, "--sass", elf, "--out", dir / "o"});
      CheckFails(result, elf, dir / "o");
      CHECK(result.err.find("cuobjdump not found: set GPUPERF_CUOBJDUMP or install the CUDA "
                            "toolkit") != std::string::npos);
    }
  }
  ScopedEnv tool("GPUPERF_CUOBJDUMP",
                 FakeTool(dir,
                          "cuobjdump",
                          "echo \"cuobjdump info    : File '$2' does not contain device code\" "
                          ">&2\nexit 255"));
  RunResult result = RunGpuperf({"analyze", trace, "--sass", elf, "--out", dir / "o"});
  CheckFails(result, elf, dir / "o");
  CHECK(result.err.find("contains no CUDA device code") != std::string::npos);
}

TEST_CASE("analyze --sass: kernels matched to SASS carry measured tensor-core evidence") {
  TempDir dir;
  std::string trace = WriteTrace(dir);
  WriteFile(dir / "listing.txt", kFakeListing);
  ScopedEnv tool("GPUPERF_CUOBJDUMP",
                 FakeTool(dir, "cuobjdump", "cat '" + (dir / "listing.txt") + "'"));
  std::string elf = FakeElf(dir);
  // --sass twice: each occurrence takes one file, and the trace stays positional.
  RunResult result =
      RunGpuperf({"analyze", "--sass", elf, "--sass", elf, trace, "--out", dir / "o"});
  INFO("stderr: " << result.err);
  REQUIRE(result.exit_code == 0);
  std::string json = ReadFile(dir.path() / "o" / "report.json");
  CHECK(json.find(R"("tensor_cores": {
        "used": true,
        "evidence": "measured",
        "source": "sass",
        "instructions": {
          "HMMA": 2
        },)") != std::string::npos);
  CHECK(json.find(R"("used": false,
        "evidence": "measured",
        "source": "sass",
        "instructions": {},)") != std::string::npos);
  std::string md = ReadFile(dir.path() / "o" / "report.md");
  CHECK(md.find("## Tensor cores") != std::string::npos);
  CHECK(md.find("| 2 HMMA |") != std::string::npos);
}

}  // namespace
}  // namespace gpuperf::testing
