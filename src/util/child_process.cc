#include "util/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

extern char** environ;

namespace gpuperf::util {
namespace {

using Clock = std::chrono::steady_clock;

// Closes a file descriptor once; -1 means closed.
struct Fd {
  int fd = -1;
  Fd() = default;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { Close(); }
  void Close() {
    if (fd >= 0)
      ::close(fd);
    fd = -1;
  }
};

bool MakePipe(Fd& read_end, Fd& write_end) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    return false;
  read_end.fd = fds[0];
  write_end.fd = fds[1];
  return true;
}

std::vector<char*> Pointers(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (std::string& text : strings)
    pointers.push_back(text.data());
  pointers.push_back(nullptr);
  return pointers;
}

// Everything the child needs, prepared before fork: after it only async-signal-safe calls.
struct Prepared {
  std::vector<std::string> argv, environment;
  std::vector<char*> argv_pointers, env_pointers;
  Fd out_read, out_write, err_read, err_write, exec_read, exec_write;
};

void ResetSignals() {
  struct sigaction defaults {};
  defaults.sa_handler = SIG_DFL;
  sigemptyset(&defaults.sa_mask);
  for (int signal : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGALRM})
    ::sigaction(signal, &defaults, nullptr);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
}

// The child after fork: never returns.
[[noreturn]] void BecomeChild(const ChildSpec& spec, Prepared& p) {
  if (spec.in_child)
    spec.in_child();
  if (spec.body) {
    p.out_read.Close();
    ::_exit(spec.body(p.out_write.fd));
  }
  if (spec.reset_signals)
    ResetSignals();
  if (spec.on_output) {
    const int null_fd = ::open("/dev/null", O_RDONLY);
    if (null_fd < 0 || ::dup2(null_fd, 0) < 0 || ::dup2(p.out_write.fd, 1) < 0 ||
        ::dup2(p.err_write.fd, 2) < 0) {
      const int error = errno;
      [[maybe_unused]] ssize_t n = ::write(p.exec_write.fd, &error, sizeof(error));
      ::_exit(127);
    }
  }
  char** envp = spec.environment ? p.env_pointers.data() : environ;
  if (spec.search_path)
    ::execvpe(p.argv_pointers[0], p.argv_pointers.data(), envp);
  else
    ::execve(p.argv_pointers[0], p.argv_pointers.data(), envp);
  const int error = errno;
  [[maybe_unused]] ssize_t n = ::write(p.exec_write.fd, &error, sizeof(error));
  ::_exit(127);
}

// Rounded up: a poll that wakes before the deadline only loops once more.
int MillisecondsLeft(Clock::time_point deadline) {
  auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() <= 0 ? 0 : static_cast<int>(std::min<long long>(left.count(), 1 << 30));
}

// Reads what is ready on `fd`; closes it at end of file or on an error.
void Drain(Fd& fd, const std::function<void(std::string_view)>& sink) {
  std::array<char, 64 * 1024> buffer;
  ssize_t n = ::read(fd.fd, buffer.data(), buffer.size());
  if (n > 0) {
    sink(std::string_view(buffer.data(), static_cast<std::size_t>(n)));
  } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
    fd.Close();
  }
}

// Reads the captured output until both pipes close or the deadline passes.
void ReadOutput(const ChildSpec& spec,
                Prepared& p,
                std::optional<Clock::time_point> deadline,
                ChildOutcome& outcome) {
  auto keep_stderr = [&](std::string_view chunk) {
    std::size_t room = spec.max_stderr_bytes - outcome.stderr_text.size();
    outcome.stderr_text.append(chunk.substr(0, room));
  };
  while (p.out_read.fd >= 0 || p.err_read.fd >= 0) {
    if (deadline && Clock::now() >= *deadline)  // also when output never stops flowing
      return;
    std::array<pollfd, 2> fds{pollfd{p.out_read.fd, POLLIN, 0}, pollfd{p.err_read.fd, POLLIN, 0}};
    int ready = ::poll(fds.data(), fds.size(), deadline ? MillisecondsLeft(*deadline) : -1);
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready == 0)  // the loop's first test says whether the deadline passed
      continue;
    if (ready < 0)  // poll failed: stop waiting for output
      return;
    if (fds[0].revents != 0)
      Drain(p.out_read, spec.on_output);
    if (fds[1].revents != 0)
      Drain(p.err_read, keep_stderr);
  }
}

