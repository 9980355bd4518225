#include "inject/signal_forwarder.h"

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

namespace gpuperf::inject {
namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
constexpr int kMaxSignal = 65;

struct sigaction g_previous[kMaxSignal];
int g_pipe[2] = {-1, -1};
pid_t g_owner = 0;  // the process whose forwarder thread reads the pipe
FinishFunction g_finish = nullptr;

void Handler(int signal, siginfo_t* info, void* context) {
  const struct sigaction& previous = g_previous[signal];
  if (getpid() != g_owner) {
    // A forked child that still has our handler: the pipe would finish the parent. Act as the
    // program would have without us (async-signal-safe: sigaction, raise).
    sigaction(signal, &previous, nullptr);
    raise(signal);
    return;
  }
  if ((previous.sa_flags & SA_SIGINFO) != 0 && previous.sa_sigaction != nullptr) {
    previous.sa_sigaction(signal, info, context);  // the program's own handler decides
    return;
  }
  if (previous.sa_handler == SIG_IGN)
    return;
  if (previous.sa_handler != SIG_DFL) {
    previous.sa_handler(signal);
    return;
  }
  const int saved_errno = errno;
  const char byte = static_cast<char>(signal);
  [[maybe_unused]] const ssize_t n = write(g_pipe[1], &byte, 1);  // async-signal-safe
  errno = saved_errno;
}

void* ForwarderLoop(void*) {
  sigset_t blocked;
  sigemptyset(&blocked);
  for (int signal : kSignals)
    sigaddset(&blocked, signal);
  pthread_sigmask(SIG_BLOCK, &blocked, nullptr);
  char byte = 0;
  while (true) {
    const ssize_t n = read(g_pipe[0], &byte, 1);
    if (n == 1)
      break;
    if (n < 0 && errno == EINTR)
      continue;
    return nullptr;  // pipe closed: nothing more to forward
  }
  const int signal = static_cast<unsigned char>(byte);
  g_finish(signal);
  // Die of the same signal with its default action, as the program would have.
  sigaction(signal, &g_previous[signal], nullptr);
  kill(getpid(), signal);
  return nullptr;
}

// After fork() in the child: our handler and the pipe are the parent's (the forwarder thread does
// not exist here), so the child gets the program's own dispositions back and the pipe is closed.
void RestoreInForkedChild() {
  for (int signal : kSignals) {
    struct sigaction current {};
    if (sigaction(signal, nullptr, &current) == 0 && (current.sa_flags & SA_SIGINFO) != 0 &&
        current.sa_sigaction == &Handler) {
      sigaction(signal, &g_previous[signal], nullptr);
    }
  }
  close(g_pipe[0]);
  close(g_pipe[1]);
  g_pipe[0] = g_pipe[1] = -1;
}

}  // namespace

void InstallSignalForwarder(FinishFunction finish) noexcept {
  if (g_finish != nullptr || finish == nullptr)
    return;
  if (pipe2(g_pipe, O_CLOEXEC) != 0)
    return;
  g_finish = finish;
  g_owner = getpid();
  pthread_t thread;
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
  const int created = pthread_create(&thread, &attributes, &ForwarderLoop, nullptr);
  pthread_attr_destroy(&attributes);
  if (created != 0)
    return;  // no thread: keep the program's dispositions untouched
  for (int signal : kSignals) {
    struct sigaction ours {};
    ours.sa_sigaction = &Handler;
    ours.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&ours.sa_mask);
    sigaction(signal, &ours, &g_previous[signal]);
  }
  pthread_atfork(nullptr, nullptr, &RestoreInForkedChild);
}

}  // namespace gpuperf::inject
