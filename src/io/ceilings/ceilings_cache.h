// The cache of measured ceilings: one file per GPU, DIR/<uuid>.json, written by `gpuperf
// ceilings` and read by `gpuperf ceilings --show` and `gpuperf analyze --ceilings FILE|DIR`.
#pragma once

#include "gpuperf/measured_ceilings.h"
#include "gpuperf/result.h"

#include <string>
#include <vector>

namespace gpuperf::io::ceilings {

// $XDG_CACHE_HOME/gpuperf/ceilings when XDG_CACHE_HOME is an absolute path, else
// $HOME/.cache/gpuperf/ceilings; "" when neither is set.
std::string DefaultCacheDir();

// "GPU-9f8075aa-e02a-0953-1955-32f638fb2993.json": the UUID is validated, so the name never
// leaves the directory. "" when the entry has no valid UUID.
std::string CacheFileName(const model::MeasuredCeilings& measured);

// One cache file. Errors are one line naming the file: "PATH: cannot open: <reason>",
// "PATH: not a gpuperf ceilings cache file: <what>".
Result<model::MeasuredCeilings> ReadCacheFile(const std::string& path);

// Every *.json file of `dir`, by name. Files that fail go to `errors` (one line each); a missing
// or unreadable directory is an error of its own.
struct CacheListing {
  std::vector<model::MeasuredCeilings> entries;
  std::vector<std::string> errors;
};
Result<CacheListing> ReadCacheDir(const std::string& dir);

// `analyze --ceilings`: each path a cache file or a directory of them. The first unreadable
// file, or a directory without any *.json file, fails the whole read.
Result<std::vector<model::MeasuredCeilings>> ReadCeilingsPaths(
    const std::vector<std::string>& paths);

}  // namespace gpuperf::io::ceilings
