// Running the real `gpuperf` binary from tests: a temporary directory that cleans up after
// itself and a runner that captures exit code, stdout and stderr.
#pragma once

#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace gpuperf::testing {

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "gpuperf-test-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

inline std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline void WriteFile(const std::filesystem::path& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
  REQUIRE(out.good());
}

inline std::string ShellQuote(const std::string& arg) {
  std::string quoted = "'";
  for (char c : arg)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// The binary under test: $GPUPERF_BINARY (ctest sets it), else the path CMake compiled in.
inline std::string GpuperfBinary() {
  const char* env = std::getenv("GPUPERF_BINARY");
  return env != nullptr && *env != '\0' ? env : GPUPERF_BINARY;
}

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
  std::vector<std::string> ErrLines() const {
    std::vector<std::string> lines;
    std::istringstream in(err);
    for (std::string line; std::getline(in, line);)
      lines.push_back(line);
    return lines;
  }
};

// Runs `gpuperf args...` in `cwd` (the current directory when empty).
inline RunResult RunGpuperf(const std::vector<std::string>& args, const std::string& cwd = "") {
  TempDir capture;
  std::string command;
  if (!cwd.empty())
    command = "cd " + ShellQuote(cwd) + " && ";
  command += ShellQuote(GpuperfBinary());
  for (const auto& arg : args)
    command += " " + ShellQuote(arg);
  command += " >" + ShellQuote(capture / "out") + " 2>" + ShellQuote(capture / "err");
  int status = std::system(command.c_str());
  RunResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = ReadFile(capture / "out");
  result.err = ReadFile(capture / "err");
  return result;
}

}  // namespace gpuperf::testing
