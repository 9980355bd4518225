// Golden tests (style principle 9): each folder tests/golden/<case>/ holds `args` (the arguments
// after `gpuperf analyze`), an optional hand-written input, and expected.md / expected.json.
// The driver runs the real binary with --out in a temporary directory, normalises what changes
// between machines (absolute corpus paths, the tool version) and compares the files whole.
// GPUPERF_UPDATE_GOLDEN=1 rewrites the expected files instead; review them with `git diff`.
//
// A case whose args start with `compare` runs `gpuperf compare` instead, and its expected files
// are compare.md / compare.json (expected-compare.md / .json in the folder).
//
// args syntax: whitespace-separated words, '#' starts a comment line; `$CORPUS/` at the start
// of a word stands for $GPUPERF_CORPUS. The cases that need it are a test case of their own,
// which corpus.h skips when it is unset (under CTest: reported as skipped, not passed).
// Relative paths are relative to the case folder, which is the working directory. A word naming
// a `.sql` file of the case stands for an SQLite database built from it first (an Nsight Systems
// export is binary; the case keeps its SQL text, so it needs no corpus and can be read in review).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "cli_test_support.h"
#include "corpus.h"
#include "nsys_test_db.h"

namespace gpuperf::testing {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCorpusToken = "$CORPUS";
constexpr const char* kVersionPlaceholder = "<version>";
constexpr const char* kBuiltToken = "$BUILT";

std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? "" : value;
}

void ReplaceAll(std::string& text, const std::string& from, const std::string& to) {
  if (from.empty())
    return;
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

// The words of an args file, comment lines left out.
std::vector<std::string> ArgsWords(const fs::path& dir) {
  std::istringstream lines(ReadFile(dir / "args"));
  std::vector<std::string> out;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream words(line);
    for (std::string word; words >> word;)
      out.push_back(word);
  }
  return out;
}

bool NeedsCorpus(const fs::path& dir) {
  const std::vector<std::string> words = ArgsWords(dir);
  return std::any_of(words.begin(), words.end(), [](const std::string& word) {
    return word.rfind(kCorpusToken, 0) == 0;
  });
}

// The arguments of a case, the corpus token replaced (the caller has checked that the corpus is
// set). A `.sql` word is built into `built`/<name>.sqlite and replaced by that path.
std::vector<std::string> ReadArgs(const fs::path& dir, const fs::path& built) {
  const std::string corpus = Env("GPUPERF_CORPUS");
  std::vector<std::string> args;
  for (std::string word : ArgsWords(dir)) {
    if (word.rfind(kCorpusToken, 0) == 0) {
      REQUIRE(!corpus.empty());
      word = corpus + word.substr(std::string(kCorpusToken).size());
    } else if (fs::path(word).extension() == ".sql") {
      fs::path database = built / fs::path(word).filename().replace_extension(".sqlite");
      WriteFile(database, MakeSqliteImage(ReadFile(dir / word)));
      word = database.string();
    }
    args.push_back(word);
  }
  return args;
}

// The run id changes with every run: the "run_id" line of a JSON file and the "Run id:" line
// that ends a Markdown file are dropped (cli_hostile_input_test checks that they are there).
std::string StripRunId(std::string text) {
  for (const std::string& start : {std::string("  \"run_id\": \""), std::string("\nRun id: `")}) {
    const std::size_t at = text.find(start);
    if (at == std::string::npos)
      continue;
    const std::size_t end = text.find('\n', at + 1);
    text.erase(at, end == std::string::npos ? std::string::npos : end - at + 1);
  }
  return text;
}

// Machine-specific text in an output file: the corpus root, the folder of built inputs and the
// version of gpuperf.
std::string Normalise(std::string text, const std::string& version, const fs::path& built) {
  std::string corpus = Env("GPUPERF_CORPUS");
  while (!corpus.empty() && corpus.back() == '/')
    corpus.pop_back();
  ReplaceAll(text, corpus, kCorpusToken);
  ReplaceAll(text, built.string(), kBuiltToken);
  ReplaceAll(text,
             "\"version\": \"" + version + "\"",
             std::string("\"version\": \"") + kVersionPlaceholder + "\"");
  ReplaceAll(
      text, "gpuperf " + version + " (", std::string("gpuperf ") + kVersionPlaceholder + " (");
  return StripRunId(std::move(text));
}

