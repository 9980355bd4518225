#include "cli/analyze_command.h"
#include "cli/baseline_command.h"
#include "cli/ceilings_command.h"
#include "cli/command.h"
#include "cli/compare_command.h"
#include "cli/predict_command.h"
#include "cli/ranks_command.h"

namespace gpuperf::cli {

std::vector<std::unique_ptr<Command>> MakeCommands() {
  std::vector<std::unique_ptr<Command>> commands;
  commands.push_back(std::make_unique<AnalyzeCommand>());
  commands.push_back(std::make_unique<BaselineCommand>());
  commands.push_back(std::make_unique<CeilingsCommand>());
  commands.push_back(std::make_unique<CompareCommand>());
  commands.push_back(std::make_unique<PredictCommand>());
  commands.push_back(std::make_unique<RanksCommand>());
  return commands;
}

}  // namespace gpuperf::cli
