// Every numeric option of every command refuses NaN and infinities. CLI11's range checks compare
// the parsed value, and every comparison with NaN is false, so `--alpha nan` passed
// CLI::Range(1e-6, 0.5) and silently turned the compare gate off.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace gpuperf::cli {

// The check's name (CLI::Option::get_validator).
inline constexpr const char* kFiniteValidator = "finite";

// Adds the check to every option of `app` and its subcommands that takes a value, except the
// options whose type name says they take text (paths, regexes, lists: see the .cc). The check
// fails "--alpha: nan is not a finite number" for a value that reads whole as a non-finite
// floating-point number ("nan", "-inf", "Infinity", "1e999").
void RejectNonFiniteNumbers(CLI::App& app);

// Whether `text` reads whole as a floating-point number that is not finite.
bool IsNonFiniteNumber(const std::string& text);

}  // namespace gpuperf::cli
