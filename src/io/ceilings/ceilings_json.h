// The JSON of measured ceilings: what kernels/ceilings_probe.cu prints, and the cache file
// `gpuperf ceilings` writes (the probe's object plus schema_version, evidence, date and
// gpuperf_version). Both are validated the same way: every figure finite, positive, plausible
// and consistent with its own work and time. docs/metrics.md, "Measured ceilings".
#pragma once

#include "gpuperf/measured_ceilings.h"
#include "gpuperf/result.h"
#include "gpuperf/schema_versions.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace gpuperf::io::ceilings {

// Larger input is refused before parsing: the probe prints about 2 KB.
inline constexpr std::size_t kMaxJsonBytes = 1 << 20;
// A launch shorter than this is not a sustained measurement (the probe calibrates to 25 ms).
inline constexpr double kMinLaunchMs = 10.0;

// Parses and validates the probe's stdout. Errors are one line without a file name: "not JSON
// (...)", "missing dram.bytes_per_s", "fp32_vector.flops_per_s: not a positive finite number",
// "bf16_tensor: flops_per_launch / best_ms is 1.2e+14 FLOP/s, not the 9.1e+14 it states", ...
Result<model::MeasuredCeilings> ParseProbeOutput(std::string_view text);

// Parses and validates a cache file's text; additionally needs schema_version 1.x, evidence
// "measured" and a date. `path` only goes into the errors ("PATH: ...") and MeasuredCeilings::path.
Result<model::MeasuredCeilings> ParseCacheJson(std::string_view text, const std::string& path);

// The cache file for `measured` (date and gpuperf_version filled by the caller), pretty-printed.
std::string ToCacheJson(const model::MeasuredCeilings& measured);

}  // namespace gpuperf::io::ceilings
