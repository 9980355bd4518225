// The one way gpuperf runs a child process: fork, then exec a program or run a function, with
// an optional deadline (SIGTERM, then SIGKILL after a grace period, or SIGKILL at once), the
// child's output captured or its stdin/stdout/stderr left untouched, its exit status or signal
// and resource use reported, and the child always reaped (no zombie). Every wait is EINTR-safe.
//
// Used by the launcher of the traced program (record/launcher: stdio passed through, signals
// forwarded), the isolated CUDA probe (record/cuda_probe_isolated: a function in the child) and
// the helper tools cuobjdump and gpuperf_ceilings_probe (io/sass/child_process: output captured).
#pragma once

#include "gpuperf/result.h"

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuperf::util {

// A captured stderr beyond this is read and dropped: only its first lines go into messages.
inline constexpr std::size_t kMaxChildStderrBytes = 16 * 1024;

struct ChildSpec {
  // What the child does. Without `body`: exec `argv` (argv[0] is a path, or looked up in PATH
  // like a shell would when `search_path`) with `environment` ("NAME=value" entries; unset:
  // gpuperf's own). With `body`: run it in the forked child and _exit with what it returns
  // (argv unused); it gets the capture pipe (see on_output) or -1.
  std::vector<std::string> argv;
  bool search_path = false;
  std::optional<std::vector<std::string>> environment;
  std::function<int(int output_fd)> body;

  // Unset: the child shares gpuperf's stdin, stdout and stderr, untouched. Set: each chunk of
  // the child's output reaches it as it arrives; for a program that is its stdout (stdin then
  // reads /dev/null and stderr is kept in ChildOutcome::stderr_text, at most
  // max_stderr_bytes), for a body what it writes to output_fd (its stdio stays gpuperf's).
  std::function<void(std::string_view)> on_output;
  std::size_t max_stderr_bytes = kMaxChildStderrBytes;

  // Counted from the start; 0: no deadline (waits as long as it takes and reaps the child the
  // moment it ends). At the deadline output stops being read and the child gets SIGTERM, and
  // SIGKILL `kill_grace` later; a zero grace sends SIGKILL at once.
  std::chrono::milliseconds timeout{0};
  std::chrono::milliseconds kill_grace{0};

  // True: before exec the child gets an empty signal mask and default dispositions for SIGPIPE,
  // SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD and SIGALRM, so a tool behaves as from a shell
  // whatever gpuperf blocks or ignores. False: it inherits them.
  bool reset_signals = false;
  // In the child right after fork, before anything else: async-signal-safe calls only (e.g.
  // restoring signal dispositions the caller changed around the run).
  std::function<void()> in_child;
  // In gpuperf right after fork, with the child's pid (e.g. to forward signals to it).
  std::function<void(pid_t)> on_started;
};

struct ChildOutcome {
  bool timed_out = false;    // the deadline passed and the child was signalled
  bool signaled = false;     // ended by a signal (also when timed_out, unless it exited)
  int exit_code = 0;         // valid when !signaled
  int signal = 0;            // valid when signaled
  int exec_errno = 0;        // not 0: exec failed with this errno, the program never ran
  std::string stderr_text;   // captured programs only, at most max_stderr_bytes
  std::int64_t wall_ns = 0;  // steady clock, just before fork to the reap
  std::int64_t max_rss_kb = 0;
  double user_s = 0;
  double system_s = 0;
};

// Runs the child to its end. Fails only when it could not be started ("pipe: …", "fork: …", or
// an empty argv without a body); an exec that fails is an outcome (exec_errno), and so is a
// child that fails, crashes or runs past its deadline.
Result<ChildOutcome> RunChild(const ChildSpec& spec);

}  // namespace gpuperf::util
