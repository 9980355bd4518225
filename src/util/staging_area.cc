#include "util/staging_area.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <system_error>

namespace gpuperf::util {
namespace {

namespace fs = std::filesystem;

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
constexpr std::size_t kMaxDeclared = 32;

// What the signal handler removes: fixed buffers, filled before the files exist (async-signal-safe
// access: unlink, rmdir, sigaction and raise only).
struct SignalCleanup {
  char dir[4096];
  char names[kMaxDeclared][256];
  std::size_t count;
  struct sigaction previous[3];
  bool installed[3];
};
SignalCleanup g_cleanup = {};

void AppendTo(char* out, std::size_t size, const char* text) {
  std::size_t used = std::strlen(out);
  while (*text != '\0' && used + 1 < size)
    out[used++] = *text++;
  out[used] = '\0';
}

void RemoveOnSignal(int signal) {
  if (g_cleanup.dir[0] != '\0') {
    static char path[4096 + 256 + 2];
    for (std::size_t i = 0; i < g_cleanup.count; ++i) {
      path[0] = '\0';
      AppendTo(path, sizeof path, g_cleanup.dir);
      AppendTo(path, sizeof path, "/");
      AppendTo(path, sizeof path, g_cleanup.names[i]);
      unlink(path);
    }
    rmdir(g_cleanup.dir);
  }
  for (int i = 0; i < 3; ++i) {
    if (kSignals[i] == signal)
      sigaction(signal, &g_cleanup.previous[i], nullptr);
  }
  raise(signal);  // delivered to the previous disposition once this handler returns
}

void InstallHandlers() {
  struct sigaction handler {};
  handler.sa_handler = &RemoveOnSignal;
  sigemptyset(&handler.sa_mask);
  for (int i = 0; i < 3; ++i) {
    struct sigaction current {};
    sigaction(kSignals[i], nullptr, &current);
    // An ignored signal stays ignored; a handler someone else installed is chained after ours.
    g_cleanup.installed[i] = current.sa_handler != SIG_IGN;
    if (!g_cleanup.installed[i])
      continue;
    g_cleanup.previous[i] = current;
    sigaction(kSignals[i], &handler, nullptr);
  }
}

void RestoreHandlers() {
  for (int i = 0; i < 3; ++i) {
    if (g_cleanup.installed[i])
      sigaction(kSignals[i], &g_cleanup.previous[i], nullptr);
    g_cleanup.installed[i] = false;
  }
  g_cleanup.dir[0] = '\0';
  g_cleanup.count = 0;
}

std::string HostName() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0 || host[0] == '\0')
    return "localhost";
  for (char* c = host; *c != '\0'; ++c) {
    if (*c == '/' || *c == '@')
      *c = '_';
  }
  return host;
}

// The owner's pid of "<prefix><pid>@<host>.XXXXXX" when the host is this one; 0 otherwise.
pid_t OwnerOnThisHost(const std::string& name, const std::string& prefix) {
  if (name.rfind(prefix, 0) != 0)
    return 0;
  const std::string rest = name.substr(prefix.size());
  const std::size_t at = rest.find('@');
  const std::size_t dot = rest.rfind('.');
  if (at == std::string::npos || at == 0 || dot == std::string::npos || dot < at)
    return 0;
  if (rest.substr(at + 1, dot - at - 1) != HostName())
    return 0;
  const std::string digits = rest.substr(0, at);
  if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9)
    return 0;
  return static_cast<pid_t>(std::atol(digits.c_str()));
}

}  // namespace

int RemoveStaleStagingAreas(const fs::path& parent, const std::string& prefix) {
  int removed = 0;
  std::error_code error;
  for (fs::directory_iterator it(parent, error), end; !error && it != end; it.increment(error)) {
    const pid_t owner = OwnerOnThisHost(it->path().filename().string(), prefix);
    if (owner <= 0 || owner == getpid() || kill(owner, 0) == 0 || errno != ESRCH)
      continue;
    std::error_code ignored;
    if (fs::remove_all(it->path(), ignored) != static_cast<std::uintmax_t>(-1))
      ++removed;
  }
  return removed;
}

Status StagingArea::Create(const fs::path& parent, const std::string& prefix) {
  Remove();
  RemoveStaleStagingAreas(parent, prefix);
  std::string pattern =
      (parent / (prefix + std::to_string(getpid()) + "@" + HostName() + ".XXXXXX")).string();
  if (pattern.size() >= sizeof g_cleanup.dir)
    return Error{parent.string() + ": path too long"};
  if (::mkdtemp(pattern.data()) == nullptr)
    return Error{parent.string() + ": cannot create a staging directory: " + std::strerror(errno)};
  path_ = pattern;
  fd_ = ::open(pattern.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd_ < 0) {
    const int saved = errno;
    ::rmdir(pattern.c_str());
    path_.clear();
    return Error{pattern + ": " + std::strerror(saved)};
  }
  std::memcpy(g_cleanup.dir, pattern.c_str(), pattern.size() + 1);
  g_cleanup.count = 0;
  InstallHandlers();
  return Status::Ok();
}

bool StagingArea::Declare(const std::string& name) {
  if (g_cleanup.count >= kMaxDeclared || name.size() >= sizeof g_cleanup.names[0])
    return false;
  std::memcpy(g_cleanup.names[g_cleanup.count], name.c_str(), name.size() + 1);
  ++g_cleanup.count;  // published after the name is complete
  return true;
}

void StagingArea::Moved(const fs::path& new_path) {
  path_ = new_path;
  // The old report now sits there under unknown names: the handler can only try rmdir; a next
  // run removes what is left (the name still holds this pid).
  g_cleanup.count = 0;
  if (new_path.string().size() < sizeof g_cleanup.dir)
    std::memcpy(g_cleanup.dir, new_path.c_str(), new_path.string().size() + 1);
}

Status StagingArea::OpenUp() {
  if (fd_ < 0)
    return Error{"no staging directory to open up"};
  const mode_t mask = ::umask(0);  // reading the umask sets it: put it straight back
  ::umask(mask);
  if (::fchmod(fd_, 0777 & ~mask) != 0)
    return Error{path_.string() + ": " + std::strerror(errno)};
  return Status::Ok();
}

void StagingArea::Remove() {
  if (fd_ >= 0)
    ::close(fd_);
  fd_ = -1;
  if (!path_.empty()) {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
    path_.clear();
    RestoreHandlers();
  }
}

}  // namespace gpuperf::util
