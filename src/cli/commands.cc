#include "cli/analyze_command.h"
#include "cli/baseline_command.h"
#include "cli/command.h"

namespace gpuperf::cli {

std::vector<std::unique_ptr<Command>> MakeCommands() {
  std::vector<std::unique_ptr<Command>> commands;
  commands.push_back(std::make_unique<AnalyzeCommand>());
  commands.push_back(std::make_unique<BaselineCommand>());
  return commands;
}

}  // namespace gpuperf::cli
