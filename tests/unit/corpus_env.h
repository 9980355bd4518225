// GPUPERF_CORPUS may be relative, as the README writes it (`GPUPERF_CORPUS=../shared/traces ctest
// --test-dir build`): ctest runs each test in build/tests/, so a relative path is resolved here
// once, before any test reads it, against the directory the user typed the command in (the
// shell's PWD), then against the test's own working directory.
#pragma once

#include <string>

namespace gpuperf::testing {

// The absolute corpus root for `value` (GPUPERF_CORPUS), trying `shell_dir` then `work_dir` as
// the base of a relative path; `value` itself when it is absolute, empty, or found under neither.
std::string ResolveCorpusRoot(const std::string& value,
                              const std::string& shell_dir,
                              const std::string& work_dir);

}  // namespace gpuperf::testing
