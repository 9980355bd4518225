// Thin main: build the CLI, run one command, return its documented exit code.
#include <exception>

#include "cli/command.h"
#include "cli/errors.h"

int main(int argc, char** argv) {
  using gpuperf::cli::kExitFailure;
  try {
    CLI::App app{"gpuperf: GPU performance baselines, diagnoses and comparisons", "gpuperf"};
    app.require_subcommand(1);
    app.set_version_flag("--version", GPUPERF_VERSION_STRING);
    auto commands = gpuperf::cli::MakeCommands();
    std::vector<std::pair<CLI::App*, gpuperf::cli::Command*>> registered;
    for (auto& command : commands) registered.emplace_back(command->Register(app), command.get());
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& error) {
      return app.exit(error) == 0 ? 0 : gpuperf::cli::kExitUsage;
    }
    for (auto& [sub, command] : registered) {
      if (sub->parsed()) return command->Run();
    }
    return gpuperf::cli::kExitUsage;
  } catch (const std::exception& error) {
    gpuperf::cli::PrintError(error.what());
    return kExitFailure;
  }
}
