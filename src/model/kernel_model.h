// The user model file compiled (docs/metrics.md, "User model file"): each entry's regex and
// formulas parsed once, names checked, so that a typo fails when the file is read
// (io/kernel_model) and not silently at analysis; then kernel names matched to entries and the
// formulas evaluated per launch (analysis/kernel_model).
#pragma once

#include "gpuperf/kernel_model.h"
#include "gpuperf/result.h"
#include "gpuperf/trace.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/ceilings.h"
#include "util/expression.h"
#include "util/user_regex.h"

namespace gpuperf::model {

// What a formula may read of each launch besides the file's params and the capture groups g1..gN.
inline constexpr std::string_view kLaunchVariables[] = {
    "grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z", "blocks", "threads"};

// Longer patterns are refused and longer kernel names never matched (util/user_regex.h).
inline constexpr std::size_t kMaxPatternLength = util::kMaxUserPatternLength;
inline constexpr std::size_t kMaxMatchedNameLength = util::kMaxUserSubjectLength;

struct CompiledKernelEntry {
  std::size_t index = 0;  // in KernelModelFile::kernels
  std::string pattern;
  util::UserRegex regex;
  std::optional<util::Expression> flops;
  std::optional<util::Expression> bytes;
  Precision precision = Precision::kFp32;
  MathUnit unit = MathUnit::kVector;
};

struct CompiledKernelModel {
  std::map<std::string, double> params;
  std::vector<CompiledKernelEntry> entries;
};

// Compiles every entry. The error names the part of the file, without the path (the reader adds
// it): "kernels[1].pattern 'sgemm_(': not a valid ECMAScript regex (...)", "kernels[0].flops
// '2*M*X': unknown identifier 'X' at column 5", "params.blocks: a reserved name".
Result<CompiledKernelModel> CompileKernelModel(const KernelModelFile& file);

// A kernel name against the entries: the first whose pattern is found in it.
struct KernelNameMatch {
  std::int32_t entry = -1;          // index into CompiledKernelModel::entries; -1: none
  std::vector<std::string> groups;  // capture groups g1..gN ("" when a group took no part)
  std::string error;  // why the name was not matched (too long, the regex engine gave up)
};

// One match per name, in order, through util::UserRegex (long names on a large-stack thread).
std::vector<KernelNameMatch> MatchKernelNames(const CompiledKernelModel& model,
                                              const std::vector<std::string_view>& names);

// The work of one launch of a matched kernel.
struct LaunchWork {
  std::optional<double> flops;
  std::optional<double> bytes;
};

// Evaluates the entry's formulas for `launch`. Errors: "g1 ('x') is not a number", "flops:
// division by zero", "bytes: -4 is negative", "flops: grid_x unknown (the trace records no grid
// for this launch)".
Result<LaunchWork> EvaluateLaunch(const CompiledKernelModel& model,
                                  const KernelNameMatch& match,
                                  const GpuActivity& launch);

}  // namespace gpuperf::model
