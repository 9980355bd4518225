#include "cli/staged_output.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>

#include "util/durable_file.h"

namespace gpuperf::cli {
namespace fs = std::filesystem;
namespace {

constexpr const char* kReportFiles[] = {"report.md",
                                        "report.json",
                                        "roofline.svg",
                                        "summary.json",
                                        "compare.md",
                                        "compare.json",
                                        "ranks.md",
                                        "ranks.json"};

// Hidden entries that gpuperf leaves or left in a report directory: staging areas, and the
// ".report.md.tmp-<pid>" temporaries of gpuperf before 0.9 (never carried into a new report).
bool IsGpuperfLitter(const std::string& name) {
  if (name.rfind(".gpuperf-staging-", 0) == 0)
    return true;
  const std::size_t tmp = name.rfind(".tmp-");
  return name.size() > 1 && name[0] == '.' && tmp != std::string::npos &&
         name.find_first_not_of("0123456789", tmp + 5) == std::string::npos;
}

// Holds an exclusive flock on a directory while it lives: concurrent gpuperf processes commit
// into the same place one after the other. SIGINT/SIGTERM/SIGHUP wait until the commit is done
// (the handlers would otherwise find the staging area half swapped).
class CommitGuard {
 public:
  explicit CommitGuard(const fs::path& dir) {
    sigset_t block;
    sigemptyset(&block);
    for (int signal : {SIGINT, SIGTERM, SIGHUP})
      sigaddset(&block, signal);
    sigprocmask(SIG_BLOCK, &block, &saved_);
    fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    while (fd_ >= 0 && ::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
    }
  }
  ~CommitGuard() {
    if (fd_ >= 0)
      ::close(fd_);  // releases the flock
    sigprocmask(SIG_SETMASK, &saved_, nullptr);
  }
  CommitGuard(const CommitGuard&) = delete;
  CommitGuard& operator=(const CommitGuard&) = delete;

 private:
  int fd_ = -1;
  sigset_t saved_{};
};

bool SameDevice(const fs::path& a, const fs::path& b) {
  struct stat sa {};
  struct stat sb {};
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev;
}

// Whether the working directory is `dir` or below it: swapping it would leave the shell (and
// this process) in the old directory.
bool HoldsWorkingDirectory(const fs::path& dir) {
  std::error_code error;
  const fs::path cwd = fs::current_path(error);
  const fs::path real = fs::canonical(dir, error);
  if (error)
    return false;
  auto [mismatch, cwd_end] = std::mismatch(real.begin(), real.end(), cwd.begin(), cwd.end());
  return mismatch == real.end();
}

// Whether every entry of `dir` is gpuperf's (report files, litter); a report file that is not
// a regular file or a link is an error: replacing it would delete what it holds.
Result<bool> OnlyGpuperfEntries(const fs::path& dir) {
  bool only_ours = true;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (IsReportFileName(name)) {
      std::error_code ignored;
      const fs::file_status status = it->symlink_status(ignored);
      if (!fs::is_regular_file(status) && !fs::is_symlink(status))
        return Error{it->path().string() +
                     ": not a regular file; cannot move the report into place"};
    } else if (!IsGpuperfLitter(name)) {
      only_ours = false;
    }
  }
  if (error)
    return Error{dir.string() + ": cannot list the directory: " + error.message()};
  return only_ours;
}

}  // namespace

bool IsReportFileName(const std::string& name) {
  return std::find(std::begin(kReportFiles), std::end(kReportFiles), name) !=
         std::end(kReportFiles);
}

StagedOutput::StagedOutput(fs::path dir, Mode mode) : dir_(std::move(dir)), mode_(mode) {}

