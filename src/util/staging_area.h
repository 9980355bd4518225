// A private directory for one run's temporaries: created with mkdtemp (random name, mode 0700),
// so nobody else can plant a file or a link in it; removed when the run ends, fails, or is
// stopped by SIGINT/SIGTERM/SIGHUP; and, after a SIGKILL, removed by the next run that finds
// it (its name holds the pid and host of its owner, and the owner is gone). The report
// directory (cli/staged_output) and the baseline (record/baseline) stage their output in one.
#pragma once

#include "gpuperf/result.h"

#include <filesystem>
#include <string>

namespace gpuperf::util {

class StagingArea {
 public:
  StagingArea() = default;
  ~StagingArea() { Remove(); }
  StagingArea(const StagingArea&) = delete;
  StagingArea& operator=(const StagingArea&) = delete;

  // Removes the stale areas of dead owners under `parent` that start with `prefix`, then creates
  // parent/<prefix><pid>@<host>.XXXXXX. One area per process at a time (signal cleanup).
  Status Create(const std::filesystem::path& parent, const std::string& prefix);

  // Declares a file about to be created in the area, so that a signal removes it too. False when
  // the name is too long or too many files were declared (the file is still cleaned up by
  // Remove() and by the next run).
  bool Declare(const std::string& name);

  // Removes the area and everything in it (idempotent); restores the signal handlers.
  void Remove();

  // Gives the area the mode mkdir(2) would have given it (0777 less the umask), for an area that
  // is about to become the output itself (renamed into place); until then it stays 0700.
  Status OpenUp();

  // After the area was renamed to `new_path` (a swap), the cleanup follows it there.
  void Moved(const std::filesystem::path& new_path);

  const std::filesystem::path& path() const { return path_; }
  int fd() const { return fd_; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
};

// Removes parent/<prefix><pid>@<host>.XXXXXX directories whose owner (a pid on this host) no
// longer runs. Best effort: what cannot be removed stays. Returns how many were removed.
int RemoveStaleStagingAreas(const std::filesystem::path& parent, const std::string& prefix);

}  // namespace gpuperf::util
