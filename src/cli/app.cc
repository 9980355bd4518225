#include "cli/app.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>

#include "cli/errors.h"
#include "cli/finite_numbers.h"
#include "cli/logging.h"
#include "cli/suggest.h"
#include "cli/terminal.h"

#ifndef GPUPERF_VERSION
#define GPUPERF_VERSION "unknown"
#endif

namespace gpuperf::cli {
namespace {

std::vector<std::string> LongOptionNames(const CLI::App& sub) {
  std::vector<std::string> names;
  for (const CLI::Option* option : sub.get_options()) {
    for (const std::string& name : option->get_lnames())
      names.push_back("--" + name);
  }
  return names;
}

}  // namespace

const char* Version() {
  return GPUPERF_VERSION;
}

Cli::Cli() : app_("gpuperf: GPU performance baselines, diagnoses and comparisons", "gpuperf") {
  app_.require_subcommand(1);
  app_.set_version_flag("--version", Version());
  app_.footer(
      "Run 'gpuperf COMMAND --help' (or 'gpuperf help COMMAND') for a command's options and "
      "examples.\n"
      "Exit codes: 0 ok, 1 failure (bad input, failed import or write), 2 usage error.");
  commands_ = MakeCommands();
  for (auto& command : commands_) {
    CLI::App* sub = command->Register(app_);
    // The same two switches on every command (docs/cli.md, "Common options").
    CLI::Option* verbose = sub->add_flag("-v,--verbose", verbose_, "Debug log on stderr");
    sub->add_flag("-q,--quiet", quiet_, "Print nothing on stdout; errors and warnings only")
        ->excludes(verbose);
    registered_.emplace_back(sub, command.get());
  }
  RejectNonFiniteNumbers(app_);
}

std::optional<int> Cli::RunHelpOrTypo(int argc, const char* const* argv) {
  if (argc < 2)
    return std::nullopt;
  const std::string_view first = argv[1];
  if (first.empty() || first.front() == '-')
    return std::nullopt;
  std::vector<std::string> names;
  for (const auto& [sub, command] : registered_)
    names.push_back(sub->get_name());
  if (first == "help") {
    const std::string topic = argc >= 3 ? argv[2] : "";
    for (const auto& [sub, command] : registered_) {
      if (sub->get_name() == topic) {
        std::fputs(sub->help().c_str(), stdout);
        return kExitOk;
      }
    }
    if (!topic.empty()) {
      auto near = Nearest(topic, names);
      PrintError("no command '" + topic + "'" + (near ? "; did you mean '" + *near + "'?" : "") +
                 " (see 'gpuperf --help')");
      return kExitUsage;
    }
    std::fputs(app_.help().c_str(), stdout);
    return kExitOk;
  }
  if (std::find(names.begin(), names.end(), first) != names.end())
    return std::nullopt;
  auto near = Nearest(first, names);
  PrintError("unknown command '" + std::string(first) + "'" +
             (near ? "; did you mean 'gpuperf " + *near + "'?" : "") + " (see 'gpuperf --help')");
  return kExitUsage;
}

std::string Cli::DescribeUnknownOptions(int argc, const char* const* argv) const {
  for (const auto& [sub, command] : registered_) {
    if (!sub->parsed())
      continue;
    const std::vector<std::string> known = LongOptionNames(*sub);
    for (int i = 2; i < argc; ++i) {
      std::string_view arg = argv[i];
      if (arg == "--")
        break;  // the rest belongs to the program `baseline` runs
      if (arg.substr(0, 2) != "--")
        continue;
      const std::string name(arg.substr(0, arg.find('=')));
      if (std::find(known.begin(), known.end(), name) != known.end())
        continue;
      auto near = Nearest(name, known);
      return "unknown option " + name + " for 'gpuperf " + sub->get_name() + "'" +
             (near ? "; did you mean " + *near + "?" : "") + " (see 'gpuperf " + sub->get_name() +
             " --help')";
    }
  }
  return "";
}

int Cli::Run(int argc, const char* const* argv) {
  if (auto early = RunHelpOrTypo(argc, argv))
    return *early;
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
    std::string unknown = DescribeUnknownOptions(argc, argv);
    PrintError(!unknown.empty() ? unknown : std::string(error.what()) + " (see 'gpuperf --help')");
    return kExitUsage;
  }
  ConfigureLogging(verbose_);
  SetQuiet(quiet_);
  for (auto& [sub, command] : registered_) {
    if (sub->parsed())
      return command->Run();
  }
  PrintError("no command given (see 'gpuperf --help')");
  return kExitUsage;
}

}  // namespace gpuperf::cli