Status StagedOutput::Prepare() {
  std::error_code error;
  dir_ = fs::absolute(dir_, error).lexically_normal();
  if (!dir_.has_filename())
    dir_ = dir_.parent_path();
  if (fs::is_symlink(dir_, error))  // a link the user chose: its directory is the report
    dir_ = fs::canonical(dir_, error);
  const bool exists = fs::exists(dir_, error);
  if (exists && !fs::is_directory(dir_, error))
    return Error{dir_.string() + ": not a directory"};
  const fs::path parent = dir_.parent_path();
  swap_ = mode_ == Mode::kReportDirectory && dir_ != parent &&
          (!exists || (SameDevice(dir_, parent) && !HoldsWorkingDirectory(dir_)));
  fs::create_directories(swap_ ? parent : dir_, error);
  if (error)
    return Error{dir_.string() + ": cannot create the output directory: " + error.message()};
  if (swap_) {
    if (staging_.Create(parent, "." + dir_.filename().string() + ".gpuperf-staging-").ok())
      return Status::Ok();
    swap_ = false;  // the parent is not writable: stage inside DIR
    fs::create_directories(dir_, error);
    if (error)
      return Error{dir_.string() + ": cannot create the output directory: " + error.message()};
  }
  return staging_.Create(dir_, ".gpuperf-staging-");
}

Status StagedOutput::Stage(const std::string& name, const std::string& content) {
  if (name.empty() || name.find('/') != std::string::npos || name[0] == '.')
    return Error{(dir_ / name).string() + ": not a plain file name"};
  if (staging_.fd() < 0)
    return Error{dir_.string() + ": no staging directory (Prepare failed)"};
  staging_.Declare(name);
  if (Status written = util::WriteNewFileAt(staging_.fd(), name, content, (dir_ / name).string());
      !written) {
    return written;
  }
  staged_.push_back(name);
  return Status::Ok();
}

Status StagedOutput::Commit() {
  if (staging_.fd() < 0)
    return Error{dir_.string() + ": nothing staged (Prepare failed)"};
  Status status = Status::Ok();
  {
    CommitGuard guard(mode_ == Mode::kFiles ? dir_ : dir_.parent_path());
    status = swap_ ? CommitDirectory() : CommitFiles(staging_.path());
  }
  staging_.Remove();
  if (!status)
    written_.clear();
  return status;
}

Status StagedOutput::CommitDirectory() {
  std::error_code error;
  if (fs::exists(dir_, error)) {
    Result<bool> only_ours = OnlyGpuperfEntries(dir_);
    if (!only_ours.ok())
      return only_ours.error();
    if (!only_ours.value())  // the user's files stay where they are: file by file, under the lock
      return CommitFiles(staging_.path());
  }
  auto committed = util::CommitDirectory(staging_.path().string(), dir_.string(), true);
  if (!committed.ok())
    return committed.error();
  if (*committed == util::DirectoryCommit::kCannotSwap)  // file by file instead
    return CommitFiles(staging_.path());
  if (*committed == util::DirectoryCommit::kSwapped)
    staging_.Moved(staging_.path());  // it now holds the old report, removed by Commit()
  for (const std::string& name : staged_)
    written_.push_back((dir_ / name).string());
  return Status::Ok();
}

Status StagedOutput::CommitFiles(const fs::path& from_dir) {
  if (mode_ == Mode::kReportDirectory) {
    if (Result<bool> checked = OnlyGpuperfEntries(dir_); !checked.ok())
      return checked.error();  // before anything moves: all of the report or none
  }
  for (const std::string& name : staged_) {
    const fs::path to = dir_ / name;
    if (::rename((from_dir / name).c_str(), to.c_str()) != 0)
      return Error{to.string() + ": cannot move the report into place: " + std::strerror(errno)};
    written_.push_back(to.string());
  }
  if (mode_ == Mode::kReportDirectory) {
    for (const char* name : kReportFiles) {  // an earlier run's files that this one did not write
      if (std::find(staged_.begin(), staged_.end(), name) == staged_.end())
        ::unlink((dir_ / name).c_str());
    }
  }
  return util::SyncDirectory(dir_.string());
}

}  // namespace gpuperf::cli
