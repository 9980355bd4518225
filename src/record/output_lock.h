// An exclusive claim on an output directory, so that two `gpuperf baseline` processes given the
// same --out (and the same rank, or none) cannot write over each other: the second one fails with
// one line naming the directory, before it creates anything.
#pragma once

#include "gpuperf/result.h"

#include <csignal>
#include <string>

namespace gpuperf::record {

class OutputLock {
 public:
  OutputLock() = default;
  ~OutputLock() { Release(); }
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

  // Creates `dir` + ".lock" with O_CREAT|O_EXCL holding "<pid> <host>". Fails when it exists
  // ("DIR is being recorded by another gpuperf (pid 123 on node1) ..."; when that pid is gone
  // from this host the message says the lock is stale and to remove it) or cannot be created.
  // While held, SIGINT/SIGTERM/SIGHUP (unless ignored) remove the lock file first and then reach
  // whatever handler was installed before, or kill the process as before. One lock per process.
  Status Acquire(const std::string& dir);

  // Removes the lock file and restores the signal handlers. Safe to call twice.
  void Release();

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  bool held_ = false;
  struct sigaction previous_[3] = {};
  bool installed_[3] = {};
};

}  // namespace gpuperf::record
