// Writes a set of output files so that none is ever presented half-written, and a report
// directory is never a mix of two runs.
//
// Every file is first written into a private staging directory (util/staging_area.h: random
// name, mode 0700, O_CREAT|O_EXCL|O_NOFOLLOW, fsync). Commit() then, under an flock on the
// output's parent directory (concurrent gpuperf processes commit one after the other):
//  - kReportDirectory: the staging directory becomes DIR in one step (rename when DIR does not
//    exist, renameat2(RENAME_EXCHANGE) when it does), so DIR holds exactly the files of this run
//    plus the entries gpuperf does not own (carried over); report files of an earlier run that
//    this one does not write (a roofline.svg, a summary.json) are gone with the old directory.
//    When DIR cannot be swapped (a mount point, the working directory or above it) the staging
//    directory is inside DIR and the files are renamed one by one under the lock.
//  - kFiles: each file replaces its own name in DIR; the rest of DIR is untouched (the ceilings
//    cache, one file per GPU).
// A final name is never opened: a link planted there is replaced, never followed.
#pragma once

#include "gpuperf/result.h"

#include <filesystem>
#include <string>
#include <vector>

#include "util/staging_area.h"

namespace gpuperf::cli {

class StagedOutput {
 public:
  enum class Mode { kReportDirectory, kFiles };

  explicit StagedOutput(std::filesystem::path dir, Mode mode = Mode::kReportDirectory);
  StagedOutput(const StagedOutput&) = delete;
  StagedOutput& operator=(const StagedOutput&) = delete;

  // Creates the parent (kReportDirectory) or DIR (kFiles) and the staging directory. Errors
  // name the directory.
  Status Prepare();
  // Writes `content` to the staging directory under `name` (a plain file name).
  Status Stage(const std::string& name, const std::string& content);
  // Puts every staged file into place as described above. On error nothing of this run is in
  // DIR, an earlier report stays whole, and the message names what failed.
  Status Commit();

  // The final paths of the committed files.
  const std::vector<std::string>& written() const { return written_; }

 private:
  // Both run under the commit lock that Commit() holds.
  Status CommitDirectory();
  Status CommitFiles(const std::filesystem::path& from_dir);

  std::filesystem::path dir_;
  Mode mode_;
  bool swap_ = false;  // kReportDirectory and DIR can be swapped
  util::StagingArea staging_;
  std::vector<std::string> staged_;  // names, in staging order
  std::vector<std::string> written_;
};

// Every file name a gpuperf report directory may hold: a report of any verb replaces all of them.
bool IsReportFileName(const std::string& name);

}  // namespace gpuperf::cli
