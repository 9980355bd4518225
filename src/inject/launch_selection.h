// Which kernel launches the counter pass profiles: the kernel names the CLI chose (the top
// kernels by time of the timed runs, one demangled name per line in GPUPERF_METRICS_KERNELS),
// up to a number of launches per name, so that replay stays bounded (docs/recorder.md).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace gpuperf::inject {

class LaunchSelection {
 public:
  // `names_text`: one kernel name per line (as the trace shows it, demangled); an empty text
  // selects every kernel. `per_name`: launches profiled per name (at least 1).
  LaunchSelection(std::string_view names_text, std::int64_t per_name);

  // Whether to profile this launch of `symbol` (the launch callback's mangled symbolName); counts
  // it when so. `name` receives the demangled name. Thread-safe.
  bool Take(const char* symbol, std::string& name);

  std::int64_t selected_names() const { return static_cast<std::int64_t>(wanted_.size()); }
  std::int64_t skipped_launches() const { return skipped_; }

 private:
  std::mutex mutex_;
  bool all_ = false;
  std::int64_t per_name_ = 1;
  std::map<std::string, std::int64_t, std::less<>> wanted_;  // name -> launches taken so far
  std::map<std::string, std::int64_t, std::less<>> taken_all_;
  std::unordered_map<std::string, std::string> demangled_;  // symbol -> name, a cache
  std::int64_t skipped_ = 0;
};

}  // namespace gpuperf::inject
