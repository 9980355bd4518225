// The measured-ceilings cache on disk: the atomic write of `gpuperf ceilings` (StagedOutput) and
// the readers of --show and --ceilings, in temporary directories.
#include "io/ceilings/ceilings_cache.h"

#include <catch2/catch.hpp>

#include <stdlib.h>

#include <filesystem>
#include <optional>
#include <string>

#include "ceilings_test_support.h"
#include "cli/staged_output.h"
#include "cli_test_support.h"
#include "io/ceilings/ceilings_json.h"
#include "io/ceilings/ceilings_probe.h"
#include "scoped_env.h"

namespace {

namespace fs = std::filesystem;
namespace ceilings = gpuperf::io::ceilings;
using gpuperf::testing::ScopedEnv;
using gpuperf::testing::TempDir;

gpuperf::model::MeasuredCeilings Measured(const std::string& uuid = gpuperf::testing::kProbeUuid,
                                          const std::string& date = "2026-12-01T11:36:05Z") {
  auto m = ceilings::ParseProbeOutput(gpuperf::testing::ProbeJson("NVIDIA H200", uuid));
  REQUIRE(m.ok());
  m->date = date;
  m->gpuperf_version = "0.1.0";
  return *m;
}

// Writes `m` as `gpuperf ceilings` does; returns the path written.
std::string WriteCache(const fs::path& dir, const gpuperf::model::MeasuredCeilings& m) {
  gpuperf::cli::StagedOutput out(dir);
  REQUIRE(out.Prepare().ok());
  REQUIRE(out.Stage(ceilings::CacheFileName(m), ceilings::ToCacheJson(m)).ok());
  REQUIRE(out.Commit().ok());
  return out.written().front();
}

}  // namespace

TEST_CASE("ceilings cache: one file per UUID, written atomically and read back", "[ceilings]") {
  TempDir tmp;
  const fs::path dir = tmp.path() / "cache" / "ceilings";  // created on the way
  const std::string path = WriteCache(dir, Measured());
  CHECK(path == (dir / (std::string(gpuperf::testing::kProbeUuid) + ".json")).string());
  // Nothing else is left in the directory (no temporary file).
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
  auto back = ceilings::ReadCacheFile(path);
  REQUIRE(back.ok());
  CHECK(back->path == path);
  CHECK(back->dram.per_s == Approx(4e12));
  // A second measurement replaces the file whole.
  WriteCache(dir, Measured(gpuperf::testing::kProbeUuid, "2026-12-02T08:00:00Z"));
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
  CHECK(ceilings::ReadCacheFile(path)->date == "2026-12-02T08:00:00Z");
}

TEST_CASE("ceilings cache: file names come from validated UUIDs only", "[ceilings]") {
  auto m = Measured();
  CHECK(ceilings::CacheFileName(m) == std::string(gpuperf::testing::kProbeUuid) + ".json");
  m.uuid = "../../x";
  CHECK(ceilings::CacheFileName(m).empty());
}

TEST_CASE("ceilings cache: an unreadable or invalid file is one line naming it", "[ceilings]") {
  TempDir tmp;
  auto missing = ceilings::ReadCacheFile(tmp / "none.json");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message == tmp / "none.json" + ": cannot open: No such file or directory");
  gpuperf::testing::WriteFile(tmp / "bad.json", "{\"schema_version\": \"1.0.0\"");
  auto bad = ceilings::ReadCacheFile(tmp / "bad.json");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.rfind(
            tmp / "bad.json" + ": not a gpuperf ceilings cache file: not JSON", 0) == 0);
  CHECK(bad.error().message.find('\n') == std::string::npos);
  fs::create_directory(tmp / "dir.json");
  auto dir = ceilings::ReadCacheFile(tmp / "dir.json");
  REQUIRE_FALSE(dir.ok());
  CHECK(dir.error().message.rfind(tmp / "dir.json" + ": ", 0) == 0);
}

TEST_CASE("ceilings cache: a directory lists good entries and the errors of bad files",
          "[ceilings]") {
  TempDir tmp;
  WriteCache(tmp.path(), Measured());
  WriteCache(tmp.path(), Measured("GPU-00000000-1111-2222-3333-444444444444"));
  gpuperf::testing::WriteFile(tmp / "broken.json", "garbage");
  gpuperf::testing::WriteFile(tmp / "notes.txt", "ignored: not *.json");
  auto listing = ceilings::ReadCacheDir(tmp.path().string());
  REQUIRE(listing.ok());
  REQUIRE(listing->entries.size() == 2);
  CHECK(listing->entries[0].uuid == "GPU-00000000-1111-2222-3333-444444444444");  // by name
  REQUIRE(listing->errors.size() == 1);
  CHECK(listing->errors[0].rfind(tmp / "broken.json" + ": not a gpuperf ceilings cache file", 0) ==
        0);
  CHECK_FALSE(ceilings::ReadCacheDir(tmp / "missing").ok());

  // --ceilings: the first bad file fails the whole read; files and directories mix.
  auto all = ceilings::ReadCeilingsPaths({tmp.path().string()});
  REQUIRE_FALSE(all.ok());
  CHECK(all.error().message.rfind(tmp / "broken.json", 0) == 0);
  fs::remove(tmp / "broken.json");
  all = ceilings::ReadCeilingsPaths(
      {tmp.path().string(), tmp / (std::string(gpuperf::testing::kProbeUuid) + ".json")});
  REQUIRE(all.ok());
  CHECK(all->size() == 3);
  fs::create_directory(tmp / "empty");
  auto empty = ceilings::ReadCeilingsPaths({tmp / "empty"});
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.error().message ==
        tmp / "empty" + ": holds no *.json measured ceilings (gpuperf ceilings writes them)");
}

