// One class per CLI verb. main() builds the CLI11 app from these, runs the chosen one and turns
// its exit code into the process status. Nothing below main() calls exit().
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <vector>

namespace gpuperf::cli {

// Documented process exit codes (docs/cli.md). `compare` adds its verdicts (compare_command.h).
enum ExitCode : int {
  kExitOk = 0,
  kExitFailure = 1,     // bad input, failed import, failed write
  kExitUsage = 2,       // wrong arguments
  kExitNoGpu = 3,       // baseline, ceilings: no driver, no device, driver too old
  kExitIncomplete = 4,  // baseline: recorded, but a run is partial or nothing was traced
};

class Command {
 public:
  virtual ~Command() = default;
  // Declares the subcommand and its options on `app`; returns the subcommand.
  virtual CLI::App* Register(CLI::App& app) = 0;
  // Runs after parsing. Returns an ExitCode; prints "gpuperf: error: ..." itself on failure.
  virtual int Run() = 0;
};

std::vector<std::unique_ptr<Command>> MakeCommands();

}  // namespace gpuperf::cli