// Fails with the first differing line, which is what a reviewer needs to see.
void CompareText(const std::string& expected, const std::string& actual, const fs::path& file) {
  if (expected == actual)
    return;
  std::istringstream e(expected), a(actual);
  std::string e_line, a_line;
  for (int line = 1;; ++line) {
    bool more_e = static_cast<bool>(std::getline(e, e_line));
    bool more_a = static_cast<bool>(std::getline(a, a_line));
    if (!more_e && !more_a)
      break;
    if (more_e != more_a || e_line != a_line) {
      FAIL(file.string() << ":" << line << " differs (GPUPERF_UPDATE_GOLDEN=1 rewrites)\n"
                         << "expected: " << (more_e ? e_line : "<end of file>") << "\n"
                         << "actual:   " << (more_a ? a_line : "<end of file>"));
    }
  }
  FAIL(file.string() << " differs only in line endings");
}

void RunCase(const fs::path& dir, const std::string& version) {
  TempDir built;
  std::vector<std::string> args = ReadArgs(dir, built.path());
  const bool compare = !args.empty() && args.front() == "compare";
  if (!compare)
    args.insert(args.begin(), "analyze");
  TempDir out;
  args.insert(args.end(), {"--out", out.path().string()});
  RunResult result = RunGpuperf(args, dir.string());
  INFO("stderr: " << result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(result.err.empty());
  bool update = Env("GPUPERF_UPDATE_GOLDEN") == "1";
  const auto outputs = compare ? std::vector{std::pair{"compare.md", "expected.md"},
                                             std::pair{"compare.json", "expected.json"}}
                               : std::vector{std::pair{"report.md", "expected.md"},
                                             std::pair{"report.json", "expected.json"}};
  for (const auto& [produced, expected] : outputs) {
    REQUIRE(fs::exists(out.path() / produced));
    std::string actual = Normalise(ReadFile(out.path() / produced), version, built.path());
    if (update) {
      WriteFile(dir / expected, actual);
      continue;
    }
    if (!fs::exists(dir / expected))
      FAIL((dir / expected).string() << " is missing: run with GPUPERF_UPDATE_GOLDEN=1");
    CompareText(ReadFile(dir / expected), actual, dir / expected);
  }
  // roofline.svg is not a golden file; it must exist exactly when report.md links it.
  if (!compare) {
    const std::string md = ReadFile(out.path() / "report.md");
    const bool linked = md.find("](roofline.svg)") != std::string::npos;
    CHECK(fs::exists(out.path() / "roofline.svg") == linked);
  }
}

// The case folders that need the corpus, or those that do not.
std::vector<fs::path> GoldenCases(bool on_corpus) {
  std::vector<fs::path> cases;
  for (const auto& entry :
       fs::directory_iterator(fs::path(GPUPERF_SOURCE_DIR) / "tests" / "golden")) {
    if (entry.is_directory() && fs::exists(entry.path() / "args") &&
        NeedsCorpus(entry.path()) == on_corpus)
      cases.push_back(entry.path());
  }
  std::sort(cases.begin(), cases.end());
  return cases;
}

void RunCases(const std::vector<fs::path>& cases) {
  RunResult version = RunGpuperf({"--version"});
  REQUIRE(version.exit_code == 0);
  std::string v = version.out.substr(0, version.out.find('\n'));
  for (const auto& dir : cases) {
    DYNAMIC_SECTION(dir.filename().string()) {
      RunCase(dir, v);
    }
  }
}

// Two test cases, so that CTest can report the corpus cases as skipped without hiding the others.
TEST_CASE("golden reports without the corpus match expected.md and expected.json", "[golden]") {
  auto cases = GoldenCases(false);
  REQUIRE(cases.size() >= 5);
  RunCases(cases);
}

TEST_CASE("golden reports on the corpus match expected.md and expected.json", "[golden]") {
  if (!CorpusIsSet("golden cases on the corpus not checked"))
    return;
  auto cases = GoldenCases(true);
  REQUIRE(cases.size() >= 5);
  RunCases(cases);
}

}  // namespace
}  // namespace gpuperf::testing
