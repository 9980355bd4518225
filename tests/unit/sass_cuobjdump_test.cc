// Running cuobjdump: input checks, the tool lookup, failures, the timeout, streaming a large
// listing (with stand-in tools), and the real cuobjdump on the CUDA fixture when both exist.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>

#include "io/sass/child_process.h"
#include "io/sass/cuobjdump.h"
#include "sass_test_support.h"

namespace gpuperf::testing {
namespace {

using io::sass::ReadSassFile;
using io::sass::SassReadOptions;
using namespace std::chrono_literals;

SassReadOptions With(const std::string& tool, std::chrono::milliseconds timeout = 20s) {
  return SassReadOptions{tool, timeout};
}

std::string ErrorOf(const Result<io::sass::SassListing>& result) {
  REQUIRE_FALSE(result.ok());
  return result.error().message;
}

const model::SassFunction* Named(const io::sass::SassListing& listing, const std::string& part) {
  for (const model::SassFunction& f : listing.functions) {
    if (f.demangled_name.find(part) != std::string::npos)
      return &f;
  }
  return nullptr;
}

TEST_CASE("cuobjdump: the listing of a stand-in tool is parsed, the file gets -sass") {
  TempDir dir;
  WriteFile(dir / "listing.txt", kFakeListing);
  std::string tool = FakeTool(
      dir, "cuobjdump", "[ \"$1\" = -sass ] || exit 9\ncat '" + (dir / "listing.txt") + "'");
  auto listing = ReadSassFile(FakeElf(dir), With(tool));
  REQUIRE(listing.ok());
  REQUIRE(listing->functions.size() == 2);
  CHECK(listing->functions[0].matrix_ops.at("HMMA") == 2);
  CHECK(listing->functions[0].file == dir / "app");
  CHECK(listing->functions[1].matrix_ops.empty());
}

TEST_CASE("cuobjdump: files that cannot hold device code are refused before any tool runs") {
  TempDir dir;
  std::string never = dir / "no-such-tool";  // would fail if it were run
  CHECK(ErrorOf(ReadSassFile(dir / "missing", With(never))) ==
        dir / "missing" + ": cannot open: No such file or directory");
  CHECK(ErrorOf(ReadSassFile(dir.path().string(), With(never))).find(": is a directory") !=
        std::string::npos);
  WriteFile(dir / "notes.txt", "just text\n");
  std::string text = ErrorOf(ReadSassFile(dir / "notes.txt", With(never)));
  CHECK(text.rfind(dir / "notes.txt" + ": not an ELF file, ar archive or fatbin", 0) == 0);
  WriteFile(dir / "empty", "");
  CHECK(ErrorOf(ReadSassFile(dir / "empty", With(never))).find("not an ELF file") !=
        std::string::npos);
  WriteFile(dir / "lib.a", "!<arch>\n");
  CHECK(ErrorOf(ReadSassFile(dir / "lib.a", With(never))).find("cannot run") != std::string::npos);
}

TEST_CASE("cuobjdump: no device code, a fatal error and PTX only are one-line errors") {
  TempDir dir;
  std::string elf = FakeElf(dir);
  std::string no_code =
      FakeTool(dir,
               "nocode",
               "echo \"cuobjdump info    : File '$2' does not contain device code\" >&2\nexit 255");
  CHECK(ErrorOf(ReadSassFile(elf, With(no_code))) ==
        elf + ": contains no CUDA device code (cuobjdump info : File '" + elf +
            "' does not contain device code)");
  std::string fatal =
      FakeTool(dir,
               "fatal",
               "echo 'cuobjdump fatal   : Support for '\"'sm_4'\"' has been removed.' >&2\nexit 1");
  CHECK(ErrorOf(ReadSassFile(elf, With(fatal))) ==
        elf +
            ": cuobjdump -sass failed with exit code 1: cuobjdump fatal : Support for 'sm_4' "
            "has been removed.");
  std::string ptx = FakeTool(dir, "ptx", "printf '\\nFatbin ptx code:\\n================\\n'");
  CHECK(ErrorOf(ReadSassFile(elf, With(ptx))).find(": holds PTX only, no SASS") !=
        std::string::npos);
  std::string silent = FakeTool(dir, "silent", "cat");  // reads stdin: /dev/null, not a terminal
  CHECK(ErrorOf(ReadSassFile(elf, With(silent))) ==
        elf + ": cuobjdump -sass listed no device function");
  std::string crash = FakeTool(dir, "crash", "ulimit -c 0\nkill -SEGV $$");
  CHECK(ErrorOf(ReadSassFile(elf, With(crash))) ==
        elf + ": cuobjdump -sass was killed by signal 11");
}

TEST_CASE("cuobjdump: a stalled tool is killed at the timeout, also with its pipes closed") {
  TempDir dir;
  std::string elf = FakeElf(dir);
  for (const char* body : {"exec sleep 30", "exec >&- 2>&-\nexec sleep 30"}) {
    std::string tool = FakeTool(dir, "stall", body);
    auto start = std::chrono::steady_clock::now();
    std::string message = ErrorOf(ReadSassFile(elf, With(tool, 300ms)));
    auto waited = std::chrono::steady_clock::now() - start;
    INFO(body);
    CHECK(message == elf + ": cuobjdump -sass did not finish within 300 ms and was killed");
    CHECK(waited < 10s);
  }
}

TEST_CASE("cuobjdump: a large listing streams through the pipe") {
  TempDir dir;
  std::string tool = FakeTool(dir,
                              "big",
                              "printf '\\tcode for sm_90\\n\\t\\tFunction : k\\n'\n"
                              "yes '        /*0000*/  HMMA.16816.F32 R0, R2, R4, R0 ;' | head -n "
                              "200000\necho 'some warning' >&2");
  auto listing = ReadSassFile(FakeElf(dir), With(tool));
  REQUIRE(listing.ok());
  REQUIRE(listing->functions.size() == 1);
  CHECK(listing->functions[0].matrix_ops.at("HMMA") == 200000);
}

TEST_CASE("cuobjdump: the lookup honours GPUPERF_CUOBJDUMP, PATH and CUDA_HOME") {
  TempDir dir;
  std::string tool = FakeTool(dir, "cuobjdump", "exit 0");
  {
    ScopedEnv env("GPUPERF_CUOBJDUMP", tool);
    auto found = io::sass::FindCuobjdump();
    REQUIRE(found.ok());
    CHECK(*found == tool);
  }
  {
    ScopedEnv env("GPUPERF_CUOBJDUMP", dir / "nothing-here");
    auto found = io::sass::FindCuobjdump();
    REQUIRE_FALSE(found.ok());
    CHECK(found.error().message ==
          "GPUPERF_CUOBJDUMP=" + dir / "nothing-here" + " is not an executable file");
  }
  {
    ScopedEnv env("GPUPERF_CUOBJDUMP", std::nullopt);
    ScopedEnv path("PATH", "/nonexistent-dir:" + dir.path().string());
    auto found = io::sass::FindCuobjdump();
    REQUIRE(found.ok());
    CHECK(*found == tool);
  }
  {
    TempDir home;
    std::filesystem::create_directories(home.path() / "bin");
    std::string in_home = (home.path() / "bin" / "cuobjdump").string();
    std::filesystem::copy_file(tool, in_home);
    std::filesystem::permissions(in_home, std::filesystem::perms::owner_all);
    ScopedEnv env("GPUPERF_CUOBJDUMP", std::nullopt);
    ScopedEnv path("PATH", "/nonexistent-dir");
    ScopedEnv cuda("CUDA_HOME", home.path().string());
    auto found = io::sass::FindCuobjdump();
    REQUIRE(found.ok());
    CHECK(*found == in_home);
  }
}

TEST_CASE("child process: a program that cannot start is an error naming it") {
  auto outcome = io::sass::RunCaptured({"/nonexistent/tool", "-x"}, 1s, [](std::string_view) {});
  REQUIRE_FALSE(outcome.ok());
  CHECK(outcome.error().message == "/nonexistent/tool: cannot run: No such file or directory");
}

// The real toolchain: tests/fixtures/sass/tensor_mma.cu built for sm_90 (only with a CUDA
// compiler) and read by the real cuobjdump (only where the CUDA toolkit has one).
TEST_CASE(
    "cuobjdump: the real tool finds HMMA in the WMMA fixture kernel and none in the FMA one") {
#ifndef GPUPERF_SASS_FIXTURE
  WARN("SKIPPED: no CUDA compiler at configure time, tests/fixtures/sass/tensor_mma.cu not built");
#else
  auto tool = io::sass::FindCuobjdump();
  if (!tool.ok()) {
    WARN("SKIPPED: " << tool.error().message << "; the SASS fixture was not read");
    return;
  }
  auto listing = ReadSassFile(GPUPERF_SASS_FIXTURE);
  INFO("cuobjdump: " << *tool);
  REQUIRE(listing.ok());
  const model::SassFunction* mma = Named(*listing, "tensor_mma_kernel");
  const model::SassFunction* fma = Named(*listing, "plain_fma_kernel");
  REQUIRE(mma != nullptr);
  REQUIRE(fma != nullptr);
  CHECK(mma->arch == "sm_90");
  CHECK(mma->matrix_ops.count("HMMA") == 1);
  CHECK(mma->matrix_ops.at("HMMA") > 0);
  CHECK(fma->matrix_ops.empty());
  CHECK(fma->instructions > 0);
#endif
}

}  // namespace
}  // namespace gpuperf::testing
