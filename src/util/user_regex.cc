#include "util/user_regex.h"

#include <pthread.h>

#include <exception>

namespace gpuperf::util {
namespace {

// Texts up to this length are matched on the caller's stack: a few hundred bytes of frames per
// character stay well inside the 8 MiB main stack (measured: 40,000 characters overflow it).
constexpr std::size_t kInlineSubjectLength = 2048;
// The matching thread's stack for longer texts: enough for kMaxUserSubjectLength characters.
constexpr std::size_t kMatchStackBytes = std::size_t{256} << 20;

std::string Quoted(std::string_view text) {
  return "'" + std::string(text) + "'";
}

void* RunJob(void* arg) {
  const auto* job = static_cast<const std::function<void()>*>(arg);
  (*job)();
  return nullptr;
}

// The search itself; never throws (regex_error and bad_alloc become the error).
Result<bool> SearchHere(const std::regex& regex,
                        std::string_view text,
                        std::vector<std::string>* groups) {
  try {
    std::match_results<std::string_view::const_iterator> match;
    if (!std::regex_search(text.begin(), text.end(), match, regex))
      return false;
    if (groups != nullptr) {
      groups->clear();
      for (std::size_t g = 1; g < match.size(); ++g)
        groups->push_back(match[g].matched ? match[g].str() : std::string());
    }
    return true;
  } catch (const std::exception& error) {
    return Error{std::string("the regex engine gave up (") + error.what() + ")"};
  }
}

}  // namespace

Result<UserRegex> UserRegex::Compile(const std::string& pattern) {
  if (pattern.empty())
    return Error{"empty pattern"};
  if (pattern.size() > kMaxUserPatternLength)
    return Error{Quoted(pattern.substr(0, 40)) + "...: longer than " +
                 std::to_string(kMaxUserPatternLength) + " characters"};
  UserRegex out;
  out.pattern_ = pattern;
  try {
    out.regex_ = std::regex(pattern, std::regex::ECMAScript);
  } catch (const std::exception& error) {
    return Error{Quoted(pattern) + ": not a valid ECMAScript regex (" + error.what() + ")"};
  }
  return out;
}

Result<bool> UserRegex::Search(std::string_view text, std::vector<std::string>* groups) const {
  if (text.size() > kMaxUserSubjectLength)
    return Error{"longer than " + std::to_string(kMaxUserSubjectLength) + " characters"};
  if (text.size() <= kInlineSubjectLength)
    return SearchHere(regex_, text, groups);
  Result<bool> result = Error{"no thread to match a long text on"};
  RunOnLargeStack([&] { result = SearchHere(regex_, text, groups); }, kMatchStackBytes);
  return result;
}

bool RunOnLargeStack(const std::function<void()>& job, std::size_t stack_bytes) {
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0)
    return false;
  pthread_t thread;
  const bool started =
      pthread_attr_setstacksize(&attr, stack_bytes) == 0 &&
      pthread_create(&thread, &attr, RunJob, const_cast<std::function<void()>*>(&job)) == 0;
  pthread_attr_destroy(&attr);
  if (started)
    pthread_join(thread, nullptr);
  return started;
}

}  // namespace gpuperf::util
