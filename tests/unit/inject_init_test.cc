// The injection entry point on a machine without a driver (brief §5.2): InitializeInjection must
// return 1, never crash or print, and leave a spool whose status says why nothing was recorded.
#include <catch2/catch.hpp>

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "io/spool/spool_reader.h"

namespace fs = std::filesystem;

namespace {

fs::path FreshDir(const std::string& tag) {
  const fs::path dir = fs::temp_directory_path() / (tag + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// Loads the injection library in a forked child (it registers process-wide state: atexit,
// signal handlers) with GPUPERF_OUT_DIR=dir and `metrics` as GPUPERF_METRICS (none when null),
// calls InitializeInjection twice (it must be idempotent and return 1), exits like a normal
// program; returns the child's pid after checking that it exited 0.
pid_t InitializeInChild(const fs::path& dir, const char* metrics) {
  const pid_t child = fork();
  if (child == 0) {
    setenv("GPUPERF_OUT_DIR", dir.c_str(), 1);
    if (metrics != nullptr)
      setenv("GPUPERF_METRICS", metrics, 1);
    void* library = dlopen(GPUPERF_INJECT_LIB, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr)
      _exit(10);
    auto init = reinterpret_cast<int (*)()>(dlsym(library, "InitializeInjection"));
    if (init == nullptr)
      _exit(11);
    if (init() != 1 || init() != 1)
      _exit(12);
    std::exit(0);  // runs atexit handlers
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  return child;
}

// The one spool in `dir`, with a footer and no events.
gpuperf::io::SpoolContents OnlyEmptySpool(const fs::path& dir) {
  const auto files = gpuperf::io::ListSpoolFiles(dir.string());
  REQUIRE(files.size() == 1);
  auto contents = gpuperf::io::ReadSpoolFile(files.front());
  REQUIRE(contents.ok());
  CHECK(contents->has_footer);
  CHECK(contents->events.empty());
  return std::move(*contents);
}

}  // namespace

TEST_CASE("InitializeInjection without a driver returns 1 and records the failure", "[inject]") {
  const fs::path dir = FreshDir("gpuperf-inject-init");
  const pid_t child = InitializeInChild(dir, nullptr);
  const auto contents = OnlyEmptySpool(dir);
  CHECK(contents.header.pid == child);
  bool reported = false;
  for (const auto& s : contents.statuses) {
    INFO(s.message);
    reported |= s.level == gpuperf::spool::StatusLevel::kError;
  }
  CHECK(reported);
  fs::remove_all(dir);
}

TEST_CASE("without GPUPERF_OUT_DIR the injection stays out of the way", "[inject]") {
  const pid_t child = fork();
  if (child == 0) {
    unsetenv("GPUPERF_OUT_DIR");
    void* library = dlopen(GPUPERF_INJECT_LIB, RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr)
      _exit(10);
    auto init = reinterpret_cast<int (*)()>(dlsym(library, "InitializeInjection"));
    _exit(init != nullptr && init() == 1 ? 0 : 12);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("the counter pass without a driver returns 1 and says why nothing was profiled",
          "[inject][counters]") {
  const fs::path dir = FreshDir("gpuperf-inject-counters");
  InitializeInChild(dir, "gpu__time_duration.sum,dram__bytes_read.sum");
  const auto contents = OnlyEmptySpool(dir);  // never traces in the counter pass
  bool reported = false;
  for (const auto& s : contents.statuses) {
    INFO(s.message);
    reported |=
        s.level == gpuperf::spool::StatusLevel::kError && s.message.rfind("counter pass: ", 0) == 0;
  }
  CHECK(reported);
  // The CSV exists with its header only: nothing was profiled, nothing is made up.
  std::size_t csv_files = 0;
  for (const auto& entry : fs::directory_iterator(dir))
    csv_files += entry.path().string().ends_with(".counters.csv");
  CHECK(csv_files == 1);
  fs::remove_all(dir);
}

TEST_CASE("the injection library exports its entry points and nothing of ours else", "[inject]") {
  void* library = dlopen(GPUPERF_INJECT_LIB, RTLD_LAZY | RTLD_LOCAL);
  REQUIRE(library != nullptr);
  CHECK(dlsym(library, "InitializeInjection") != nullptr);
  CHECK(dlsym(library, "InitializeInjectionNvtx2") != nullptr);
  CHECK(dlsym(library, "InitializeInjectionNvtxExtension") != nullptr);
  CHECK(dlsym(library, "_ZN7gpuperf6inject14ForwardToCuptiEPKcPKv") == nullptr);
  // gpuperf::spool::Demangle(std::string const&), linked in from the static spool library.
  CHECK(dlsym(library,
              "_ZN7gpuperf6record8DemangleERKNSt7__cxx1112basic_stringIcSt11char_"
              "traitsIcESaIcEEE") == nullptr);
  dlclose(library);
}
