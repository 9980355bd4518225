#include "io/sass/cuobjdump.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "io/sass/child_process.h"

namespace gpuperf::io::sass {
namespace {

bool IsExecutableFile(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
         ::access(path.c_str(), X_OK) == 0;
}

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

// The first `cuobjdump` among the PATH's directories; "" when none.
std::string SearchPath() {
  std::string path = Env("PATH");
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find(':', start);
    if (end == std::string::npos)
      end = path.size();
    std::string dir = path.substr(start, end - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/cuobjdump";
    if (IsExecutableFile(candidate))
      return candidate;
    start = end + 1;
  }
  return "";
}

// What the first bytes say: ELF (executables, libraries, object files, cubins), an ar archive
// (static libraries) or a fatbin (magic 0xBA55ED50, little endian). "" when it is one of them.
std::string CheckInput(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return std::string("cannot open: ") + std::strerror(errno);
  struct stat info {};
  if (::fstat(fd, &info) == 0 && S_ISDIR(info.st_mode)) {
    ::close(fd);
    return "is a directory, not an executable, library, cubin or fatbin";
  }
  char head[8] = {};
  ssize_t n = ::read(fd, head, sizeof head);
  ::close(fd);
  std::string_view bytes(head, n > 0 ? static_cast<std::size_t>(n) : 0);
  if (bytes.substr(0, 4) ==
          "\x7f"
          "ELF" ||
      bytes.substr(0, 8) == "!<arch>\n" || bytes.substr(0, 4) == "\x50\xed\x55\xba")
    return "";
  return "not an ELF file, ar archive or fatbin (cuobjdump -sass reads executables, libraries, "
         "object files, cubins and fatbins)";
}

// The first non-empty line of the tool's stderr, white space collapsed, at most 240 characters.
std::string FirstLine(const std::string& text) {
  std::string line;
  for (char c : text) {
    if (c == '\n' && !line.empty())
      break;
    bool space = c == ' ' || c == '\t' || c == '\r' || c == '\n';
    if (space && (line.empty() || line.back() == ' '))
      continue;
    line += space ? ' ' : c;
  }
  while (!line.empty() && line.back() == ' ')
    line.pop_back();
  if (line.size() > 240)
    line = line.substr(0, 240) + "...";
  return line;
}

// The message for a cuobjdump run that gave no SASS; "" when the listing has functions.
std::string FailureOf(const ChildOutcome& outcome,
                      const SassListing& listing,
                      std::chrono::milliseconds timeout) {
  if (outcome.timed_out) {
    std::string limit = timeout.count() % 1000 == 0 ? std::to_string(timeout.count() / 1000) + " s"
                                                    : std::to_string(timeout.count()) + " ms";
    return "cuobjdump -sass did not finish within " + limit + " and was killed";
  }
  if (outcome.signaled)
    return "cuobjdump -sass was killed by signal " + std::to_string(outcome.signal);
  std::string said = FirstLine(outcome.stderr_text);
  if (said.find("does not contain device code") != std::string::npos)
    return "contains no CUDA device code (" + said + ")";
  if (outcome.exit_code != 0) {
    return "cuobjdump -sass failed with exit code " + std::to_string(outcome.exit_code) +
           (said.empty() ? "" : ": " + said);
  }
  if (!listing.functions.empty())
    return "";
  if (listing.saw_ptx)
    return "holds PTX only, no SASS (the driver compiles it at run time): build with "
           "-gencode arch=compute_XX,code=sm_XX to embed machine code";
  return "cuobjdump -sass listed no device function";
}

}  // namespace

Result<std::string> FindCuobjdump() {
  if (std::string configured = Env("GPUPERF_CUOBJDUMP"); !configured.empty()) {
    if (IsExecutableFile(configured))
      return configured;
    return Error{"GPUPERF_CUOBJDUMP=" + configured + " is not an executable file"};
  }
  if (std::string found = SearchPath(); !found.empty())
    return found;
  std::vector<std::string> dirs;
  if (std::string cuda_home = Env("CUDA_HOME"); !cuda_home.empty())
    dirs.push_back(cuda_home + "/bin");
  dirs.emplace_back("/usr/local/cuda/bin");
  for (const std::string& dir : dirs) {
    if (IsExecutableFile(dir + "/cuobjdump"))
      return dir + "/cuobjdump";
  }
  return Error{kCuobjdumpMissing};
}

Result<SassListing> ReadSassFile(const std::string& path, const SassReadOptions& options) {
  if (std::string problem = CheckInput(path); !problem.empty())
    return Error{path + ": " + problem};
  std::string tool = options.cuobjdump;
  if (tool.empty()) {
    auto found = FindCuobjdump();
    if (!found.ok())
      return Error{path + ": " + found.error().message};
    tool = *found;
  }
  SassParser parser(path);
  // A file named "-x" would read as an option.
  std::string argument = path.substr(0, 1) == "-" ? "./" + path : path;
  auto outcome = RunCaptured({tool, "-sass", argument},
                             options.timeout,
                             [&parser](std::string_view chunk) { parser.Feed(chunk); });
  if (!outcome.ok())
    return Error{path + ": " + outcome.error().message};
  SassListing listing = parser.Finish();
  if (std::string failure = FailureOf(*outcome, listing, options.timeout); !failure.empty())
    return Error{path + ": " + failure};
  return listing;
}

}  // namespace gpuperf::io::sass
