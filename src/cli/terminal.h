// What every command knows about the terminal it prints to: its width, whether stdout/stderr are
// terminals, the --quiet switch, and a progress line on stderr for work that takes over a second.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

namespace gpuperf::cli {

bool StdoutIsTerminal();
bool StderrIsTerminal();

// Columns to wrap stdout at: $COLUMNS when it is a number (20 or more), else the terminal's
// width (TIOCGWINSZ) when stdout is a terminal, else 80.
std::size_t TerminalWidth();

// --quiet: commands print their summaries through Out(), which is a null sink when quiet.
// Errors and warnings still go to stderr.
void SetQuiet(bool quiet);
bool Quiet();
std::FILE* Out();

// Says "gpuperf: <what>..." on stderr once the work has taken `delay`, then how long it took,
// only when stderr is a terminal and not --quiet: silence for a 12 s import is indistinguishable
// from a hang. RAII: the work is the object's lifetime.
class Progress {
 public:
  explicit Progress(std::string what,
                    std::chrono::milliseconds delay = std::chrono::milliseconds(1000));
  ~Progress();
  // Ends the progress line now (later calls and the destructor do nothing).
  void Finish();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

 private:
  std::string what_;
  std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::condition_variable done_cv_;
  bool done_ = false;
  bool shown_ = false;
  bool finished_ = false;
  std::thread timer_;
};

}  // namespace gpuperf::cli
