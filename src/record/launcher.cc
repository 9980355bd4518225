#include "record/launcher.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>

extern char** environ;

namespace gpuperf::record {
namespace {

volatile sig_atomic_t g_child = 0;
volatile sig_atomic_t g_interrupt = 0;
constexpr int kForwarded[] = {SIGINT, SIGTERM, SIGHUP};

void Forward(int signal, siginfo_t* info, void*) {
  g_interrupt = signal;
  // A terminal's SIGINT (si_pid 0) already reached the child through the process group.
  const bool from_terminal = signal == SIGINT && info != nullptr && info->si_pid == 0;
  if (g_child > 0 && !from_terminal)
    kill(static_cast<pid_t>(g_child), signal);
}

// The environment for execve: ours, minus unset_env and set_env's names, plus set_env.
std::vector<std::string> BuildEnvironment(const ChildSpec& spec) {
  std::vector<std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    const std::string name(text.substr(0, text.find('=')));
    bool drop = false;
    for (const auto& unset : spec.unset_env)
      drop |= unset == name;
    for (const auto& [set_name, value] : spec.set_env)
      drop |= set_name == name;
    if (!drop)
      environment.emplace_back(text);
  }
  for (const auto& [name, value] : spec.set_env)
    environment.push_back(name + "=" + value);
  return environment;
}

std::vector<char*> Pointers(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (auto& text : strings)
    pointers.push_back(text.data());
  pointers.push_back(nullptr);
  return pointers;
}

// Reaps `child`, polling every 10 ms; past the deadline SIGTERM, 5 s later SIGKILL. True when
// the deadline ran out. Polling costs up to 10 ms of wall-time precision: only for untimed runs.
bool WaitWithDeadline(pid_t child,
                      std::chrono::steady_clock::time_point start,
                      std::int64_t timeout_ms,
                      int& status,
                      struct rusage& usage) {
  const auto deadline = start + std::chrono::milliseconds(timeout_ms);
  bool terminated = false, killed = false;
  for (;;) {
    const pid_t reaped = wait4(child, &status, WNOHANG, &usage);
    if (reaped == child || (reaped < 0 && errno != EINTR))
      return terminated;
    const auto now = std::chrono::steady_clock::now();
    if (!terminated && now >= deadline) {
      kill(child, SIGTERM);
      terminated = true;
    } else if (terminated && !killed && now >= deadline + std::chrono::seconds(5)) {
      kill(child, SIGKILL);
      killed = true;
    }
    usleep(10'000);
  }
}

}  // namespace

int LastInterruptSignal() {
  return g_interrupt;
}

std::string ResolveProgram(const std::string& program) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (program.find('/') != std::string::npos) {
    return fs::exists(program, error) ? fs::canonical(program, error).string() : "";
  }
  const char* path = std::getenv("PATH");
  std::string_view dirs = path != nullptr ? path : "/usr/bin:/bin";
  while (!dirs.empty()) {
    const std::size_t colon = dirs.find(':');
    const std::string dir(dirs.substr(0, colon));
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / program;
    if (access(candidate.c_str(), X_OK) == 0 && fs::is_regular_file(candidate, error)) {
      return fs::canonical(candidate, error).string();
    }
    dirs = colon == std::string_view::npos ? std::string_view() : dirs.substr(colon + 1);
  }
  return "";
}

Result<RunOutcome> RunChild(const ChildSpec& spec) {
  if (spec.argv.empty())
    return Error{"no program to run"};
  std::vector<std::string> argv = spec.argv;
  std::vector<std::string> environment = BuildEnvironment(spec);
  std::vector<char*> argv_pointers = Pointers(argv);
  std::vector<char*> env_pointers = Pointers(environment);
  int exec_pipe[2];
  if (pipe2(exec_pipe, O_CLOEXEC) != 0)
    return Error{std::string("pipe: ") + std::strerror(errno)};

  struct sigaction forward {
  }, previous[3];
  forward.sa_sigaction = &Forward;
  forward.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&forward.sa_mask);
  g_interrupt = 0;
  for (int i = 0; i < 3; ++i)
    sigaction(kForwarded[i], &forward, &previous[i]);

  const auto start = std::chrono::steady_clock::now();
  const pid_t child = fork();
  if (child == 0) {
    // In the child only async-signal-safe calls: restore dispositions, exec, report errno.
    for (int i = 0; i < 3; ++i)
      sigaction(kForwarded[i], &previous[i], nullptr);
    execvpe(argv_pointers[0], argv_pointers.data(), env_pointers.data());
    const int error = errno;
    [[maybe_unused]] const ssize_t n = write(exec_pipe[1], &error, sizeof(error));
    _exit(127);
  }
  close(exec_pipe[1]);
  if (child < 0) {
    close(exec_pipe[0]);
    for (int i = 0; i < 3; ++i)
      sigaction(kForwarded[i], &previous[i], nullptr);
    return Error{std::string("fork: ") + std::strerror(errno)};
  }
  g_child = child;
  int exec_error = 0;
  ssize_t got = 0;
  do {
    got = read(exec_pipe[0], &exec_error, sizeof(exec_error));
  } while (got < 0 && errno == EINTR);
  close(exec_pipe[0]);

  int status = 0;
  struct rusage usage {};
  bool timed_out = false;
  if (spec.timeout_ms > 0 && got != sizeof(exec_error))
    timed_out = WaitWithDeadline(child, start, spec.timeout_ms, status, usage);
  else
    while (wait4(child, &status, 0, &usage) < 0 && errno == EINTR) {
    }
  const auto end = std::chrono::steady_clock::now();
  g_child = 0;
  for (int i = 0; i < 3; ++i)
    sigaction(kForwarded[i], &previous[i], nullptr);
  if (got == sizeof(exec_error)) {
    return Error{"cannot run '" + spec.argv[0] + "': " + std::strerror(exec_error)};
  }
  RunOutcome outcome;
  outcome.wall_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count();
  outcome.signaled = WIFSIGNALED(status);
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
  outcome.signal = outcome.signaled ? WTERMSIG(status) : 0;
  outcome.max_rss_kb = usage.ru_maxrss;
  outcome.user_s = static_cast<double>(usage.ru_utime.tv_sec) + usage.ru_utime.tv_usec / 1e6;
  outcome.system_s = static_cast<double>(usage.ru_stime.tv_sec) + usage.ru_stime.tv_usec / 1e6;
  outcome.timed_out = timed_out;
  return outcome;
}

}  // namespace gpuperf::record
