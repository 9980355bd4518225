// The help text is the source of docs/cli.md: every option must appear in both, so that the
// documentation cannot drift from the parser silently.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cli/app.h"
#include "cli_test_support.h"

namespace gpuperf::cli {
namespace {

// "--out" and "-o" for an option, or the positional's name ("trace").
std::vector<std::string> Spellings(const CLI::Option& option) {
  std::vector<std::string> names;
  for (const auto& name : option.get_lnames())
    names.push_back("--" + name);
  for (const auto& name : option.get_snames())
    names.push_back("-" + name);
  if (names.empty())
    names.push_back(option.get_name());
  return names;
}

TEST_CASE("every option of every command is in its help text and in docs/cli.md") {
  Cli cli;
  std::string docs = testing::ReadFile(std::string(GPUPERF_SOURCE_DIR) + "/docs/cli.md");
  REQUIRE_FALSE(docs.empty());
  for (const CLI::App* sub : cli.app().get_subcommands([](const CLI::App*) { return true; })) {
    std::string help = sub->help();
    CHECK(docs.find("gpuperf " + sub->get_name()) != std::string::npos);
    for (const CLI::Option* option : sub->get_options()) {
      for (const auto& spelling : Spellings(*option)) {
        INFO(sub->get_name() << " " << spelling);
        CHECK(help.find(spelling) != std::string::npos);
        CHECK(docs.find(spelling) != std::string::npos);
      }
    }
  }
}

TEST_CASE("analyze help has examples, defaults and exit codes") {
  Cli cli;
  std::string help = cli.app().get_subcommand("analyze")->help();
  CHECK(help.find("Examples:") != std::string::npos);
  CHECK(help.find("gpuperf analyze trace.json.gz") != std::string::npos);
  CHECK(help.find("gpuperf-report") != std::string::npos);
  CHECK(help.find("Exit codes: 0 ok, 1 failure") != std::string::npos);
}

TEST_CASE("docs/cli.md documents the exit codes") {
  std::string docs = testing::ReadFile(std::string(GPUPERF_SOURCE_DIR) + "/docs/cli.md");
  for (const char* code : {"| 0 |", "| 1 |", "| 2 |"})
    CHECK(docs.find(code) != std::string::npos);
}

}  // namespace
}  // namespace gpuperf::cli
