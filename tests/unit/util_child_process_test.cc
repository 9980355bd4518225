// util::RunChild, the one child-process runner: one test per behaviour (capture, pass-through,
// exit status and signal, exec failure, deadline with and without a grace, a function in the
// child, the environment, EINTR, no zombie).
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "util/child_process.h"

namespace gpuperf::util {
namespace {

using namespace std::chrono_literals;

ChildSpec Shell(const std::string& script) {
  ChildSpec spec;
  spec.argv = {"/bin/sh", "-c", script};
  return spec;
}

// True when `pid` was reaped: it is no child of ours any more.
bool Reaped(pid_t pid) {
  int status = 0;
  return ::waitpid(pid, &status, WNOHANG) < 0 && errno == ECHILD;
}

}  // namespace

TEST_CASE("RunChild: captured stdout reaches the callback and stderr is kept up to its limit") {
  ChildSpec spec = Shell("read line; echo \"stdin:$line\"; echo out; printf 0123456789 >&2");
  std::string out;
  spec.on_output = [&out](std::string_view chunk) { out.append(chunk); };
  spec.max_stderr_bytes = 4;
  auto outcome = RunChild(spec);
  REQUIRE(outcome.ok());
  CHECK(out == "stdin:\nout\n");  // stdin reads /dev/null
  CHECK(outcome->stderr_text == "0123");
  CHECK(outcome->exit_code == 0);
  CHECK_FALSE(outcome->timed_out);
}

TEST_CASE("RunChild: without a capture the child writes to gpuperf's own stdout") {
  int pipe_fds[2];
  REQUIRE(::pipe(pipe_fds) == 0);
  const int saved = ::dup(1);
  ::dup2(pipe_fds[1], 1);
  auto outcome = RunChild(Shell("echo passed through"));
  ::dup2(saved, 1);
  ::close(saved);
  ::close(pipe_fds[1]);
  char buffer[64] = {};
  const ssize_t n = ::read(pipe_fds[0], buffer, sizeof(buffer) - 1);
  ::close(pipe_fds[0]);
  REQUIRE(outcome.ok());
  CHECK(std::string(buffer, n > 0 ? static_cast<std::size_t>(n) : 0) == "passed through\n");
}

TEST_CASE("RunChild: an exit code and a killing signal are reported") {
  auto exited = RunChild(Shell("exit 3"));
  REQUIRE(exited.ok());
  CHECK_FALSE(exited->signaled);
  CHECK(exited->exit_code == 3);
  CHECK(exited->wall_ns > 0);

  auto killed = RunChild(Shell("kill -SEGV $$"));
  REQUIRE(killed.ok());
  CHECK(killed->signaled);
  CHECK(killed->signal == SIGSEGV);
  CHECK_FALSE(killed->timed_out);
}

TEST_CASE(
    "RunChild: a program that cannot be executed is an outcome with its errno and is reaped") {
  ChildSpec spec;
  spec.argv = {"/nonexistent/tool", "-x"};
  pid_t pid = 0;
  spec.on_started = [&pid](pid_t started) { pid = started; };
  auto outcome = RunChild(spec);
  REQUIRE(outcome.ok());
  CHECK(outcome->exec_errno == ENOENT);
  CHECK(Reaped(pid));

  ChildSpec nothing;
  CHECK_FALSE(RunChild(nothing).ok());  // no argv and no body
}

TEST_CASE("RunChild: a deadline with a grace sends SIGTERM then SIGKILL to a child ignoring it") {
  ChildSpec polite = Shell("exec sleep 30");
  polite.timeout = 100ms;
  polite.kill_grace = 5s;
  auto ended = RunChild(polite);
  REQUIRE(ended.ok());
  CHECK(ended->timed_out);
  CHECK(ended->signal == SIGTERM);
  CHECK(ended->wall_ns < 3'000'000'000);

  ChildSpec stubborn = Shell("trap '' TERM; exec sleep 30");  // no orphan keeps stdout
  stubborn.timeout = 100ms;
  stubborn.kill_grace = 200ms;
  pid_t pid = 0;
  stubborn.on_started = [&pid](pid_t started) { pid = started; };
  auto killed = RunChild(stubborn);
  REQUIRE(killed.ok());
  CHECK(killed->timed_out);
  CHECK(killed->signal == SIGKILL);
  CHECK(killed->wall_ns >= 300'000'000);  // the deadline and the grace
  CHECK(Reaped(pid));
}

TEST_CASE("RunChild: without a grace the deadline kills at once even while output flows") {
  ChildSpec spec;
  spec.argv = {"/bin/sh", "-c", "trap '' TERM; while :; do echo y; done"};
  std::size_t bytes = 0;
  spec.on_output = [&bytes](std::string_view chunk) { bytes += chunk.size(); };
  spec.timeout = 200ms;
  auto outcome = RunChild(spec);
  REQUIRE(outcome.ok());
  CHECK(outcome->timed_out);
  CHECK(outcome->signal == SIGKILL);
  CHECK(bytes > 0);
  CHECK(outcome->wall_ns < 5'000'000'000);
}

TEST_CASE("RunChild: a body runs in the child and writes to the capture and sets the exit code") {
  ChildSpec spec;
  spec.body = [](int fd) {
    const char text[] = "from the child";
    [[maybe_unused]] ssize_t n = ::write(fd, text, sizeof(text) - 1);
    return 7;
  };
  std::string out;
  spec.on_output = [&out](std::string_view chunk) { out.append(chunk); };
  auto outcome = RunChild(spec);
  REQUIRE(outcome.ok());
  CHECK(out == "from the child");
  CHECK(outcome->exit_code == 7);

  ChildSpec hangs;
  hangs.body = [](int) {
    ::pause();
    return 0;
  };
  hangs.on_output = [](std::string_view) {};
  hangs.timeout = 100ms;
  auto killed = RunChild(hangs);
  REQUIRE(killed.ok());
  CHECK(killed->timed_out);
  CHECK(killed->signal == SIGKILL);
}

TEST_CASE("RunChild: the environment is replaced and the program looked up in PATH") {
  ChildSpec spec;
  spec.argv = {"sh", "-c", "printf %s \"$GPUPERF_CHILD_TEST\""};
  spec.search_path = true;
  spec.environment = std::vector<std::string>{"GPUPERF_CHILD_TEST=seen", "PATH=/usr/bin:/bin"};
  std::string out;
  spec.on_output = [&out](std::string_view chunk) { out.append(chunk); };
  auto outcome = RunChild(spec);
  REQUIRE(outcome.ok());
  CHECK(outcome->exec_errno == 0);
  CHECK(out == "seen");
}

TEST_CASE("RunChild: signals that interrupt gpuperf's waits (EINTR) change nothing") {
  struct sigaction tick {
  }, previous{};
  tick.sa_handler = [](int) {};
  sigemptyset(&tick.sa_mask);
  tick.sa_flags = 0;  // no SA_RESTART: every wait and read sees EINTR
  REQUIRE(::sigaction(SIGALRM, &tick, &previous) == 0);
  itimerval every_ms{{0, 1000}, {0, 1000}};
  ::setitimer(ITIMER_REAL, &every_ms, nullptr);

  ChildSpec waited = Shell("sleep 0.2; exit 4");  // a blocking wait
  auto first = RunChild(waited);
  ChildSpec captured = Shell("sleep 0.1; echo done");
  captured.timeout = 10s;  // the polling reap and the output loop
  std::string out;
  captured.on_output = [&out](std::string_view chunk) { out.append(chunk); };
  auto second = RunChild(captured);

  itimerval off{};
  ::setitimer(ITIMER_REAL, &off, nullptr);
  ::sigaction(SIGALRM, &previous, nullptr);
  REQUIRE(first.ok());
  CHECK(first->exit_code == 4);
  REQUIRE(second.ok());
  CHECK_FALSE(second->timed_out);
  CHECK(out == "done\n");
}

TEST_CASE("RunChild: reset_signals gives the program default dispositions") {
  struct sigaction ignore_pipe {
  }, previous_pipe{};
  ignore_pipe.sa_handler = SIG_IGN;
  sigemptyset(&ignore_pipe.sa_mask);
  REQUIRE(::sigaction(SIGPIPE, &ignore_pipe, &previous_pipe) == 0);
  ChildSpec inherits = Shell("kill -PIPE $$; exit 0");
  auto ignored = RunChild(inherits);
  ChildSpec reset = inherits;
  reset.reset_signals = true;
  auto defaulted = RunChild(reset);
  ::sigaction(SIGPIPE, &previous_pipe, nullptr);
  REQUIRE(ignored.ok());
  CHECK_FALSE(ignored->signaled);  // SIG_IGN survives exec
  REQUIRE(defaulted.ok());
  CHECK(defaulted->signaled);
  CHECK(defaulted->signal == SIGPIPE);
}

}  // namespace gpuperf::util
