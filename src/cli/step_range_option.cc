#include "cli/step_range_option.h"

#include "util/user_regex.h"

namespace gpuperf::cli {

void AddStepRangeOption(CLI::App* sub, std::string& pattern) {
  sub->add_option("--step-range",
                  pattern,
                  "Steps are the NVTX ranges, annotations or operators whose name matches this "
                  "regular expression (ECMAScript); default: PyTorch's ProfilerStep#N")
      ->type_name("REGEX")
      ->check([](const std::string& text) -> std::string {
        // The one guard for user regexes: a bounded length, compiled without throwing.
        auto compiled = util::UserRegex::Compile(text);
        return compiled.ok() ? std::string() : compiled.error().message;
      });
}

}  // namespace gpuperf::cli
