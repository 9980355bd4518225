// StagedOutput: a report directory is one unit (all files of one run, or the old report whole),
// temporaries live in a private staging directory, and nothing is left behind.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "cli/staged_output.h"
#include "cli_test_support.h"

namespace gpuperf::cli {
namespace {

namespace fs = std::filesystem;

std::size_t EntriesIn(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir))
    ++n;
  return n;
}

// A pid that ran and is gone: a child that exited at once.
pid_t DeadPid() {
  const pid_t child = fork();
  if (child == 0)
    _exit(0);
  int status = 0;
  waitpid(child, &status, 0);
  return child;
}

std::string Host() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  return host;
}

TEST_CASE("StagedOutput shows files only after Commit") {
  testing::TempDir dir;
  fs::path out = dir.path() / "nested" / "report";
  StagedOutput output(out);
  REQUIRE(output.Prepare().ok());
  REQUIRE(output.Stage("report.md", "# md\n").ok());
  REQUIRE(output.Stage("report.json", "{}\n").ok());
  CHECK_FALSE(fs::exists(out / "report.md"));
  REQUIRE(output.Commit().ok());
  CHECK(testing::ReadFile(out / "report.md") == "# md\n");
  CHECK(testing::ReadFile(out / "report.json") == "{}\n");
  CHECK(EntriesIn(out) == 2);                // no temporaries left
  CHECK(EntriesIn(out.parent_path()) == 1);  // nor a staging directory beside it
  CHECK(output.written() ==
        std::vector<std::string>{(out / "report.md").string(), (out / "report.json").string()});
}

TEST_CASE("StagedOutput removes its staging directory when not committed") {
  testing::TempDir dir;
  fs::create_directory(dir.path() / "out");
  {
    StagedOutput output(dir.path() / "out");
    REQUIRE(output.Prepare().ok());
    REQUIRE(output.Stage("report.md", "partial").ok());
    CHECK(EntriesIn(dir.path()) == 2);  // out and the staging directory
  }
  CHECK(EntriesIn(dir.path()) == 1);
  CHECK(EntriesIn(dir.path() / "out") == 0);
}

TEST_CASE("StagedOutput keeps an old report whole until the new one is complete") {
  testing::TempDir dir;
  fs::create_directory(dir.path() / "out");
  testing::WriteFile(dir.path() / "out" / "report.md", "old");
  {
    StagedOutput output(dir.path() / "out");
    REQUIRE(output.Prepare().ok());
    REQUIRE(output.Stage("report.md", "new").ok());
  }
  CHECK(testing::ReadFile(dir.path() / "out" / "report.md") == "old");
}

TEST_CASE("StagedOutput reports a directory it cannot create, naming it") {
  testing::TempDir dir;
  testing::WriteFile(dir / "file", "x");
  StagedOutput output(dir.path() / "file" / "sub");
  Status status = output.Prepare();
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().message.rfind((dir.path() / "file" / "sub").string() + ": ", 0) == 0);
}

TEST_CASE(
    "StagedOutput: a report file that is a directory fails the commit, the old report stays") {
  testing::TempDir dir;
  const fs::path out = dir.path() / "out";
  fs::create_directories(out / "report.json" / "keep");  // cannot be replaced by a file
  testing::WriteFile(out / "report.md", "old");
  StagedOutput output(out);
  REQUIRE(output.Prepare().ok());
  REQUIRE(output.Stage("report.md", "new").ok());
  REQUIRE(output.Stage("report.json", "{}").ok());
  Status status = output.Commit();
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().message.find("report.json: not a regular file") != std::string::npos);
  CHECK(testing::ReadFile(out / "report.md") == "old");  // not half of the new report
  CHECK(fs::is_directory(out / "report.json" / "keep"));
  CHECK(EntriesIn(dir.path()) == 1);  // no staging left
}

TEST_CASE("StagedOutput: files of an earlier report that this run does not write are removed") {
  testing::TempDir dir;
  const fs::path out = dir.path() / "out";
  fs::create_directory(out);
  testing::WriteFile(out / "roofline.svg", "<svg/>");
  testing::WriteFile(out / "report.md", "old");
  StagedOutput output(out);
  REQUIRE(output.Prepare().ok());
  REQUIRE(output.Stage("report.md", "new").ok());
  REQUIRE(output.Commit().ok());
  CHECK_FALSE(fs::exists(out / "roofline.svg"));
  CHECK(testing::ReadFile(out / "report.md") == "new");
}

