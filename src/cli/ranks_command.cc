#include "cli/ranks_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>

#include "analysis/ranks.h"
#include "cli/app.h"
#include "cli/errors.h"
#include "cli/input_options.h"
#include "cli/rank_inputs.h"
#include "cli/report_output.h"
#include "report/json_writer.h"
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
  gpuperf ranks summaries/*.summary.json
      Summaries written on the cluster by `gpuperf analyze TRACE --summary` (thousands of ranks).

A rank's number comes from the trace (distributedInfo) or the file name (rank-N, workerN, .rN.).
A missing or corrupt rank file is reported and the others are analysed.
Exit codes: 0 ok (also with unreadable rank files, listed in the report), 1 nothing readable or a
failed write, 2 usage.)";

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
  std::vector<ranks::RankSummary> summaries =
      ReadRanks(inputs, static_cast<unsigned>(jobs_), errors);
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
  std::printf("%zu rank(s) read, %zu unreadable, %zu straggler(s)\n",
              result.ranks.size(),
              errors.size(),
              result.stragglers.size());
  for (const auto& s : result.stragglers)
    std::printf(
        "  rank %lld (%s): %s\n", static_cast<long long>(s.rank), s.kind.c_str(), s.reason.c_str());
  for (const std::string& path : *written)
    std::printf("wrote %s\n", path.c_str());
  return std::fflush(stdout) == 0 ? kExitOk : kExitFailure;
}

}  // namespace gpuperf::cli
