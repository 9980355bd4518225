#include "cli/rank_inputs.h"

#include "gpuperf/import.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>

#include "analysis/ranks/rank_summary.h"
#include "cli/trace_input.h"
#include "io/report/baseline_json_reader.h"
#include "io/report/rank_summary_json.h"

namespace gpuperf::cli {
namespace {

namespace fs = std::filesystem;

// The traces of a baseline directory's analysed run (else its last run), and its GPU state.
void AddBaseline(const fs::path& dir,
                 std::vector<RankInput>& out,
                 std::vector<ranks::FileError>& errors) {
  auto b = io::ReadBaselineJson((dir / "baseline.json").string());
  if (!b.ok()) {
    errors.push_back(
        {dir.string(), fmt::format("{}: baseline.json is not valid JSON", dir.string())});
    return;
  }
  if (b->runs.empty()) {
    errors.push_back(
        {dir.string(), fmt::format("{}: baseline.json has no measured run", dir.string())});
    return;
  }
  const io::BaselineFile::Run* run = &b->runs.back();
  for (const io::BaselineFile::Run& r : b->runs) {
    if (r.index == b->analyzed_run)
      run = &r;
  }
  for (const std::string& t : run->traces)
    out.push_back({(dir / t).string(), b->gpu_state_before});
}

bool IsRankFile(const fs::path& path) {
  std::string name = path.filename().string();
  return name.find(".json") != std::string::npos || name.ends_with(".sqlite");
}

}  // namespace

std::vector<RankInput> ExpandRankInputs(const std::vector<std::string>& arguments,
                                        std::vector<ranks::FileError>& errors) {
  std::vector<RankInput> out;
  for (const std::string& argument : arguments) {
    std::error_code error;
    fs::path path(argument);
    if (!fs::is_directory(path, error)) {
      out.push_back({argument, ""});
      continue;
    }
    if (fs::exists(path / "baseline.json")) {
      AddBaseline(path, out, errors);
      continue;
    }
    std::vector<fs::path> entries;
    for (const auto& entry : fs::directory_iterator(path, error))
      entries.push_back(entry.path());
    if (error) {
      errors.push_back({argument, fmt::format("{}: cannot list: {}", argument, error.message())});
      continue;
    }
    std::sort(entries.begin(), entries.end());
    for (const fs::path& entry : entries) {
      if (fs::is_directory(entry, error) && fs::exists(entry / "baseline.json"))
        AddBaseline(entry, out, errors);
      else if (fs::is_regular_file(entry, error) && IsRankFile(entry))
        out.push_back({entry.string(), ""});
    }
  }
  return out;
}

std::vector<ranks::RankSummary> ReadRanks(const std::vector<RankInput>& inputs,
                                          unsigned jobs,
                                          std::vector<ranks::FileError>& errors) {
  std::vector<std::optional<ranks::RankSummary>> results(inputs.size());
  std::vector<std::optional<ranks::FileError>> failures(inputs.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < inputs.size(); i = next++) {
      const RankInput& input = inputs[i];
      auto read = io::ReadRankSummaryOrTracePath(input.path);  // content decides, in io
      if (!read.ok()) {
        failures[i] = ranks::FileError{input.path, read.error().message};
        continue;
      }
      if (read->summary) {
        results[i] = std::move(*read->summary);
        continue;
      }
      auto trace = ImportTraceForAnalysis(input.path);
      if (!trace.ok()) {
        failures[i] = ranks::FileError{input.path, trace.error().message};
        continue;
      }
      ranks::RankSummary summary =
          analysis::SummarizeRank(*trace, analysis::RankFromFileName(input.path));
      summary.clocks = input.clocks;
      results[i] = std::move(summary);
    }
  };
  unsigned threads = jobs > 0 ? jobs : std::max(1u, std::thread::hardware_concurrency());
  threads =
      std::min<unsigned>(threads, static_cast<unsigned>(std::max<std::size_t>(1, inputs.size())));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool)
    t.join();
  std::vector<ranks::RankSummary> summaries;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (results[i])
      summaries.push_back(std::move(*results[i]));
    if (failures[i])
      errors.push_back(std::move(*failures[i]));
  }
  return summaries;
}

}  // namespace gpuperf::cli
