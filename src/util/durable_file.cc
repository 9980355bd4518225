#include "util/durable_file.h"

#include <fcntl.h>
#include <stdio.h>  // renameat2, RENAME_EXCHANGE (glibc 2.28+)
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace gpuperf::util {
namespace {

Status Failed(const std::string& shown_path, int error) {
  return Error{shown_path + ": cannot write: " + std::strerror(error)};
}

// Writes all of `content`, retrying short writes and EINTR; returns 0 or the errno.
int WriteAll(int fd, std::string_view content) {
  while (!content.empty()) {
    const ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return n < 0 ? errno : EIO;
    content.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

}  // namespace

Status WriteNewFileAt(int dir_fd,
                      const std::string& name,
                      std::string_view content,
                      const std::string& shown_path) {
  const int fd =
      ::openat(dir_fd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0)
    return Failed(shown_path, errno);
  int error = WriteAll(fd, content);
  if (error == 0 && ::fsync(fd) != 0 && errno != EINVAL)  // EINVAL: a file that cannot sync
    error = errno;
  if (::close(fd) != 0 && error == 0 && errno != EINTR)
    error = errno;
  if (error != 0) {
    ::unlinkat(dir_fd, name.c_str(), 0);
    return Failed(shown_path, error);
  }
  return Status::Ok();
}

Status WriteNewFile(const std::string& path, std::string_view content) {
  return WriteNewFileAt(AT_FDCWD, path, content, path);
}

Status SyncDirectory(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return Error{path + ": cannot open the directory: " + std::strerror(errno)};
  const int synced = ::fsync(fd) == 0 || errno == EINVAL ? 0 : errno;
  ::close(fd);
  if (synced != 0)
    return Error{path + ": cannot sync the directory: " + std::strerror(synced)};
  return Status::Ok();
}

int ExchangePaths(const std::string& a, const std::string& b) {
#ifdef RENAME_EXCHANGE
  return ::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) == 0 ? 0 : errno;
#else
  (void)a;
  (void)b;
  return ENOSYS;
#endif
}

Result<DirectoryCommit> CommitDirectory(const std::string& from,
                                        const std::string& to,
                                        bool replace) {
  std::error_code error;
  DirectoryCommit how = DirectoryCommit::kMoved;
  if (replace && std::filesystem::exists(to, error)) {
    if (ExchangePaths(from, to) != 0)
      return DirectoryCommit::kCannotSwap;
    how = DirectoryCommit::kSwapped;
  } else if (::rename(from.c_str(), to.c_str()) != 0) {
    return Error{"cannot move " + from + " to " + to + ": " + std::strerror(errno)};
  }
  if (Status synced = SyncDirectory(std::filesystem::path(to).parent_path().string()); !synced)
    return synced.error();
  return how;
}

}  // namespace gpuperf::util
