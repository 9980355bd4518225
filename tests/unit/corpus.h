// Access to the shared corpus of real traces (../shared/traces), which tests read in place through
// the GPUPERF_CORPUS environment variable (.ci/run sets it). When it is unset, a corpus test says
// so visibly with WARN; under CTest (which runs one test case per process and sets
// GPUPERF_SKIP_RETURN_CODE) it then exits with that code, which CTest reports as skipped, not
// passed. Run directly, the binary goes on and the test passes without checking anything.
#pragma once

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

namespace gpuperf::testing {

// Returns the absolute path of `relative` inside the corpus, or nullopt after a visible WARN when
// GPUPERF_CORPUS is unset. A set variable pointing at a missing file fails the test: a corpus
// that is there but incomplete must not pass silently.
inline std::optional<std::string> CorpusFile(const std::string& relative) {
  const char* root = std::getenv("GPUPERF_CORPUS");
  if (root == nullptr || *root == '\0') {
    WARN("SKIPPED: GPUPERF_CORPUS is unset, corpus file not checked: " << relative);
    if (const char* code = std::getenv("GPUPERF_SKIP_RETURN_CODE"); code && *code) {
      std::fflush(nullptr);
      std::exit(std::atoi(code));
    }
    return std::nullopt;
  }
  std::filesystem::path path = std::filesystem::path(root) / relative;
  REQUIRE(std::filesystem::exists(path));
  return path.string();
}

}  // namespace gpuperf::testing
