#include "io/sass/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

extern char** environ;

namespace gpuperf::io::sass {
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

// posix_spawn's attributes and file actions, destroyed on every path.
class SpawnSetup {
 public:
  SpawnSetup() {
    ::posix_spawn_file_actions_init(&actions_);
    ::posix_spawnattr_init(&attributes_);
  }
  ~SpawnSetup() {
    ::posix_spawn_file_actions_destroy(&actions_);
    ::posix_spawnattr_destroy(&attributes_);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;

  // stdin from /dev/null, stdout and stderr into the pipes; default signal dispositions and an
  // empty mask, so the tool behaves as from a shell whatever gpuperf itself blocks or ignores.
  bool Prepare(int stdout_fd, int stderr_fd) {
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);  // an ignored SIGPIPE would otherwise survive the exec
    for (int signal : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGALRM})
      sigaddset(&defaults, signal);
    return ::posix_spawn_file_actions_addopen(&actions_, 0, "/dev/null", O_RDONLY, 0) == 0 &&
           ::posix_spawn_file_actions_adddup2(&actions_, stdout_fd, 1) == 0 &&
           ::posix_spawn_file_actions_adddup2(&actions_, stderr_fd, 2) == 0 &&
           ::posix_spawnattr_setsigmask(&attributes_, &none) == 0 &&
           ::posix_spawnattr_setsigdefault(&attributes_, &defaults) == 0 &&
           ::posix_spawnattr_setflags(&attributes_,
                                      POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) == 0;
  }
  const posix_spawn_file_actions_t* actions() const { return &actions_; }
  const posix_spawnattr_t* attributes() const { return &attributes_; }

 private:
  posix_spawn_file_actions_t actions_;
  posix_spawnattr_t attributes_;
};

int MillisecondsLeft(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
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

// Waits for the child until the deadline, then kills it. Fills the exit fields of `outcome`.
void Reap(pid_t pid, Clock::time_point deadline, bool kill_now, ChildOutcome& outcome) {
  if (kill_now) {
    ::kill(pid, SIGKILL);
    outcome.timed_out = true;
  }
  int status = 0;
  for (;;) {
    pid_t done = ::waitpid(pid, &status, outcome.timed_out ? 0 : WNOHANG);
    if (done == pid)
      break;
    if (done < 0 && errno != EINTR)
      return;  // not our child any more (reaped elsewhere): nothing to report
    if (done == 0 && Clock::now() >= deadline) {
      ::kill(pid, SIGKILL);
      outcome.timed_out = true;
    } else if (done == 0) {
      timespec pause{0, 5'000'000};  // the pipes are closed: the child is exiting or stalled
      ::nanosleep(&pause, nullptr);
    }
  }
  outcome.signaled = WIFSIGNALED(status);
  outcome.signal = outcome.signaled ? WTERMSIG(status) : 0;
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
}

}  // namespace

Result<ChildOutcome> RunCaptured(const std::vector<std::string>& argv,
                                 std::chrono::milliseconds timeout,
                                 const std::function<void(std::string_view)>& on_stdout) {
  if (argv.empty())
    return Error{"no program to run"};
  const std::string& program = argv.front();
  Fd out_read, out_write, err_read, err_write;
  if (!MakePipe(out_read, out_write) || !MakePipe(err_read, err_write))
    return Error{program + ": pipe: " + std::strerror(errno)};
  SpawnSetup setup;
  if (!setup.Prepare(out_write.fd, err_write.fd))
    return Error{program + ": cannot prepare the child process"};
  std::vector<char*> args;
  for (const std::string& arg : argv)
    args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int spawned = ::posix_spawn(
      &pid, program.c_str(), setup.actions(), setup.attributes(), args.data(), environ);
  if (spawned != 0)
    return Error{program + ": cannot run: " + std::strerror(spawned)};
  out_write.Close();
  err_write.Close();

  ChildOutcome outcome;
  auto keep_stderr = [&outcome](std::string_view chunk) {
    std::size_t room = kMaxStderrBytes - outcome.stderr_text.size();
    outcome.stderr_text.append(chunk.substr(0, room));
  };
  const Clock::time_point deadline = Clock::now() + timeout;
  bool expired = false;
  while (out_read.fd >= 0 || err_read.fd >= 0) {
    if (Clock::now() >= deadline) {  // also when output never stops flowing
      expired = true;
      break;
    }
    std::array<pollfd, 2> fds{pollfd{out_read.fd, POLLIN, 0}, pollfd{err_read.fd, POLLIN, 0}};
    int ready = ::poll(fds.data(), fds.size(), MillisecondsLeft(deadline));
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready <= 0) {  // the deadline passed (or poll failed): stop waiting for output
      expired = ready == 0;
      break;
    }
    if (fds[0].revents != 0)
      Drain(out_read, on_stdout);
    if (fds[1].revents != 0)
      Drain(err_read, keep_stderr);
  }
  out_read.Close();
  err_read.Close();
  Reap(pid, deadline, expired, outcome);
  return outcome;
}

}  // namespace gpuperf::io::sass
