// Writing a file so that a failure is always seen: a new file only (O_CREAT|O_EXCL|O_NOFOLLOW,
// never through a planted link), every write checked, fsync before close, close checked. A full
// disk often fails only at the last flush or at fsync; both are errors here.
#pragma once

#include "gpuperf/result.h"

#include <string>
#include <string_view>

namespace gpuperf::util {

// Creates `name` in the directory `dir_fd` (AT_FDCWD: relative to the working directory) with
// mode 0644 and writes `content` to it durably. Fails when `name` exists (file or link). Errors
// name `shown_path`: "out/report.md: cannot write: No space left on device". On failure the
// partial file is removed.
Status WriteNewFileAt(int dir_fd,
                      const std::string& name,
                      std::string_view content,
                      const std::string& shown_path);

// The same for a path.
Status WriteNewFile(const std::string& path, std::string_view content);

// fsync of a directory, so that renames in it survive a crash. Errors name the directory.
Status SyncDirectory(const std::string& path);

// Swaps two existing paths in one step (renameat2 RENAME_EXCHANGE): both names stay valid at
// every instant, so a directory replaced this way is never missing or half there. Returns 0 or
// the errno; ENOSYS where the platform has no RENAME_EXCHANGE (EINVAL where the filesystem lacks
// it).
int ExchangePaths(const std::string& a, const std::string& b);

// How CommitDirectory put a staged directory in place.
enum class DirectoryCommit {
  kMoved,    // `to` did not exist: `from` is now `to`
  kSwapped,  // `from` and `to` swapped: `from` holds the earlier directory, the caller's to remove
  // `to` exists and cannot be swapped here (no RENAME_EXCHANGE: an old kernel, some network
  // filesystems; EPERM: someone else's directory in a sticky /tmp): nothing moved.
  kCannotSwap,
};

// Puts the staged directory `from` at `to` (same filesystem) so that `to` is never half there:
// a rename when `to` does not exist; with `replace`, an existing `to` swaps with `from` in one
// step (without it, rename(2) decides: an empty `to` is replaced, another fails). Then fsyncs
// the parent of `to`, so that the new name survives a crash (not after kCannotSwap). Errors:
// "cannot move FROM to TO: reason", or the fsync's. Used by the report directory
// (cli/staged_output) and the baseline (record/baseline).
Result<DirectoryCommit> CommitDirectory(const std::string& from,
                                        const std::string& to,
                                        bool replace);

}  // namespace gpuperf::util
