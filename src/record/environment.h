// What baseline.json records about the machine, the software and the workload, so that two
// baselines can be told apart (docs/method.md, "Baseline record"). Every value
// that could not be read is the string "not available" with the reason, never a guess.
#pragma once

#include "gpuperf/baseline.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gpuperf::record {

using baseline::HostInfo;
using baseline::kNotAvailable;

HostInfo CaptureHost();

// Environment variables that change what a GPU program does (CUDA_*, NCCL_*, OMP_*, ...).
std::map<std::string, std::string> RelevantEnvironment();

// One `nvidia-smi --query-gpu` snapshot per GPU (clocks, temperature, power, throttle reasons),
// as JSON objects keyed by the query field names; a single {"status": "not available: ..."}
// object when nvidia-smi is not on PATH or fails.
nlohmann::ordered_json GpuStateSnapshot();

// The current working directory, or "" when it cannot be read.
std::string CurrentDirectory();

// The program's input files as far as its arguments name them: every argument after the program
// that is a path to an existing regular file (or the value of a "--opt=path" argument), with its
// SHA-256, so that `gpuperf compare` can tell when the inputs changed. At most `max_files`, and
// files over `max_bytes` are listed with "not hashed (N bytes)".
std::map<std::string, std::string> HashInputFiles(const std::vector<std::string>& command,
                                                  std::size_t max_files = 16,
                                                  std::uintmax_t max_bytes = std::uintmax_t{1}
                                                                             << 30);

}  // namespace gpuperf::record
