#include "io/sass/child_process.h"

#include <cstring>

namespace gpuperf::io::sass {

Result<ChildOutcome> RunCaptured(const std::vector<std::string>& argv,
                                 std::chrono::milliseconds timeout,
                                 const std::function<void(std::string_view)>& on_stdout) {
  if (argv.empty())
    return Error{"no program to run"};
  const std::string& program = argv.front();
  util::ChildSpec spec;
  spec.argv = argv;
  spec.on_output = on_stdout;
  spec.timeout = timeout;  // SIGKILL at once: a helper tool has nothing to save
  spec.reset_signals = true;
  auto outcome = util::RunChild(spec);
  if (!outcome.ok())
    return Error{program + ": " + outcome.error().message};
  if (outcome->exec_errno != 0)
    return Error{program + ": cannot run: " + std::strerror(outcome->exec_errno)};
  return outcome;
}

}  // namespace gpuperf::io::sass
