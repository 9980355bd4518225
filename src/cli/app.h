// The gpuperf command line: the CLI11 app with every command registered, one parse, one run.
// main() only calls Cli::Run; tests build a Cli to read the help text.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/command.h"

namespace gpuperf::cli {

// The version printed by --version and written into report.json.
const char* Version();

class Cli {
 public:
  Cli();
  Cli(const Cli&) = delete;
  Cli& operator=(const Cli&) = delete;

  // Parses the arguments and runs the chosen command. Usage errors print one
  // "gpuperf: error: ..." line and return kExitUsage; --help and --version print and return 0.
  int Run(int argc, const char* const* argv);

  CLI::App& app() { return app_; }

 private:
  // `gpuperf help CMD`, and a first word that is no command ("analyse"): answered before CLI11,
  // whose message for both is "A subcommand is required".
  std::optional<int> RunHelpOrTypo(int argc, const char* const* argv);
  // "unknown option --otu for 'gpuperf analyze'; did you mean --out?", or "" if none is unknown.
  std::string DescribeUnknownOptions(int argc, const char* const* argv) const;

  bool verbose_ = false;
  bool quiet_ = false;
  CLI::App app_;
  std::vector<std::unique_ptr<Command>> commands_;
  std::vector<std::pair<CLI::App*, Command*>> registered_;
};

}  // namespace gpuperf::cli
