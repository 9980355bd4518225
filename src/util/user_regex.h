// The one matcher for regular expressions that come from the user (`predict --kernel`, the
// patterns of `analyze --model`). libstdc++'s std::regex compiles and matches recursively (one
// or more frames per character of the text), so an unbounded pattern or kernel name overflows
// the stack: patterns are bounded, texts are bounded, and texts longer than a few thousand
// characters are matched on a thread with a large stack.
#pragma once

#include "gpuperf/result.h"

#include <cstddef>
#include <functional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace gpuperf::util {

// Longer patterns are refused: std::regex compiles nested groups recursively.
inline constexpr std::size_t kMaxUserPatternLength = 1024;
// Longer texts are never matched (Search returns an error naming the limit).
inline constexpr std::size_t kMaxUserSubjectLength = 65536;

class UserRegex {
 public:
  UserRegex() = default;

  // An ECMAScript regex. Errors quote the pattern: "'sgemm_(': not a valid ECMAScript regex
  // (...)", "'...': longer than 1024 characters".
  static Result<UserRegex> Compile(const std::string& pattern);

  // Whether the regex is found in `text`; `groups` (when given) receives the capture groups
  // 1..N of the match ("" for a group that took no part). Errors: the text is longer than
  // kMaxUserSubjectLength, or the engine gave up (complexity, memory).
  Result<bool> Search(std::string_view text, std::vector<std::string>* groups = nullptr) const;

  std::size_t mark_count() const { return regex_.mark_count(); }
  const std::string& pattern() const { return pattern_; }

 private:
  std::string pattern_;
  std::regex regex_;
};

// Runs `job` on a new thread with a stack of `stack_bytes` (reserved, touched only as deep as
// the job goes) and waits for it. False when no such thread could be started (job not run).
bool RunOnLargeStack(const std::function<void()>& job, std::size_t stack_bytes);

}  // namespace gpuperf::util
