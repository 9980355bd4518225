#include "record/launcher.h"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "util/child_process.h"

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
  struct sigaction forward {
  }, previous[3];
  forward.sa_sigaction = &Forward;
  forward.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&forward.sa_mask);
  g_interrupt = 0;
  for (int i = 0; i < 3; ++i)
    sigaction(kForwarded[i], &forward, &previous[i]);

  util::ChildSpec child;
  child.argv = spec.argv;
  child.search_path = true;
  child.environment = BuildEnvironment(spec);
  // stdin, stdout and stderr stay the program's own: no on_output.
  child.timeout = std::chrono::milliseconds(spec.timeout_ms);
  child.kill_grace = std::chrono::seconds(5);
  child.in_child = [&previous] {  // the program gets gpuperf's dispositions, not Forward
    for (int i = 0; i < 3; ++i)
      sigaction(kForwarded[i], &previous[i], nullptr);
  };
  child.on_started = [](pid_t pid) { g_child = pid; };
  auto ran = util::RunChild(child);
  g_child = 0;
  for (int i = 0; i < 3; ++i)
    sigaction(kForwarded[i], &previous[i], nullptr);
  if (!ran.ok())
    return ran.error();
  if (ran->exec_errno != 0)
    return Error{"cannot run '" + spec.argv[0] + "': " + std::strerror(ran->exec_errno)};
  RunOutcome outcome;
  outcome.wall_ns = ran->wall_ns;
  outcome.signaled = ran->signaled;
  outcome.exit_code = ran->exit_code;
  outcome.signal = ran->signal;
  outcome.max_rss_kb = ran->max_rss_kb;
  outcome.user_s = ran->user_s;
  outcome.system_s = ran->system_s;
  outcome.timed_out = ran->timed_out;
  return outcome;
}

}  // namespace gpuperf::record
