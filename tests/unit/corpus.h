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

// True when GPUPERF_CORPUS is set. Otherwise a visible WARN that `unchecked` is not checked, then
// the skip exit under CTest; run directly, false.
inline bool CorpusIsSet(const std::string& unchecked) {
  const char* root = std::getenv("GPUPERF_CORPUS");
  if (root != nullptr && *root != '\0')
    return true;
  WARN("SKIPPED: GPUPERF_CORPUS is unset, " << unchecked);
  if (const char* code = std::getenv("GPUPERF_SKIP_RETURN_CODE"); code && *code) {
    std::fflush(nullptr);
    std::exit(std::atoi(code));
  }
  return false;
}

// Returns the absolute path of `relative` inside the corpus, or nullopt after a visible WARN when
// GPUPERF_CORPUS is unset. A set variable pointing at a missing file fails the test: a corpus
// that is there but incomplete must not pass silently.
inline std::optional<std::string> CorpusFile(const std::string& relative) {
  if (!CorpusIsSet("corpus file not checked: " + relative))
    return std::nullopt;
  std::filesystem::path path = std::filesystem::path(std::getenv("GPUPERF_CORPUS")) / relative;
  REQUIRE(std::filesystem::exists(path));
  return path.string();
}

}  // namespace gpuperf::testing
