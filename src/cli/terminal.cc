#include "cli/terminal.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <cstring>

namespace gpuperf::cli {
namespace {

bool g_quiet = false;

std::FILE* NullSink() {
  static std::FILE* sink = std::fopen("/dev/null", "w");
  return sink;
}

}  // namespace

bool StdoutIsTerminal() {
  return ::isatty(STDOUT_FILENO) == 1;
}

bool StderrIsTerminal() {
  return ::isatty(STDERR_FILENO) == 1;
}

std::size_t TerminalWidth() {
  if (const char* columns = std::getenv("COLUMNS"); columns != nullptr) {
    std::size_t value = 0;
    const char* end = columns + std::strlen(columns);
    auto [ptr, ec] = std::from_chars(columns, end, value);
    if (ec == std::errc() && ptr == end && value >= 20)
      return value;
  }
  winsize size{};
  if (StdoutIsTerminal() && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col >= 20)
    return size.ws_col;
  return 80;
}

void SetQuiet(bool quiet) {
  g_quiet = quiet;
}

bool Quiet() {
  return g_quiet;
}

std::FILE* Out() {
  std::FILE* sink = g_quiet ? NullSink() : nullptr;
  return sink != nullptr ? sink : stdout;
}

Progress::Progress(std::string what, std::chrono::milliseconds delay)
    : what_(std::move(what)), start_(std::chrono::steady_clock::now()) {
  if (Quiet() || !StderrIsTerminal())
    return;
  timer_ = std::thread([this, delay] {
    std::unique_lock lock(mutex_);
    if (done_cv_.wait_for(lock, delay, [this] { return done_; }))
      return;
    shown_ = true;
    std::fprintf(stderr, "gpuperf: %s...", what_.c_str());
    std::fflush(stderr);
  });
}

Progress::~Progress() {
  Finish();
}

void Progress::Finish() {
  if (finished_)
    return;
  finished_ = true;
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  done_cv_.notify_all();
  if (timer_.joinable())
    timer_.join();
  if (shown_) {
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::fprintf(stderr, " done in %.1f s\n", seconds);
  }
}

}  // namespace gpuperf::cli
