// Runs the traced program once: fork, execvp with the recorder's environment added, wait.
// The child inherits gpuperf's stdin, stdout and stderr untouched and stays in gpuperf's process
// group, so terminal signals (Ctrl-C) reach it directly; SIGTERM/SIGHUP sent to gpuperf, and a
// SIGINT sent by another process, are forwarded.
#pragma once

#include "gpuperf/baseline.h"
#include "gpuperf/result.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gpuperf::record {

struct ChildSpec {
  std::vector<std::string> argv;  // argv[0] is looked up in PATH like a shell would
  std::vector<std::pair<std::string, std::string>> set_env;  // added or replaced
  std::vector<std::string> unset_env;
  // 0: wait as long as it takes (the timed runs: reaped the moment they end). Else the program
  // gets SIGTERM after this long, and SIGKILL 5 s later; RunOutcome::timed_out says so.
  std::int64_t timeout_ms = 0;
};

using baseline::RunOutcome;

// Runs the program to completion. Fails only when it could not be started (the message names the
// program and the errno text); a program that fails or crashes is an outcome, not an error.
Result<RunOutcome> RunChild(const ChildSpec& spec);

// The signal (SIGINT/SIGTERM/SIGHUP) gpuperf received during the last RunChild, 0 if none.
// The orchestrator stops repeating when it is set.
int LastInterruptSignal();

// "exit code 3" or "signal 9 (Killed)".
using baseline::DescribeOutcome;

// The absolute path execvp would run for `program`, or "" when not found.
std::string ResolveProgram(const std::string& program);

}  // namespace gpuperf::record
