#include "cli/app.h"

#include <string>

#include "cli/errors.h"
#include "cli/finite_numbers.h"

#ifndef GPUPERF_VERSION
#define GPUPERF_VERSION "unknown"
#endif

namespace gpuperf::cli {

const char* Version() {
  return GPUPERF_VERSION;
}

Cli::Cli() : app_("gpuperf: GPU performance baselines, diagnoses and comparisons", "gpuperf") {
  app_.require_subcommand(1);
  app_.set_version_flag("--version", Version());
  app_.footer(
      "Run 'gpuperf COMMAND --help' for a command's options and examples.\n"
      "Exit codes: 0 ok, 1 failure (bad input, failed import or write), 2 usage error.");
  commands_ = MakeCommands();
  for (auto& command : commands_)
    registered_.emplace_back(command->Register(app_), command.get());
  RejectNonFiniteNumbers(app_);
}

int Cli::Run(int argc, const char* const* argv) {
  try {
    app_.parse(argc, argv);
  } catch (const CLI::CallForHelp& request) {
    return app_.exit(request);
  } catch (const CLI::CallForAllHelp& request) {
    return app_.exit(request);
  } catch (const CLI::CallForVersion& request) {
    return app_.exit(request);
  } catch (const CLI::ParseError& error) {
    // One line, like every other error; the usage is one --help away.
    PrintError(std::string(error.what()) + " (see 'gpuperf --help')");
    return kExitUsage;
  }
  for (auto& [sub, command] : registered_) {
    if (sub->parsed())
      return command->Run();
  }
  PrintError("no command given (see 'gpuperf --help')");
  return kExitUsage;
}

}  // namespace gpuperf::cli
