// The user model file of `gpuperf analyze --model` (docs/metrics.md, "User model file"): kernel-
// name patterns mapped to per-launch FLOP and byte formulas. This is the file's content as read
// (io/kernel_model); model/kernel_model.h compiles the patterns and formulas.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gpuperf::model {

inline constexpr const char* kKernelModelSchema = "gpuperf-kernel-model/1";

struct KernelModelEntry {
  std::string pattern;  // ECMAScript regex, searched in the kernel name
  std::string flops;    // expression per launch; "" when absent
  std::string bytes;    // expression per launch; "" when absent (at least one of the two is set)
  std::string precision = "fp32";  // as the report prints it: "fp32", "bf16", ...
  std::string unit = "vector";     // "vector" or "tensor"
  std::string note;                // free text, not interpreted
};

struct CompiledKernelModel;  // model/kernel_model.h

struct KernelModelFile {
  std::string path;  // for notes and errors
  std::map<std::string, double> params;
  std::vector<KernelModelEntry> kernels;  // file order: the first match wins
  // The patterns and formulas compiled by the reader (io/kernel_model), which compiles them to
  // fail early, so that the analysis does not compile them again; null for a file built in code.
  std::shared_ptr<const CompiledKernelModel> compiled;
};

}  // namespace gpuperf::model
