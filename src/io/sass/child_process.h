// Runs a helper tool (cuobjdump, gpuperf_ceilings_probe) through the one child-process runner
// (util/child_process.h) and captures what it prints: no shell, stdin from /dev/null, stdout
// streamed to a callback, stderr kept for the error message, default signal dispositions, and a
// deadline after which the child is killed. Never hangs on a child that stalls or closes its
// pipes early.
#pragma once

#include "gpuperf/result.h"

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "util/child_process.h"

namespace gpuperf::io::sass {

// stderr beyond this is read and dropped: only the first lines go into an error message.
inline constexpr std::size_t kMaxStderrBytes = util::kMaxChildStderrBytes;

// timed_out: killed with SIGKILL at the deadline; stderr_text: at most kMaxStderrBytes.
using util::ChildOutcome;

// Runs argv[0] (a path; PATH is not searched) with `argv`. Each chunk of the child's stdout is
// passed to `on_stdout` as it arrives. Fails only when the child could not be started (the
// message names the program and the errno text); a failing child is an outcome, not an error.
Result<ChildOutcome> RunCaptured(const std::vector<std::string>& argv,
                                 std::chrono::milliseconds timeout,
                                 const std::function<void(std::string_view)>& on_stdout);

}  // namespace gpuperf::io::sass
