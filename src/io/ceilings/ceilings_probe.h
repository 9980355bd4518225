// Runs kernels/ceilings_probe.cu's program (gpuperf_ceilings_probe) for `gpuperf ceilings`: finds
// it, runs it as a child process with a deadline (io/sass/child_process.h) and parses what it
// prints (ceilings_json.h).
#pragma once

#include "gpuperf/measured_ceilings.h"
#include "gpuperf/result.h"

#include <chrono>
#include <cstdint>
#include <string>

namespace gpuperf::io::ceilings {

inline constexpr const char* kProbeName = "gpuperf_ceilings_probe";
inline constexpr const char* kProbeEnv = "GPUPERF_CEILINGS_PROBE";

// The probe, in this order: `explicit_path` (--probe; must be an executable file), then
// $GPUPERF_CEILINGS_PROBE (the same), then gpuperf_ceilings_probe next to `self_exe` (the
// installed layout) and in ../kernels/ from it (the build tree: build/src/gpuperf,
// build/kernels/gpuperf_ceilings_probe). Fails with one line naming what was tried.
Result<std::string> LocateProbe(const std::string& explicit_path, const std::string& self_exe);

// The running program's path (/proc/self/exe); "" when unknown.
std::string SelfExecutable();

// Runs `probe --device N`, kills it after `timeout`, and parses its stdout. Errors start with
// the probe's path: "PROBE: exited with code 1: <its first stderr line>", "PROBE: did not finish
// within 300 s and was killed", "PROBE: printed invalid ceilings: <what>".
Result<model::MeasuredCeilings> RunProbe(const std::string& probe,
                                         std::int32_t device,
                                         std::chrono::milliseconds timeout);

}  // namespace gpuperf::io::ceilings
