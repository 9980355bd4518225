#include "cli/finite_numbers.h"

#include <cmath>
#include <cstdlib>
#include <string_view>

namespace gpuperf::cli {
namespace {

// Type names of options whose value is text, never a number: a file named "inf" stays a file.
constexpr std::string_view kTextTypes[] = {"AFTER",
                                           "BEFORE",
                                           "CSV",
                                           "DIR",
                                           "EXE",
                                           "FILE",
                                           "LIST",
                                           "PATH",
                                           "REGEX",
                                           "REPORT_OR_TRACE",
                                           "TRACE"};

bool TakesText(const CLI::Option& option) {
  std::string type = option.get_type_name();
  type = type.substr(0, type.find_first_of(":|"));
  for (std::string_view text : kTextTypes) {
    if (type == text)
      return true;
  }
  return false;
}

void AddCheck(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    if (option->get_type_size() == 0 || TakesText(*option))
      continue;  // a flag, or a text option
    option->check(CLI::Validator(
        [](std::string& value) -> std::string {
          return IsNonFiniteNumber(value) ? value + " is not a finite number" : std::string();
        },
        "",  // no description: the help text stays as it was
        std::string(kFiniteValidator)));
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    AddCheck(*sub);
}

}  // namespace

bool IsNonFiniteNumber(const std::string& text) {
  std::string_view trimmed = text;
  while (!trimmed.empty() && (trimmed.back() == '%' || trimmed.back() == ' '))
    trimmed.remove_suffix(1);  // "--threshold nan%" is as much a number as "nan"
  if (trimmed.empty())
    return false;
  const std::string copy(trimmed);
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size())
    return false;
  return !std::isfinite(value);  // 1e999 reads as HUGE_VAL, an infinity
}

void RejectNonFiniteNumbers(CLI::App& app) {
  AddCheck(app);
}

}  // namespace gpuperf::cli
