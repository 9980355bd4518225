#include "cli/ranks_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "analysis/ranks/ranks.h"
#include "cli/app.h"
#include "cli/errors.h"
#include "cli/input_options.h"
#include "cli/rank_inputs.h"
#include "cli/report_output.h"
#include "cli/terminal.h"
#include "report/json_writer.h"
#include "report/ranks_terminal.h"
#include "report/ranks_writer.h"

namespace gpuperf::cli {
namespace {

// Unreadable rank files named one per line on stderr; the rest are counted in one more line.
constexpr std::size_t kWarningLines = 3;

constexpr const char* kRanksExamples = R"(Examples:
  gpuperf ranks job/
      A folder of per-rank traces (Kineto JSON, gzip or not; nsys SQLite), or a recording made by
      `srun gpuperf baseline --out job -- ./app` (rank-*/ subdirectories).
  gpuperf ranks worker*.json.gz --jobs 8
  gpuperf ranks sum/*/summary.json
      Summaries written on the cluster by `gpuperf analyze TRACE --summary --out sum/RANK`
      (thousands of ranks; each --out directory holds one summary.json).

A rank's number comes from the trace (distributedInfo) or the file name (rank-N, workerN, .rN.).
A missing or corrupt rank file is reported and the others are analysed.
Exit codes: 0 ok (also with unreadable rank files, listed in the report), 1 nothing readable or a
failed write, 2 usage.)";

// Rows of the terminal table; ranks.md has them all.
constexpr std::size_t kTerminalRows = 32;

}  // namespace

CLI::App* RanksCommand::Register(CLI::App& app) {
  CLI::App* sub = app.add_subcommand(
      "ranks", "Compare the ranks of one multi-GPU job: breakdown, collective waits, stragglers");
  sub->add_option("inputs", inputs_, "Rank traces, summary.json files or directories")
      ->required()
      ->type_name("DIR|FILES...");
  AddOutputOptions(sub, out_dir_, formats_, "ranks.md and ranks.json");
  sub->add_option("-j,--jobs", jobs_, "Ranks read in parallel (0: one per core)")
      ->check(CLI::Range(0, 4096))
      ->capture_default_str();
  AddInputLimitOptions(sub);
  sub->footer(kRanksExamples);
  return sub;
}

int RanksCommand::Run() {
  std::vector<ranks::FileError> errors;
  std::vector<RankInput> inputs = ExpandRankInputs(inputs_, errors);
  Progress progress("reading " + std::to_string(inputs.size()) + " rank input(s)");
  std::vector<ranks::RankSummary> summaries =
      ReadRanks(inputs, static_cast<unsigned>(jobs_), errors);
  progress.Finish();
  if (summaries.empty()) {  // one line: the count and the first reason
    PrintError(errors.empty() ? std::string("no rank could be read from the inputs")
                              : fmt::format("no rank could be read from the inputs ({} unreadable; "
                                            "the first: {})",
                                            errors.size(),
                                            errors.front().error));
    return kExitFailure;
  }
  for (std::size_t i = 0; i < std::min(errors.size(), kWarningLines); ++i)
    PrintWarning(errors[i].error);
  if (errors.size() > kWarningLines)
    PrintWarning(fmt::format("{} more unreadable rank file(s), listed in ranks.json errors[]",
                             errors.size() - kWarningLines));
  ranks::RanksReport result = analysis::AnalyzeRanks(summaries);
  result.errors = errors;
  report::ToolInfo tool{"gpuperf", Version()};
  std::vector<std::pair<std::string, std::string>> files;
  if (WantsFormat(formats_, "md"))
    files.emplace_back("ranks.md", report::RanksToMarkdown(result, tool));
  if (WantsFormat(formats_, "json"))
    files.emplace_back("ranks.json", report::DumpJson(report::RanksToJson(result, tool)));
  auto written = WriteReportFiles(out_dir_, files);
  if (!written.ok()) {
    PrintError(written.error().message);
    return kExitFailure;
  }
  std::FILE* out = Out();
  std::fputs(report::RanksToTerminal(result, kTerminalRows).c_str(), out);
  for (const std::string& path : *written)
    std::fprintf(out, "wrote %s\n", path.c_str());
  return std::fflush(out) == 0 ? kExitOk : kExitFailure;
}

}  // namespace gpuperf::cli
