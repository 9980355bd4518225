#include <catch2/catch.hpp>

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

TEST_CASE("StagedOutput shows files only after Commit") {
  testing::TempDir dir;
  fs::path out = dir.path() / "nested" / "report";
  StagedOutput output(out);
  REQUIRE(output.Prepare().ok());
  REQUIRE(output.Stage("report.md", "# md\n").ok());
  REQUIRE(output.Stage("report.json", "{}\n").ok());
  CHECK_FALSE(fs::exists(out / "report.md"));
  CHECK(EntriesIn(out) == 2);  // the two temporaries
  REQUIRE(output.Commit().ok());
  CHECK(testing::ReadFile(out / "report.md") == "# md\n");
  CHECK(testing::ReadFile(out / "report.json") == "{}\n");
  CHECK(EntriesIn(out) == 2);  // no temporaries left
  CHECK(output.written() ==
        std::vector<std::string>{(out / "report.md").string(), (out / "report.json").string()});
}

TEST_CASE("StagedOutput removes its temporaries when not committed") {
  testing::TempDir dir;
  {
    StagedOutput output(dir.path());
    REQUIRE(output.Prepare().ok());
    REQUIRE(output.Stage("report.md", "partial").ok());
    CHECK(EntriesIn(dir.path()) == 1);
  }
  CHECK(EntriesIn(dir.path()) == 0);
}

TEST_CASE("StagedOutput keeps an old report whole until the new one is complete") {
  testing::TempDir dir;
  testing::WriteFile(dir / "report.md", "old");
  {
    StagedOutput output(dir.path());
    REQUIRE(output.Prepare().ok());
    REQUIRE(output.Stage("report.md", "new").ok());
  }
  CHECK(testing::ReadFile(dir / "report.md") == "old");
}

TEST_CASE("StagedOutput reports a directory it cannot create, naming it") {
  testing::TempDir dir;
  testing::WriteFile(dir / "file", "x");
  StagedOutput output(dir.path() / "file" / "sub");
  Status status = output.Prepare();
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().message.rfind((dir.path() / "file" / "sub").string() + ": ", 0) == 0);
}

TEST_CASE("StagedOutput fails a commit onto a directory and leaves no temporaries") {
  testing::TempDir dir;
  fs::create_directory(dir.path() / "report.json");  // rename() cannot replace a directory
  fs::create_directory(dir.path() / "report.json" / "keep");
  StagedOutput output(dir.path());
  REQUIRE(output.Prepare().ok());
  REQUIRE(output.Stage("report.json", "{}").ok());
  Status status = output.Commit();
  REQUIRE_FALSE(status.ok());
  CHECK(status.error().message.find("report.json: cannot move the report into place") !=
        std::string::npos);
  CHECK(EntriesIn(dir.path()) == 1);
}

}  // namespace
}  // namespace gpuperf::cli
