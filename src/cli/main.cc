// Thin main: build the CLI, run one command, return its documented exit code (docs/cli.md).
// The only catch-all: an exception from a third-party library becomes one error line.
#include <exception>

#include "cli/app.h"
#include "cli/errors.h"
#include "util/heap_policy.h"

int main(int argc, char** argv) {
  gpuperf::util::KeepFreedMemoryInHeap();
  try {
    gpuperf::cli::Cli cli;
    return cli.Run(argc, argv);
  } catch (const std::exception& error) {
    gpuperf::cli::PrintError(error.what());
  } catch (...) {
    gpuperf::cli::PrintError("unexpected internal error");
  }
  return gpuperf::cli::kExitFailure;
}
