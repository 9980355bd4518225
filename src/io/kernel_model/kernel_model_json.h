// Reads the user model file of `gpuperf analyze --model` (docs/metrics.md, "User model file"):
// JSON with schema "gpuperf-kernel-model/1", params and kernel entries. Unknown keys are errors
// (a typo must not be ignored), and every pattern and formula is compiled here
// (model/kernel_model.h), so that a bad file fails before the analysis with one line naming it.
#pragma once

#include "gpuperf/kernel_model.h"
#include "gpuperf/result.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace gpuperf::io {

// Larger files are refused before parsing: a model file is a few kilobytes.
inline constexpr std::size_t kMaxKernelModelBytes = std::size_t{4} << 20;

// Parses `text`; `path` names the file in errors ("PATH: kernels[0]: unknown key \"flop\"") and
// goes to KernelModelFile::path.
Result<model::KernelModelFile> ParseKernelModelJson(std::string_view text, const std::string& path);

// Reads and parses the file at `path`.
Result<model::KernelModelFile> ReadKernelModelFile(const std::string& path);

}  // namespace gpuperf::io