TEST_CASE("StagedOutput: the user's own files in the directory stay") {
  testing::TempDir dir;
  const fs::path out = dir.path() / "out";
  fs::create_directory(out);
  testing::WriteFile(out / "notes.txt", "mine");
  testing::WriteFile(out / "roofline.svg", "<svg/>");
  StagedOutput output(out);
  REQUIRE(output.Prepare().ok());
  REQUIRE(output.Stage("report.md", "new").ok());
  REQUIRE(output.Commit().ok());
  CHECK(testing::ReadFile(out / "notes.txt") == "mine");
  CHECK(testing::ReadFile(out / "report.md") == "new");
  CHECK_FALSE(fs::exists(out / "roofline.svg"));
  CHECK(EntriesIn(out) == 2);
}

TEST_CASE("StagedOutput never follows a link planted at a final name") {
  testing::TempDir dir;
  const fs::path out = dir.path() / "out";
  fs::create_directory(out);
  testing::WriteFile(dir.path() / "victim", "secret");
  fs::create_symlink(dir.path() / "victim", out / "report.md");
  StagedOutput output(out);
  REQUIRE(output.Prepare().ok());
  REQUIRE(output.Stage("report.md", "new").ok());
  REQUIRE(output.Commit().ok());
  CHECK(testing::ReadFile(dir.path() / "victim") == "secret");
  CHECK_FALSE(fs::is_symlink(out / "report.md"));
  CHECK(testing::ReadFile(out / "report.md") == "new");
}

TEST_CASE("StagedOutput stages in a private directory and never reuses a name") {
  testing::TempDir dir;
  StagedOutput output(dir.path() / "out");
  REQUIRE(output.Prepare().ok());
  fs::path staging;
  for (const auto& entry : fs::directory_iterator(dir.path()))
    staging = entry.path();
  REQUIRE(staging.filename().string().rfind(".out.gpuperf-staging-" + std::to_string(getpid()),
                                            0) == 0);
  struct stat info {};
  REQUIRE(::stat(staging.c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0700);
  REQUIRE(output.Stage("report.md", "one").ok());
  CHECK_FALSE(output.Stage("report.md", "two").ok());  // O_EXCL: an existing name is an error
}

TEST_CASE("StagedOutput removes staging directories of dead processes") {
  testing::TempDir dir;
  const fs::path stale =
      dir.path() / (".out.gpuperf-staging-" + std::to_string(DeadPid()) + "@" + Host() + ".Ab12Cd");
  fs::create_directory(stale);
  testing::WriteFile(stale / "report.json", std::string(1000, 'x'));
  const fs::path alive =
      dir.path() / (".out.gpuperf-staging-" + std::to_string(getppid()) + "@" + Host() + ".Zz99Zz");
  fs::create_directory(alive);
  {
    StagedOutput output(dir.path() / "out");
    REQUIRE(output.Prepare().ok());
  }
  CHECK_FALSE(fs::exists(stale));
  CHECK(fs::exists(alive));  // its owner still runs
}

TEST_CASE("StagedOutput: SIGTERM while staging removes the staging directory") {
  testing::TempDir dir;
  const pid_t child = fork();
  if (child == 0) {
    signal(SIGTERM, SIG_DFL);  // not Catch2's handler: the default action, after ours
    StagedOutput output(dir.path() / "out");
    if (!output.Prepare().ok() || !output.Stage("report.md", std::string(1 << 20, 'x')).ok())
      _exit(3);
    raise(SIGTERM);
    _exit(4);  // not reached: SIGTERM's default action ends the process after the cleanup
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  CHECK(EntriesIn(dir.path()) == 0);
}

TEST_CASE("StagedOutput: staging left by a SIGKILL is removed by the next run") {
  testing::TempDir dir;
  const pid_t child = fork();
  if (child == 0) {
    StagedOutput output(dir.path() / "out");
    if (!output.Prepare().ok() || !output.Stage("report.md", "x").ok())
      _exit(3);
    raise(SIGKILL);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(EntriesIn(dir.path()) == 1);  // the litter
  StagedOutput output(dir.path() / "out");
  REQUIRE(output.Prepare().ok());
  REQUIRE(output.Stage("report.md", "y").ok());
  REQUIRE(output.Commit().ok());
  CHECK(EntriesIn(dir.path()) == 1);  // out only
}

TEST_CASE("StagedOutput kFiles replaces its own files and leaves the rest of the directory") {
  testing::TempDir dir;
  testing::WriteFile(dir.path() / "other-gpu.json", "{}");
  testing::WriteFile(dir.path() / "report.md", "not ours to remove");
  StagedOutput output(dir.path(), StagedOutput::Mode::kFiles);
  REQUIRE(output.Prepare().ok());
  REQUIRE(output.Stage("gpu.json", "{\"a\":1}").ok());
  REQUIRE(output.Commit().ok());
  CHECK(testing::ReadFile(dir.path() / "gpu.json") == "{\"a\":1}");
  CHECK(fs::exists(dir.path() / "other-gpu.json"));
  CHECK(fs::exists(dir.path() / "report.md"));
  CHECK(EntriesIn(dir.path()) == 3);
}

}  // namespace
}  // namespace gpuperf::cli
