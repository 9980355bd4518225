// Reads back the parts of a baseline.json (docs/recorder.md) that `gpuperf compare` and
// `gpuperf ranks` use: the environment fingerprint, the measured runs and their traces, and the
// analysed run. Keys come from gpuperf/baseline_json_keys.h, shared with the writer.
#pragma once

#include "gpuperf/result.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gpuperf::io {

// Values as baseline.json writes them. "Text" fields: a string as written, an array's items
// joined by spaces, null as "", anything else as its JSON. A missing key or one of another type
// reads as empty, so older files stay readable.
struct BaselineFile {
  struct Gpu {
    std::string name;
    std::int64_t max_sm_clock_khz = 0;
    std::int64_t max_memory_clock_khz = 0;
  };
  struct Run {
    std::int64_t index = -1;  // 1-based; -1 when missing
    bool complete = false;
    double wall_time_s = 0;
    std::vector<std::string> traces;  // relative to the baseline directory
  };
  std::vector<Gpu> gpus;
  bool gpus_recorded = false;  // hardware.gpus is a list (not "not available (...)")
  // The nvidia-smi state before the runs of the GPU in use (hardware.device_in_use), else of
  // every GPU (hardware.state_before): a string as written, else its JSON; "" when absent.
  std::string gpu_state_before;
  std::string driver_release;                 // text
  std::string cuda_runtime_version;           // text
  std::string command;                        // text
  std::string executable_sha256;              // text
  std::map<std::string, std::string> inputs;  // path -> sha256
  std::vector<Run> runs;
  std::int64_t analyzed_run = 0;  // analysis.run; 0 when no run was analysed
};

// Errors name the file: unreadable, not JSON, not a JSON object, or nested deeper than any
// baseline.json gpuperf writes.
Result<BaselineFile> ReadBaselineJson(const std::string& path);

// The same for the text of a baseline.json (tests); `path` names it in errors.
Result<BaselineFile> ParseBaselineJson(std::string_view text, const std::string& path);

}  // namespace gpuperf::io
