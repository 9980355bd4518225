#include "record/output_lock.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>

#include "spool/spool_writer.h"

namespace gpuperf::record {
namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

// The held lock's path for the signal handler (async-signal-safe: a fixed buffer, unlink).
char g_lock_path[4096] = {};
struct sigaction g_previous[3] = {};

void RemoveLockAndResend(int signal) {
  if (g_lock_path[0] != '\0')
    unlink(g_lock_path);
  g_lock_path[0] = '\0';
  for (int i = 0; i < 3; ++i) {
    if (kSignals[i] == signal)
      sigaction(signal, &g_previous[i], nullptr);
  }
  // Blocked while this handler runs; delivered to the previous disposition when it returns.
  raise(signal);
}

// "pid host" of an existing lock, for the message.
std::string Holder(const std::string& path, bool* stale) {
  std::ifstream file(path);
  long long pid = 0;
  std::string host;
  if (!(file >> pid >> host))
    return "unknown process";
  *stale = host == spool::HostName() && pid > 0 && kill(static_cast<pid_t>(pid), 0) != 0 &&
           errno == ESRCH;
  return "pid " + std::to_string(pid) + " on " + host;
}

}  // namespace

Status OutputLock::Acquire(const std::string& dir) {
  Release();
  const std::string path = dir + ".lock";
  if (path.size() >= sizeof(g_lock_path))
    return Error{path + ": path too long"};
  // The lock appears with its content already in it: "pid host" goes into a private file that
  // link() then publishes atomically (EEXIST when another gpuperf holds it), so a second gpuperf
  // never reads a half-written lock.
  const std::string staging = path + "." + std::to_string(getpid()) + ".new";
  const int fd = ::open(staging.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return Error{staging + ": " + std::strerror(errno)};
  const std::string text = std::to_string(getpid()) + " " + spool::HostName() + "\n";
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  if (!written) {
    ::unlink(staging.c_str());
    return Error{path + ": cannot write the lock file"};
  }
  int linked = ::link(staging.c_str(), path.c_str());
  int link_errno = errno;
  if (linked != 0 && (link_errno == EPERM || link_errno == ENOTSUP || link_errno == EXDEV)) {
    // A filesystem without hard links: create-exclusive, then write (a reader may briefly see
    // it empty and name an "unknown process").
    const int lock_fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    link_errno = errno;
    linked = lock_fd < 0 ? -1 : 0;
    if (lock_fd >= 0) {
      const bool ok =
          ::write(lock_fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
      ::close(lock_fd);
      if (!ok) {
        ::unlink(path.c_str());
        ::unlink(staging.c_str());
        return Error{path + ": cannot write the lock file"};
      }
    }
  }
  ::unlink(staging.c_str());
  if (linked != 0 && link_errno == EEXIST) {
    bool stale = false;
    const std::string holder = Holder(path, &stale);
    if (stale) {
      return Error{dir + " has a stale lock from a gpuperf that no longer runs (" + holder +
                   "): remove " + path + " and record again"};
    }
    return Error{dir + " is being recorded by another gpuperf (" + holder + ", lock " + path +
                 "): wait for it or choose another --out"};
  }
  if (linked != 0)
    return Error{path + ": " + std::strerror(link_errno)};
  path_ = path;
  held_ = true;
  std::memcpy(g_lock_path, path.c_str(), path.size() + 1);
  struct sigaction handler {};
  handler.sa_handler = &RemoveLockAndResend;
  sigemptyset(&handler.sa_mask);
  for (int i = 0; i < 3; ++i) {
    struct sigaction current {};
    sigaction(kSignals[i], nullptr, &current);
    installed_[i] = current.sa_handler != SIG_IGN;
    if (!installed_[i])
      continue;
    previous_[i] = current;
    g_previous[i] = current;
    sigaction(kSignals[i], &handler, nullptr);
  }
  return Status::Ok();
}

void OutputLock::Release() {
  if (!held_)
    return;
  for (int i = 0; i < 3; ++i) {
    if (installed_[i])
      sigaction(kSignals[i], &previous_[i], nullptr);
    installed_[i] = false;
  }
  // Empty when a signal handler already removed it: the path may be another process's lock now.
  if (g_lock_path[0] != '\0')
    ::unlink(path_.c_str());
  g_lock_path[0] = '\0';
  held_ = false;
}

}  // namespace gpuperf::record
