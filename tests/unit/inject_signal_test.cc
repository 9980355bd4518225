// The injected library's signal forwarder (src/inject/signal_forwarder.cc) in real processes: a
// SIGTERM with the default action finishes the recording on the forwarder thread, then kills the
// process with SIGTERM; a child forked without exec gets the default action back, so a SIGTERM
// to the child ends the child and never finishes (or kills) the parent. Each case runs in a
// forked process so the test runner's own handlers stay untouched.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>

#include "inject/signal_forwarder.h"

namespace {

int g_finish_fd = -1;  // where the finish function reports, in the process under test

void ReportFinish(int signal) {
  const char byte = static_cast<char>(signal);
  [[maybe_unused]] const ssize_t n = write(g_finish_fd, &byte, 1);
}

// Runs `body` in a forked process with default signal dispositions (Catch2 installs its own
// handlers, which children inherit); returns its wait status.
template <typename Body>
int RunInChild(Body body) {
  const pid_t pid = fork();
  if (pid == 0) {
    for (int signal : {SIGINT, SIGTERM, SIGHUP})
      std::signal(signal, SIG_DFL);
    body();
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

}  // namespace

TEST_CASE("signal forwarder: SIGTERM finishes the recording, then ends the process with it",
          "[inject]") {
  int report[2];
  REQUIRE(pipe(report) == 0);
  const int status = RunInChild([&] {
    g_finish_fd = report[1];
    gpuperf::inject::InstallSignalForwarder(&ReportFinish);
    kill(getpid(), SIGTERM);
    for (int i = 0; i < 500; ++i)  // the forwarder thread finishes, then re-raises
      usleep(10'000);
    _exit(7);  // not reached when the forwarder works
  });
  close(report[1]);
  char byte = 0;
  CHECK(read(report[0], &byte, 1) == 1);
  CHECK(byte == SIGTERM);
  close(report[0]);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
}

TEST_CASE("signal forwarder: a SIGTERM to a forked child ends the child, not the parent",
          "[inject]") {
  int report[2];
  REQUIRE(pipe(report) == 0);
  const int status = RunInChild([&] {
    g_finish_fd = report[1];
    gpuperf::inject::InstallSignalForwarder(&ReportFinish);
    const pid_t grandchild = fork();
    if (grandchild == 0) {
      close(report[1]);  // only the process under test reports
      alarm(10);         // never outlive the test, whatever happens to SIGTERM
      for (;;)
        pause();  // waits for the parent's SIGTERM
    }
    kill(grandchild, SIGTERM);
    int grandchild_status = 0;
    for (int i = 0; i < 300 && waitpid(grandchild, &grandchild_status, WNOHANG) == 0; ++i)
      usleep(10'000);
    if (!WIFSIGNALED(grandchild_status)) {  // it ignored SIGTERM: do not hang the test
      kill(grandchild, SIGKILL);
      waitpid(grandchild, &grandchild_status, 0);
      _exit(4);
    }
    const bool child_died_of_it =
        WIFSIGNALED(grandchild_status) && WTERMSIG(grandchild_status) == SIGTERM;
    usleep(200'000);  // time for a wrongly woken forwarder thread to finish and kill us
    _exit(child_died_of_it ? 0 : 3);
  });
  close(report[1]);
  char byte = 0;
  CHECK(read(report[0], &byte, 1) == 0);  // the parent's recording was never finished
  close(report[0]);
  REQUIRE(WIFEXITED(status));  // and the parent lived on
  CHECK(WEXITSTATUS(status) == 0);
}
