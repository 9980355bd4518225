#include "io/ceilings/ceilings_probe.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <vector>

#include "io/ceilings/ceilings_json.h"
#include "io/sass/child_process.h"

namespace gpuperf::io::ceilings {
namespace {

namespace fs = std::filesystem;

bool IsExecutableFile(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
         ::access(path.c_str(), X_OK) == 0;
}

// The first non-empty line of `text`, at most 240 characters.
std::string FirstLine(std::string_view text) {
  while (!text.empty() && (text.front() == '\n' || text.front() == '\r'))
    text.remove_prefix(1);
  std::string line(text.substr(0, text.find('\n')));
  while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
    line.pop_back();
  return line.size() > 240 ? line.substr(0, 240) + "..." : line;
}

}  // namespace

std::string SelfExecutable() {
  std::error_code error;
  fs::path self = fs::read_symlink("/proc/self/exe", error);
  return error ? "" : self.string();
}

Result<std::string> LocateProbe(const std::string& explicit_path, const std::string& self_exe) {
  if (!explicit_path.empty()) {
    if (IsExecutableFile(explicit_path))
      return explicit_path;
    return Error{"--probe " + explicit_path + ": not an executable file"};
  }
  if (const char* env = std::getenv(kProbeEnv); env != nullptr && *env != '\0') {
    if (IsExecutableFile(env))
      return std::string(env);
    return Error{std::string(kProbeEnv) + "=" + env + " is not an executable file"};
  }
  std::vector<std::string> tried;
  if (!self_exe.empty()) {
    const fs::path dir = fs::path(self_exe).parent_path();
    for (const fs::path& candidate : {dir / kProbeName, dir / ".." / "kernels" / kProbeName}) {
      const std::string path = candidate.lexically_normal().string();
      if (IsExecutableFile(path))
        return path;
      tried.push_back(path);
    }
  }
  std::string where;
  for (const std::string& path : tried)
    where += (where.empty() ? " (looked for " : ", ") + path;
  return Error{std::string(kProbeName) + " not found" + (where.empty() ? "" : where + ")") +
               ": pass --probe PATH or set " + kProbeEnv +
               "; it is built with the CUDA toolkit (kernels/)"};
}

Result<model::MeasuredCeilings> RunProbe(const std::string& probe,
                                         std::int32_t device,
                                         std::chrono::milliseconds timeout) {
  std::string out;
  bool overflow = false;
  auto outcome = sass::RunCaptured(
      {probe, "--device", std::to_string(device)}, timeout, [&](std::string_view chunk) {
        if (out.size() + chunk.size() > kMaxJsonBytes)
          overflow = true;
        else
          out.append(chunk);
      });
  if (!outcome.ok())
    return Error{outcome.error().message};
  const std::string said = FirstLine(outcome->stderr_text);
  if (outcome->timed_out) {
    const std::string limit = timeout.count() % 1000 == 0
                                  ? std::to_string(timeout.count() / 1000) + " s"
                                  : std::to_string(timeout.count()) + " ms";
    return Error{probe + ": did not finish within " + limit + " and was killed"};
  }
  if (outcome->signaled)
    return Error{probe + ": killed by signal " + std::to_string(outcome->signal)};
  if (outcome->exit_code != 0) {
    return Error{probe + ": exited with code " + std::to_string(outcome->exit_code) +
                 (said.empty() ? "" : ": " + said)};
  }
  if (overflow)
    return Error{probe + ": printed more than " + std::to_string(kMaxJsonBytes) + " bytes"};
  auto measured = ParseProbeOutput(out);
  if (!measured.ok())
    return Error{probe + ": printed invalid ceilings: " + measured.error().message};
  return measured;
}

}  // namespace gpuperf::io::ceilings
