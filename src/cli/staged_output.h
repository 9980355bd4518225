// Writes a set of output files so that none is ever presented half-written: each file goes to a
// temporary name in the output directory, and only Commit() renames them into place. Temporary
// files that were not committed are removed when the object goes away.
#pragma once

#include "gpuperf/result.h"

#include <filesystem>
#include <string>
#include <vector>

namespace gpuperf::cli {

class StagedOutput {
 public:
  explicit StagedOutput(std::filesystem::path dir);
  ~StagedOutput();
  StagedOutput(const StagedOutput&) = delete;
  StagedOutput& operator=(const StagedOutput&) = delete;

  // Creates the output directory if needed. Errors name the directory.
  Status Prepare();
  // Writes `content` to a temporary file that Commit() will rename to dir/name.
  Status Stage(const std::string& name, const std::string& content);
  // Renames every staged file into place, in staging order. On error, files not yet renamed
  // are removed and the message names the file that failed.
  Status Commit();

  // The final paths of the committed files.
  const std::vector<std::string>& written() const { return written_; }

 private:
  struct Staged {
    std::filesystem::path temp;
    std::filesystem::path final_path;
  };
  void RemoveTemps();

  std::filesystem::path dir_;
  std::vector<Staged> staged_;
  std::vector<std::string> written_;
};

}  // namespace gpuperf::cli