// Blocks until `pid` ends. False when it is not our child any more (reaped elsewhere).
bool WaitBlocking(pid_t pid, int& status, struct rusage& usage) {
  for (;;) {
    if (::wait4(pid, &status, 0, &usage) == pid)
      return true;
    if (errno != EINTR)
      return false;
  }
}

// Reaps `pid`, polling every 5 ms until the deadline, then SIGTERM and, `grace` later, SIGKILL
// (SIGKILL at once without a grace). Sets outcome.timed_out when it signalled.
void ReapWithDeadline(pid_t pid,
                      Clock::time_point deadline,
                      std::chrono::milliseconds grace,
                      int& status,
                      struct rusage& usage,
                      ChildOutcome& outcome) {
  for (;;) {
    const pid_t reaped = ::wait4(pid, &status, WNOHANG, &usage);
    if (reaped == pid || (reaped < 0 && errno != EINTR))
      return;
    const Clock::time_point now = Clock::now();
    if (!outcome.timed_out && now >= deadline) {
      outcome.timed_out = true;
      if (grace.count() <= 0) {
        ::kill(pid, SIGKILL);
        WaitBlocking(pid, status, usage);
        return;
      }
      ::kill(pid, SIGTERM);
    } else if (outcome.timed_out && now >= deadline + grace) {
      ::kill(pid, SIGKILL);
      WaitBlocking(pid, status, usage);
      return;
    }
    timespec pause{0, 5'000'000};
    ::nanosleep(&pause, nullptr);
  }
}

void FillStatus(int status, const struct rusage& usage, ChildOutcome& outcome) {
  outcome.signaled = WIFSIGNALED(status);
  outcome.signal = outcome.signaled ? WTERMSIG(status) : 0;
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
  outcome.max_rss_kb = usage.ru_maxrss;
  outcome.user_s = static_cast<double>(usage.ru_utime.tv_sec) + usage.ru_utime.tv_usec / 1e6;
  outcome.system_s = static_cast<double>(usage.ru_stime.tv_sec) + usage.ru_stime.tv_usec / 1e6;
}

// The errno a failed exec reported through the close-on-exec pipe, or 0 once exec succeeded.
int ReadExecErrno(Fd& exec_read) {
  int error = 0;
  ssize_t got = 0;
  do {
    got = ::read(exec_read.fd, &error, sizeof(error));
  } while (got < 0 && errno == EINTR);
  exec_read.Close();
  return got == sizeof(error) ? error : 0;
}

}  // namespace

Result<ChildOutcome> RunChild(const ChildSpec& spec) {
  if (spec.argv.empty() && !spec.body)
    return Error{"no program to run"};
  Prepared p;
  p.argv = spec.argv;
  p.argv_pointers = Pointers(p.argv);
  if (spec.environment) {
    p.environment = *spec.environment;
    p.env_pointers = Pointers(p.environment);
  }
  const bool capture = static_cast<bool>(spec.on_output);
  if ((capture && !MakePipe(p.out_read, p.out_write)) ||
      (capture && !spec.body && !MakePipe(p.err_read, p.err_write)) ||
      (!spec.body && !MakePipe(p.exec_read, p.exec_write)))
    return Error{std::string("pipe: ") + std::strerror(errno)};

  const Clock::time_point start = Clock::now();
  const pid_t pid = ::fork();
  if (pid == 0)
    BecomeChild(spec, p);
  if (pid < 0)
    return Error{std::string("fork: ") + std::strerror(errno)};
  p.out_write.Close();
  p.err_write.Close();
  p.exec_write.Close();
  if (spec.on_started)
    spec.on_started(pid);

  ChildOutcome outcome;
  int status = 0;
  struct rusage usage {};
  if (!spec.body)
    outcome.exec_errno = ReadExecErrno(p.exec_read);
  std::optional<Clock::time_point> deadline;
  if (spec.timeout.count() > 0 && outcome.exec_errno == 0)
    deadline = start + spec.timeout;
  if (outcome.exec_errno == 0 && capture)
    ReadOutput(spec, p, deadline, outcome);  // past the deadline the reap signals at once
  if (!deadline || Clock::now() < *deadline) {
    p.out_read.Close();  // a child still writing gets SIGPIPE
    p.err_read.Close();
  }  // else open until the reap: the deadline's signal, not SIGPIPE, ends the child
  if (deadline)
    ReapWithDeadline(pid, *deadline, spec.kill_grace, status, usage, outcome);
  else
    WaitBlocking(pid, status, usage);
  outcome.wall_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
  FillStatus(status, usage, outcome);
  return outcome;
}

}  // namespace gpuperf::util
