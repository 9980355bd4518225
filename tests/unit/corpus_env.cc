#include "corpus_env.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;

namespace gpuperf::testing {

std::string ResolveCorpusRoot(const std::string& value,
                              const std::string& shell_dir,
                              const std::string& work_dir) {
  if (value.empty() || fs::path(value).is_absolute())
    return value;
  for (const std::string& base : {shell_dir, work_dir}) {
    std::error_code error;
    if (!base.empty() && fs::is_directory(fs::path(base) / value, error))
      return fs::weakly_canonical(fs::path(base) / value, error).string();
  }
  return value;
}

namespace {

// Runs before main(): every corpus test reads the variable through getenv.
const bool kCorpusResolved = [] {
  const char* value = std::getenv("GPUPERF_CORPUS");
  const char* shell_dir = std::getenv("PWD");
  std::error_code error;
  if (value != nullptr) {
    std::string resolved = ResolveCorpusRoot(
        value, shell_dir == nullptr ? "" : shell_dir, fs::current_path(error).string());
    ::setenv("GPUPERF_CORPUS", resolved.c_str(), 1);
  }
  return true;
}();

TEST_CASE("a relative GPUPERF_CORPUS is resolved against the shell's directory first") {
  const fs::path root = fs::temp_directory_path() / "gpuperf_corpus_env_test";
  fs::create_directories(root / "repo" / "build" / "tests");
  fs::create_directories(root / "shared" / "traces");
  const std::string shell = (root / "repo").string();
  const std::string work = (root / "repo" / "build" / "tests").string();
  CHECK(ResolveCorpusRoot("../shared/traces", shell, work) ==
        fs::weakly_canonical(root / "shared" / "traces").string());
  CHECK(ResolveCorpusRoot("../../../shared/traces", "", work) ==
        fs::weakly_canonical(root / "shared" / "traces").string());
  CHECK(ResolveCorpusRoot("/abs/path", shell, work) == "/abs/path");
  CHECK(ResolveCorpusRoot("nowhere", shell, work) == "nowhere");
  CHECK(ResolveCorpusRoot("", shell, work).empty());
  fs::remove_all(root);
  (void)kCorpusResolved;
}

}  // namespace
}  // namespace gpuperf::testing
