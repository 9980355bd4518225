// An environment variable set (or unset) for one scope, restored on exit; shared by the tests
// that steer tool discovery and cache locations through the environment.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

namespace gpuperf::testing {

// Sets (or, with nullopt, unsets) an environment variable and restores it on scope exit.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::optional<std::string>& value) : name_(name) {
    if (const char* old = std::getenv(name))
      old_ = old;
    if (value)
      ::setenv(name, value->c_str(), 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace gpuperf::testing
