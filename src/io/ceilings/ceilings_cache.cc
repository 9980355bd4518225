#include "io/ceilings/ceilings_cache.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "io/ceilings/ceilings_json.h"
#include "model/measured_ceilings.h"
#include "util/byte_source.h"

namespace gpuperf::io::ceilings {
namespace {

namespace fs = std::filesystem;

bool IsJsonFile(const fs::directory_entry& entry) {
  std::error_code error;
  return entry.is_regular_file(error) && entry.path().extension() == ".json";
}

}  // namespace

std::string DefaultCacheDir() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg != nullptr && xdg[0] == '/')
    return (fs::path(xdg) / "gpuperf" / "ceilings").string();
  const char* home = std::getenv("HOME");
  if (home != nullptr && home[0] != '\0')
    return (fs::path(home) / ".cache" / "gpuperf" / "ceilings").string();
  return "";
}

std::string CacheFileName(const model::MeasuredCeilings& measured) {
  const std::string uuid = model::NormalizeGpuUuid(measured.uuid);
  return uuid.empty() ? "" : uuid + ".json";
}

Result<model::MeasuredCeilings> ReadCacheFile(const std::string& path) {
  // One byte more than allowed, so that ParseCacheJson sees an oversized file as such.
  auto text = util::ReadFileHead(path, kMaxJsonBytes + 1);
  if (!text.ok())
    return text.error();
  return ParseCacheJson(*text, path);
}

Result<CacheListing> ReadCacheDir(const std::string& dir) {
  std::error_code error;
  std::vector<fs::path> files;
  fs::directory_iterator it(dir, error);
  if (error)
    return Error{dir + ": cannot read the directory: " + error.message()};
  for (const fs::directory_entry& entry : it) {
    if (IsJsonFile(entry))
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  CacheListing listing;
  for (const fs::path& file : files) {
    auto read = ReadCacheFile(file.string());
    if (read.ok())
      listing.entries.push_back(std::move(read).value());
    else
      listing.errors.push_back(read.error().message);
  }
  return listing;
}

Result<std::vector<model::MeasuredCeilings>> ReadCeilingsPaths(
    const std::vector<std::string>& paths) {
  std::vector<model::MeasuredCeilings> entries;
  for (const std::string& path : paths) {
    std::error_code error;
    if (!fs::is_directory(path, error)) {
      auto read = ReadCacheFile(path);
      if (!read.ok())
        return read.error();
      entries.push_back(std::move(read).value());
      continue;
    }
    auto listing = ReadCacheDir(path);
    if (!listing.ok())
      return listing.error();
    if (!listing->errors.empty())
      return Error{listing->errors.front()};
    if (listing->entries.empty())
      return Error{path + ": holds no *.json measured ceilings (gpuperf ceilings writes them)"};
    std::move(listing->entries.begin(), listing->entries.end(), std::back_inserter(entries));
  }
  return entries;
}

}  // namespace gpuperf::io::ceilings