TEST_CASE("ceilings cache: the default directory follows XDG_CACHE_HOME, else HOME", "[ceilings]") {
  {
    ScopedEnv xdg("XDG_CACHE_HOME", "/xdg");
    ScopedEnv home("HOME", "/home/u");
    CHECK(ceilings::DefaultCacheDir() == "/xdg/gpuperf/ceilings");
  }
  {
    ScopedEnv xdg("XDG_CACHE_HOME", "relative/ignored");  // the XDG spec: absolute paths only
    ScopedEnv home("HOME", "/home/u");
    CHECK(ceilings::DefaultCacheDir() == "/home/u/.cache/gpuperf/ceilings");
  }
  {
    ScopedEnv xdg("XDG_CACHE_HOME", std::nullopt);
    ScopedEnv home("HOME", std::nullopt);
    CHECK(ceilings::DefaultCacheDir().empty());
  }
}

TEST_CASE("ceilings probe: located from --probe, the environment or beside gpuperf", "[ceilings]") {
  TempDir tmp;
  ScopedEnv env(ceilings::kProbeEnv, std::nullopt);
  fs::create_directories(tmp.path() / "build" / "src");
  fs::create_directories(tmp.path() / "build" / "kernels");
  const std::string self = tmp / "build/src/gpuperf";
  const std::string in_tree = tmp / "build/kernels/gpuperf_ceilings_probe";
  auto none = ceilings::LocateProbe("", self);
  REQUIRE_FALSE(none.ok());
  CHECK(none.error().message.rfind("gpuperf_ceilings_probe not found (looked for " +
                                       tmp / "build/src/gpuperf_ceilings_probe" + ", " + in_tree +
                                       "): pass --probe PATH or set GPUPERF_CEILINGS_PROBE",
                                   0) == 0);
  gpuperf::testing::WriteFile(in_tree, "#!/bin/sh\n");
  fs::permissions(in_tree, fs::perms::owner_all);
  CHECK(ceilings::LocateProbe("", self).value() == in_tree);
  CHECK(ceilings::LocateProbe(in_tree, "").value() == in_tree);
  CHECK(ceilings::LocateProbe(tmp / "nope", self).error().message ==
        "--probe " + tmp / "nope" + ": not an executable file");
  ScopedEnv set(ceilings::kProbeEnv, "/nonexistent/probe");
  CHECK(ceilings::LocateProbe("", self).error().message ==
        "GPUPERF_CEILINGS_PROBE=/nonexistent/probe is not an executable file");
}

TEST_CASE("ceilings probe: failures, timeouts and bad output are one line naming it",
          "[ceilings]") {
  TempDir tmp;
  auto script = [&](const std::string& name, const std::string& body) {
    const std::string path = tmp / name;
    gpuperf::testing::WriteFile(path, "#!/bin/sh\n" + body);
    fs::permissions(path, fs::perms::owner_all);
    return path;
  };
  const std::string failing =
      script("fail",
             "echo 'gpuperf_ceilings_probe: cudaErrorNoDevice: no CUDA-capable device' >&2\n"
             "exit 1\n");
  auto failed = ceilings::RunProbe(failing, 0, std::chrono::seconds(20));
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.error().message ==
        failing +
            ": exited with code 1: gpuperf_ceilings_probe: cudaErrorNoDevice: no "
            "CUDA-capable device");
  const std::string slow = script("slow", "exec sleep 30\n");
  auto killed = ceilings::RunProbe(slow, 0, std::chrono::milliseconds(300));
  REQUIRE_FALSE(killed.ok());
  CHECK(killed.error().message == slow + ": did not finish within 300 ms and was killed");
  const std::string garbage = script("garbage", "echo 'dram: 4 TB/s'\n");
  auto bad = ceilings::RunProbe(garbage, 0, std::chrono::seconds(20));
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.rfind(garbage + ": printed invalid ceilings: not JSON (", 0) == 0);
  // The device ordinal is passed on.
  const std::string good = script("good",
                                  "[ \"$1 $2\" = \"--device 3\" ] || exit 7\ncat <<'EOF'\n" +
                                      gpuperf::testing::ProbeJson() + "EOF\n");
  auto measured = ceilings::RunProbe(good, 3, std::chrono::seconds(20));
  REQUIRE(measured.ok());
  CHECK(measured->bf16_tensor.per_s == Approx(6e14));
  CHECK(ceilings::RunProbe(good, 0, std::chrono::seconds(20)).error().message ==
        good + ": exited with code 7");
}
