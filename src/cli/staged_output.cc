#include "cli/staged_output.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>

namespace gpuperf::cli {
namespace fs = std::filesystem;

StagedOutput::StagedOutput(fs::path dir) : dir_(std::move(dir)) {}

StagedOutput::~StagedOutput() {
  RemoveTemps();
}

Status StagedOutput::Prepare() {
  std::error_code error;
  fs::create_directories(dir_, error);
  if (error)
    return Error{dir_.string() + ": cannot create the output directory: " + error.message()};
  if (!fs::is_directory(dir_, error))
    return Error{dir_.string() + ": not a directory"};
  return Status::Ok();
}

Status StagedOutput::Stage(const std::string& name, const std::string& content) {
  fs::path final_path = dir_ / name;
  // A dot name with the pid: invisible in listings and unique per concurrent run.
  fs::path temp = dir_ / ("." + name + ".tmp-" + std::to_string(::getpid()));
  staged_.push_back({temp, final_path});  // registered first so that failures clean it up
  std::FILE* file = std::fopen(temp.c_str(), "wb");
  if (file == nullptr)
    return Error{temp.string() + ": cannot write: " + std::strerror(errno)};
  bool ok = std::fwrite(content.data(), 1, content.size(), file) == content.size();
  int saved_errno = errno;
  ok = std::fclose(file) == 0 && ok;
  if (!ok) {
    return Error{final_path.string() +
                 ": cannot write: " + std::strerror(saved_errno ? saved_errno : errno)};
  }
  return Status::Ok();
}

Status StagedOutput::Commit() {
  while (!staged_.empty()) {
    Staged next = staged_.front();
    std::error_code error;
    fs::rename(next.temp, next.final_path, error);
    if (error) {
      RemoveTemps();
      return Error{next.final_path.string() +
                   ": cannot move the report into place: " + error.message()};
    }
    staged_.erase(staged_.begin());
    written_.push_back(next.final_path.string());
  }
  return Status::Ok();
}

void StagedOutput::RemoveTemps() {
  for (const auto& staged : staged_) {
    std::error_code ignored;  // best effort: the temp may never have been created
    fs::remove(staged.temp, ignored);
  }
  staged_.clear();
}

}  // namespace gpuperf::cli
